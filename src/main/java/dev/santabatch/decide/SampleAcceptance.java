package dev.santabatch.decide;

import dev.santabatch.rounds.LoopStore;
import dev.santabatch.stats.AcceptanceNumber;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Whether a round's reviewed sample is clean under its single sampling plan (n, c), ISO 2859-1's
 * idea for judges that make mistakes: its failures (items not NICE on first review) number at
 * most the acceptance number c, fewer than the sample, and form no systematic pattern. A sampled
 * item a reviewer failed outside its own review (a clean canary, a learned rule's fresh review:
 * {@link LoopStore.SampleOutcome#flagged}) is a failure, whatever its own review said. Without a
 * configured c, c comes from the sample size ({@link AcceptanceNumber}; docs/acceptance-number.md).
 * The failures are fixed in the sample like any other.
 *
 * @param sampleSize n
 * @param failures the sampled items not NICE on first review, or flagged
 * @param acceptanceNumber c
 * @param systematic whether the round's failures form a systematic pattern
 */
record SampleAcceptance(int sampleSize, int failures, int acceptanceNumber, boolean systematic) {

    static SampleAcceptance of(List<LoopStore.SampleOutcome> sample, List<LoopStore.PatternRow> patterns,
            @Nullable Integer configured) {
        int failures = (int) sample.stream().filter(s -> !s.niceOnFirstReview()).count();
        int c = configured != null ? configured : sample.isEmpty() ? 0 : AcceptanceNumber.forSampleSize(sample.size());
        return new SampleAcceptance(sample.size(), failures, c, patterns.stream().anyMatch(LoopStore.PatternRow::systematic));
    }

    boolean clean() {
        return sampleSize > 0 && failures < sampleSize && failures <= acceptanceNumber && !systematic;
    }

    LoopStore.Acceptance stored() {
        return new LoopStore.Acceptance(acceptanceNumber, failures);
    }
}
