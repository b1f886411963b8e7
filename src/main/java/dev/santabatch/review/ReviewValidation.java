package dev.santabatch.review;

import java.util.List;

/** What {@link ReviewValidator} made of a review. */
public sealed interface ReviewValidation {

    /**
     * A valid review.
     *
     * @param review the review with issues naming no known criterion removed
     * @param droppedIssues the critical issues that were removed
     */
    record Valid(Review review, List<String> droppedIssues) implements ReviewValidation {
        public Valid {
            droppedIssues = List.copyOf(droppedIssues);
        }

        public int droppedCount() {
            return droppedIssues.size();
        }
    }

    /** An invalid review: kind for counting, message for people. */
    record Invalid(InvalidReviewKind kind, String message) implements ReviewValidation {}
}
