package dev.santabatch.review;

import dev.santabatch.text.Words;
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
 *   <li>no contradiction: PASS allows neither a failed check nor any critical issue, prefixed or
 *       not ({@link InvalidReviewKind#PASS_WITH_FAILED_CHECK},
 *       {@link InvalidReviewKind#PASS_WITH_CRITICAL_ISSUES}); no issue is prefixed with a criterion
 *       whose check the review PASSED ({@link InvalidReviewKind#ISSUE_ON_PASSED_CHECK});
 *   <li>complete: FAIL needs a failed check ({@link InvalidReviewKind#FAIL_WITHOUT_FAILED_CHECK}).
 * </ul>
 *
 * The seed's contract has free-text critical issues; the prompt asks for a
 * {@code <criterion-id>:} prefix on each, but an answer without it is accepted. The decision table
 * for a FAIL verdict (the valid review carries the attributed, prefixed issues):
 *
 * <table>
 *   <caption>Issues of a FAIL review</caption>
 *   <tr><th>issue</th><th>failed checks</th><th>belongs to</th><th>counted as</th></tr>
 *   <tr><td>prefixed with a reviewed criterion id (ignoring case and blanks)</td><td>any</td>
 *       <td>that criterion, unchanged; if its check is PASS, the review is a contradiction</td>
 *       <td>contradiction (the review is invalid)</td></tr>
 *   <tr><td>without such a prefix</td><td>one</td><td>that check's criterion</td><td>re-attributed</td></tr>
 *   <tr><td>without such a prefix</td><td>several</td><td>the check whose detail shares the most words
 *       with the issue; every such check on a tie</td><td>re-attributed (once per issue)</td></tr>
 *   <tr><td>none for a failed check</td><td>-</td><td>the check's detail becomes its issue</td>
 *       <td>derived from detail</td></tr>
 *   <tr><td>none for a failed check whose detail is blank</td><td>-</td>
 *       <td>invalid ({@link InvalidReviewKind#FAILED_CHECK_WITHOUT_ISSUE})</td><td>-</td></tr>
 * </table>
 *
 * Stateless and thread-safe.
 */
public final class ReviewValidator {

    /** Words that say nothing about which criterion an issue is about. */
    private static final Set<String> FUNCTION_WORDS = Set.of("the", "and", "for", "with", "not", "but", "this", "that",
            "are", "was", "its", "from", "has", "have", "than", "which", "there", "their", "into", "about");

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

        // a blank issue (or a criterion prefix with nothing after it) says nothing: it is no issue, so
        // it neither contradicts a PASS nor hides a failed check's detail
        if (review.criticalIssues().stream().anyMatch(i -> blank(i, reviewed))) {
            review = new Review(review.verdict(), review.checks(),
                    review.criticalIssues().stream().filter(i -> !blank(i, reviewed)).toList(), review.suggestions());
        }

        List<String> failed = review.checks().stream()
                .filter(c -> c.result() == CheckResult.FAIL)
                .map(Check::criterion)
                .toList();
        if (review.verdict() == Verdict.PASS && !failed.isEmpty()) {
            return invalid(InvalidReviewKind.PASS_WITH_FAILED_CHECK, "verdict PASS with failed check(s) " + failed);
        }
        if (review.verdict() == Verdict.PASS && !review.criticalIssues().isEmpty()) {
            return invalid(InvalidReviewKind.PASS_WITH_CRITICAL_ISSUES,
                    "verdict PASS with " + review.criticalIssues().size() + " critical issue(s)");
        }
        if (review.verdict() == Verdict.FAIL && failed.isEmpty()) {
            return invalid(InvalidReviewKind.FAIL_WITHOUT_FAILED_CHECK, "verdict FAIL without a failed check");
        }
        if (failed.isEmpty()) {
            return new ReviewValidation.Valid(review, 0, 0);
        }

        List<String> issues = new ArrayList<>();
        Set<String> criteriaWithIssue = new HashSet<>();
        int reattributed = 0;
        for (String issue : review.criticalIssues()) {
            Optional<String> criterion = criterionOf(issue, reviewed);
            if (criterion.isPresent() && review.check(criterion.get()).map(Check::result).orElse(null) == CheckResult.PASS) {
                return invalid(InvalidReviewKind.ISSUE_ON_PASSED_CHECK,
                        "critical issue for criterion '" + criterion.get() + "', whose check is PASS");
            }
            if (criterion.isPresent()) {
                issues.add(issue);
                criteriaWithIssue.add(criterion.get());
                continue;
            }
            List<String> owners = owners(issue, failed, review);
            for (String owner : owners) {
                issues.add(owner + ": " + issue.strip());
                criteriaWithIssue.add(owner);
            }
            reattributed++;
        }
        int derived = 0;
        for (String id : failed) {
            if (criteriaWithIssue.contains(id)) {
                continue;
            }
            String detail = review.check(id).map(Check::detail).orElse("").strip();
            if (detail.isEmpty()) {
                return invalid(
                        InvalidReviewKind.FAILED_CHECK_WITHOUT_ISSUE,
                        "failed check for criterion '" + id + "' with neither a critical issue nor a detail");
            }
            issues.add(id + ": " + detail);
            derived++;
        }
        Review attributed = reattributed == 0 && derived == 0
                ? review
                : new Review(review.verdict(), review.checks(), issues, review.suggestions());
        return new ReviewValidation.Valid(attributed, reattributed, derived);
    }

    /**
     * The failed criteria an issue without a criterion prefix belongs to: the only failed one; of
     * several, the one whose check detail shares the most {@link #words} with the issue, or every
     * one sharing that most (a tie, none sharing any word included).
     */
    static List<String> owners(String issue, List<String> failed, Review review) {
        if (failed.size() == 1) {
            return failed;
        }
        Set<String> issueWords = words(issue);
        List<String> best = new ArrayList<>();
        int most = -1;
        for (String id : failed) {
            Set<String> shared = words(review.check(id).map(Check::detail).orElse(""));
            shared.retainAll(issueWords);
            if (shared.size() > most) {
                most = shared.size();
                best.clear();
            }
            if (shared.size() == most) {
                best.add(id);
            }
        }
        return best;
    }

    /**
     * The distinct words of a text compared for attribution: {@link IssueSimilarity#normalise
     * normalised}, at least 3 characters long, function words left out.
     */
    static Set<String> words(String text) {
        Set<String> out = new HashSet<>();
        for (String w : IssueSimilarity.normalise(text).split(" ")) {
            if (w.length() >= 3 && !FUNCTION_WORDS.contains(w)) {
                out.add(w);
            }
        }
        return out;
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

    private static boolean blank(String issue, Collection<String> criteria) {
        if (issue.isBlank()) {
            return true;
        }
        return criterionOf(issue, criteria).isPresent() && issue.substring(issue.indexOf(':') + 1).isBlank();
    }

    private static ReviewValidation invalid(InvalidReviewKind kind, String message) {
        return new ReviewValidation.Invalid(kind, message);
    }
}
