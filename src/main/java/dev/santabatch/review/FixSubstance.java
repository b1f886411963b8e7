package dev.santabatch.review;

import dev.santabatch.text.Words;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Whether a Santa fix really changed what its issues flagged, or only looks like a fix. A fix that
 * does not counts as unchanged: an iteration with no real change, never stored nor reviewed, so no
 * fresh review can pass it; the next iteration asks the fixer again, and after the last one the item
 * is escalated with {@link SantaReason#FIX_UNCHANGED}.
 *
 * <ol>
 *   <li><b>Quoted evidence.</b> An issue that quotes passages found in the text given to the fixer
 *       points at its evidence: a fix that leaves every such passage in place (each still there as
 *       often, word for word after {@link Words normalisation}) is no fix of that issue, whatever
 *       else it rewrote.
 *   <li><b>No quoted evidence.</b> When no issue quotes the text, the fix must not be merely
 *       {@link CosmeticChange cosmetic}, unless the run's own evidence says the flag may be false:
 *       another reviewer of the same text passed the issue's criterion. A cosmetic change answering
 *       an issue that every reviewer raised (or that no other reviewer passed) is no fix: two
 *       reviewers agreeing on a defect are rarely both wrong, and rewording it by a word is how a
 *       fixer fails to fix boilerplate, which imperfect fresh reviewers would eventually pass. A
 *       cosmetic change answering an issue one reviewer raised while another passed it is accepted,
 *       and like every fix must then pass a fresh panel: nothing ships on it unless no fresh reviewer
 *       fails it. Otherwise a false flag, which the fixer can only reword, would hold a clean item.
 * </ol>
 *
 * A fix that changed some issue's quoted evidence is a real change even when it is cosmetic by
 * size: correcting one quoted word is exactly the fix asked for. Thread-safe (no state).
 */
final class FixSubstance {

    private FixSubstance() {}

    /**
     * Why {@code after} is no real fix of {@code issues} in {@code before}; empty when it is one.
     *
     * @param before the text given to the fixer
     * @param after the fixer's text (usable: neither blank, truncated nor {@link FixOutcome#unchanged unchanged})
     * @param issues the merged critical issues the fixer was given
     * @param reviews the reviews of {@code before} the issues come from (reviewers that failed to
     *     review included or not; only reviewed ones count)
     */
    static Optional<String> noRealChange(String before, String after, List<MergedIssue> issues, List<ReviewRecord> reviews) {
        List<String> b = Words.of(before);
        List<String> a = Words.of(after);
        boolean quotedEvidenceChanged = false;
        for (MergedIssue issue : issues) {
            List<List<String>> found = quotedIn(issue.text(), b);
            if (found.isEmpty()) {
                continue;
            }
            if (found.stream().allMatch(q -> Words.occurrences(a, q) >= Words.occurrences(b, q))) {
                return Optional.of("the quoted evidence \"" + String.join(" ", found.get(0)) + "\" is left in place");
            }
            quotedEvidenceChanged = true;
        }
        if (quotedEvidenceChanged || !CosmeticChange.isCosmetic(before, after)) {
            return Optional.empty();
        }
        for (MergedIssue issue : issues) {
            if (!passedByAnotherReviewer(issue, reviews)) {
                return Optional.of("a cosmetic change (at most " + CosmeticChange.MAX_WORD_EDITS
                        + " words, numbers as they were) for an issue no other reviewer passed: " + issue.text());
            }
        }
        return Optional.empty();
    }

    /** The passages {@code issue} quotes that occur in {@code text}, as normalised words. */
    private static List<List<String>> quotedIn(String issue, List<String> text) {
        List<List<String>> out = new ArrayList<>();
        for (String quote : IssueQuotes.split(issue).quotes()) {
            List<String> words = Words.of(quote);
            String stem = quote.strip();
            if ((stem.endsWith("\u2026") || stem.endsWith("...")) && words.size() > 1) {
                words = words.subList(0, words.size() - 1); // a quote cut short may end inside a word
            }
            if (Words.occurrences(text, words) > 0) {
                out.add(words);
            }
        }
        return out;
    }

    /**
     * True when a reviewer that did not raise {@code issue} reviewed the same text and passed the
     * issue's criterion (for an issue of no criterion: passed the text).
     */
    private static boolean passedByAnotherReviewer(MergedIssue issue, List<ReviewRecord> reviews) {
        for (ReviewRecord r : reviews) {
            if (r.outcome() != ReviewRecord.Kind.REVIEWED || issue.flaggedBy().contains(r.reviewerId())) {
                continue;
            }
            boolean passed = issue.criterion() == null ? r.verdict() == Verdict.PASS
                    : r.checks().stream().anyMatch(c -> Objects.equals(c.criterion(), issue.criterion())
                            && c.result() == CheckResult.PASS);
            if (passed) {
                return true;
            }
        }
        return false;
    }
}
