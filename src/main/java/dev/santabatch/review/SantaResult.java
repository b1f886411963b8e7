package dev.santabatch.review;

import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What the Santa processor made of one item in one round.
 *
 * @param itemId the item
 * @param outcome NICE, ESCALATED or UNREVIEWED
 * @param reason why ESCALATED or UNREVIEWED; {@code null} when NICE
 * @param reasonDetail readable detail of the reason; empty when NICE
 * @param reviewsToNice panel reviews performed: 1 for an item nice on its first review, 1 + fixes
 *     for an item nice after fixes (for ESCALATED and UNREVIEWED items: the reviews performed)
 * @param fixes accepted fixes (= {@code revisions.size()})
 * @param reviews every reviewer's outcome of every iteration, in order
 * @param revisions every accepted fix, in order
 * @param finalText the last text that passed the rules and was reviewed (the original when no
 *     fix was accepted); for NICE, the text to ship
 * @param rejectedFix the last attempted fix that was not accepted (unusable or breaking a rule),
 *     for escalations.csv; {@code null} if none
 * @param ruleViolations for {@link SantaReason#FIX_BREAKS_RULES}, the violations of the rejected fix
 * @param openIssues the merged critical issues of the last review (empty when NICE or UNREVIEWED)
 * @param suggestions the merged suggestions of the last review
 * @param firstIssues the merged critical issues of the first review (iteration 0): the failures
 *     this item shows as sampled, for pattern classification and reviewer agreement
 */
public record SantaResult(
        String itemId,
        SantaOutcome outcome,
        @Nullable SantaReason reason,
        String reasonDetail,
        int reviewsToNice,
        int fixes,
        List<ReviewRecord> reviews,
        List<FixRevision> revisions,
        String finalText,
        @Nullable String rejectedFix,
        List<String> ruleViolations,
        List<MergedIssue> openIssues,
        List<MergedIssue> suggestions,
        List<MergedIssue> firstIssues) {

    public SantaResult {
        Objects.requireNonNull(itemId, "itemId");
        Objects.requireNonNull(outcome, "outcome");
        Objects.requireNonNull(reasonDetail, "reasonDetail");
        reviews = List.copyOf(reviews);
        revisions = List.copyOf(revisions);
        Objects.requireNonNull(finalText, "finalText");
        ruleViolations = List.copyOf(ruleViolations);
        openIssues = List.copyOf(openIssues);
        suggestions = List.copyOf(suggestions);
        firstIssues = List.copyOf(firstIssues);
        if ((outcome == SantaOutcome.NICE) != (reason == null)) {
            throw new IllegalArgumentException("a reason is required exactly when the outcome is not NICE");
        }
    }

    /**
     * The last fix the fixer gave, for {@code escalations.csv}: the rejected fix when the last one
     * was not accepted; otherwise (the last fix was accepted and reviewed, e.g. still naughty after
     * it) the last accepted fix; {@code null} when no fix text was given at all, or when the fixer's
     * last answer was that it has no fix.
     */
    public @Nullable String lastAttempt() {
        if (rejectedFix != null) {
            return rejectedFix;
        }
        if (reason == SantaReason.NO_FIX || revisions.isEmpty()) {
            return null;
        }
        return revisions.get(revisions.size() - 1).after();
    }

    /** True when the item was NICE on its first review (the first-pass rate's numerator). */
    public boolean niceOnFirstReview() {
        return outcome == SantaOutcome.NICE && fixes == 0;
    }
}
