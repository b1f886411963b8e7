package dev.santabatch.review;

/** Why a reviewer's answer is not a valid review. Reports count each kind. */
public enum InvalidReviewKind {
    /** Not JSON, or not the contract shape. */
    MALFORMED,
    /** The contract shape, but a verdict other than PASS/FAIL or a check result other than PASS/FAIL/NOT_EVALUATED. */
    UNKNOWN_VERDICT,
    /** A reviewed criterion has no check. */
    MISSING_CHECK,
    /** Two checks for one criterion. */
    DUPLICATE_CHECK,
    /** A check for a criterion that is not reviewed. */
    UNKNOWN_CHECK,
    /** NOT_EVALUATED for a criterion the reviewer judges (every criterion, for a model reviewer). */
    NOT_EVALUATED_JUDGED_CRITERION,
    /** PASS or FAIL for a criterion the (offline) reviewer does not declare: it must answer NOT_EVALUATED. */
    JUDGED_UNDECLARED_CRITERION,
    /** Verdict FAIL without any failed check: incomplete. */
    FAIL_WITHOUT_FAILED_CHECK,
    /** Verdict PASS with a failed check: a contradiction. */
    PASS_WITH_FAILED_CHECK,
    /** Verdict PASS with critical issues, prefixed with a criterion or not: a contradiction. */
    PASS_WITH_CRITICAL_ISSUES,
    /** A critical issue prefixed with a criterion whose check the same review PASSED: a contradiction. */
    ISSUE_ON_PASSED_CHECK,
    /**
     * A failed check with no critical issue for its criterion (none prefixed with it, none
     * attributable) and a blank detail to take as its issue: incomplete.
     */
    FAILED_CHECK_WITHOUT_ISSUE
}
