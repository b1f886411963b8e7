package dev.santabatch.review;

/** What {@link ReviewValidator} made of a review. */
public sealed interface ReviewValidation {

    /**
     * A valid review.
     *
     * @param review the review with every critical issue attributed to a failed criterion: issues
     *     without a criterion prefix prefixed with the criterion they belong to, and a failed check
     *     with no issue given its detail as issue
     * @param reattributedIssues critical issues without a criterion prefix that were attributed
     *     (each counted once, even when a tie gave it to several criteria)
     * @param derivedIssues failed checks with no critical issue whose detail became their issue
     */
    record Valid(Review review, int reattributedIssues, int derivedIssues) implements ReviewValidation {

        /** Something was attributed or derived: {@link #review()} is not the review as answered. */
        public boolean attributed() {
            return reattributedIssues > 0 || derivedIssues > 0;
        }
    }

    /** An invalid review: kind for counting, message for people. */
    record Invalid(InvalidReviewKind kind, String message) implements ReviewValidation {}
}
