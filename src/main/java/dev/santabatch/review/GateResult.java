package dev.santabatch.review;

import java.util.List;
import java.util.Objects;

/**
 * The gate's decision on one panel round.
 *
 * @param verdict NICE, NAUGHTY or UNREVIEWED
 * @param criticalIssues merged, de-duplicated critical issues (empty unless NAUGHTY)
 * @param suggestions merged, de-duplicated suggestions (empty when UNREVIEWED)
 * @param failedCriteria criteria some reviewer failed, in rubric order
 * @param unjudgedCriteria Santa criteria no reviewer judged, in rubric order (empty when UNREVIEWED)
 * @param failedReviewers reviewers that failed to review, in panel order (UNREVIEWED, or NAUGHTY on
 *     another reviewer's FAIL)
 */
public record GateResult(
        GateVerdict verdict,
        List<MergedIssue> criticalIssues,
        List<MergedIssue> suggestions,
        List<String> failedCriteria,
        List<String> unjudgedCriteria,
        List<String> failedReviewers) {

    public GateResult {
        Objects.requireNonNull(verdict, "verdict");
        criticalIssues = List.copyOf(criticalIssues);
        suggestions = List.copyOf(suggestions);
        failedCriteria = List.copyOf(failedCriteria);
        unjudgedCriteria = List.copyOf(unjudgedCriteria);
        failedReviewers = List.copyOf(failedReviewers);
    }

    /** The merged critical issue texts, as given to the fixer. */
    public List<String> issueTexts() {
        return criticalIssues.stream().map(MergedIssue::text).toList();
    }
}
