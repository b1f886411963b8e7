package dev.santabatch.review;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * Validates a review against the reviewed criteria and the criteria its reviewer judges.
 *
 * <ul>
 *   <li>exactly one check per reviewed criterion; none for other criteria;
 *   <li>a criterion the reviewer judges must be PASS or FAIL; one it does not judge must be
 *       NOT_EVALUATED (a model reviewer judges every reviewed criterion, so never answers
 *       NOT_EVALUATED);
 *   <li>every critical issue starts with {@code <criterion-id>:}; an issue naming no reviewed
 *       criterion is dropped and counted, not invalid;
 *   <li>no contradiction: FAIL needs a failed check; PASS allows neither a failed check nor a
 *       critical issue; every failed check needs a critical issue for its criterion.
 * </ul>
 *
 * Stateless and thread-safe.
 */
public final class ReviewValidator {

    /**
     * @param review the review as parsed
     * @param reviewedCriteria ids of the criteria under review (the Santa criteria)
     * @param judgedCriteria ids of the criteria the reviewer declares it judges; ids outside the
     *     reviewed criteria are ignored
     */
    public ReviewValidation validate(Review review, Collection<String> reviewedCriteria, Collection<String> judgedCriteria) {
        Set<String> reviewed = new LinkedHashSet<>(reviewedCriteria);
        Set<String> judged = new HashSet<>(judgedCriteria);

        Set<String> seen = new HashSet<>();
        for (Check check : review.checks()) {
            String id = check.criterion();
            if (!reviewed.contains(id)) {
                return invalid(InvalidReviewKind.UNKNOWN_CHECK, "check for criterion '" + id + "', which is not reviewed");
            }
            if (!seen.add(id)) {
                return invalid(InvalidReviewKind.DUPLICATE_CHECK, "two checks for criterion '" + id + "'");
            }
            if (judged.contains(id) && !check.result().judged()) {
                return invalid(
                        InvalidReviewKind.NOT_EVALUATED_JUDGED_CRITERION,
                        "NOT_EVALUATED for criterion '" + id + "', which this reviewer judges");
            }
            if (!judged.contains(id) && check.result().judged()) {
                return invalid(
                        InvalidReviewKind.JUDGED_UNDECLARED_CRITERION,
                        check.result() + " for criterion '" + id + "', which this reviewer does not judge");
            }
        }
        for (String id : reviewed) {
            if (!seen.contains(id)) {
                return invalid(InvalidReviewKind.MISSING_CHECK, "no check for criterion '" + id + "'");
            }
        }

        List<String> kept = new ArrayList<>();
        List<String> dropped = new ArrayList<>();
        Set<String> criteriaWithIssue = new HashSet<>();
        for (String issue : review.criticalIssues()) {
            Optional<String> criterion = criterionOf(issue, reviewed);
            if (criterion.isPresent()) {
                kept.add(issue);
                criteriaWithIssue.add(criterion.get());
            } else {
                dropped.add(issue);
            }
        }

        List<String> failed = review.checks().stream()
                .filter(c -> c.result() == CheckResult.FAIL)
                .map(Check::criterion)
                .toList();
        if (review.verdict() == Verdict.FAIL && failed.isEmpty()) {
            return invalid(InvalidReviewKind.FAIL_WITHOUT_FAILED_CHECK, "verdict FAIL without a failed check");
        }
        if (review.verdict() == Verdict.PASS && !failed.isEmpty()) {
            return invalid(InvalidReviewKind.PASS_WITH_FAILED_CHECK, "verdict PASS with failed check(s) " + failed);
        }
        if (review.verdict() == Verdict.PASS && !kept.isEmpty()) {
            return invalid(InvalidReviewKind.PASS_WITH_CRITICAL_ISSUES, "verdict PASS with " + kept.size() + " critical issue(s)");
        }
        for (String id : failed) {
            if (!criteriaWithIssue.contains(id)) {
                return invalid(
                        InvalidReviewKind.FAILED_CHECK_WITHOUT_ISSUE,
                        "failed check for criterion '" + id + "' without a critical issue '" + id + ": ...'");
            }
        }
        Review cleaned = dropped.isEmpty()
                ? review
                : new Review(review.verdict(), review.checks(), kept, review.suggestions());
        return new ReviewValidation.Valid(cleaned, dropped);
    }

    /**
     * The reviewed criterion an issue names with its {@code <criterion-id>:} prefix (compared
     * ignoring case and surrounding blanks), if any.
     */
    public static Optional<String> criterionOf(String issue, Collection<String> criteria) {
        int colon = issue.indexOf(':');
        if (colon <= 0) {
            return Optional.empty();
        }
        String prefix = issue.substring(0, colon).strip().toLowerCase(Locale.ROOT);
        for (String id : criteria) {
            if (id.toLowerCase(Locale.ROOT).equals(prefix)) {
                return Optional.of(id);
            }
        }
        return Optional.empty();
    }

    private static ReviewValidation invalid(InvalidReviewKind kind, String message) {
        return new ReviewValidation.Invalid(kind, message);
    }
}
