package dev.santabatch.batchfix.induction;

import java.util.List;

/**
 * What a round's sample shows of one systematic pattern.
 *
 * @param criterion the criterion the pattern's issues fail
 * @param label the pattern's label
 * @param issueTexts the sampled items' issue texts of the pattern
 * @param fixes the accepted fixes of the pattern's sampled items
 * @param passed the round's sampled items both reviewers passed on first review
 */
public record PatternEvidence(String criterion, String label, List<String> issueTexts, List<AcceptedFix> fixes,
        List<PassedItem> passed) {
    public PatternEvidence {
        issueTexts = List.copyOf(issueTexts);
        fixes = List.copyOf(fixes);
        passed = List.copyOf(passed);
    }

    /** The same pattern without one of its fixes (for leave-one-out recall). */
    PatternEvidence without(AcceptedFix left) {
        return new PatternEvidence(criterion, label, issueTexts,
                fixes.stream().filter(f -> f != left).toList(), passed);
    }
}
