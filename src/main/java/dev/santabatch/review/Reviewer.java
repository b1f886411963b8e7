package dev.santabatch.review;

import java.util.Set;

/**
 * One member of the Santa panel. An instance reviews for one panel round only (the seed's fresh
 * agents): {@link ReviewerFactory} makes new instances for every round.
 *
 * <p>Contract: returns {@link ReviewOutcome.Reviewed} with a review valid for the request (see
 * {@link ReviewValidator}), or {@link ReviewOutcome.FailedToReview}; an invalid answer is retried
 * once as a fresh call (see {@link ValidatingReviewer}); throws {@link ConfigurationException}
 * for configuration errors. Must not keep state between items or see other reviewers' reviews.
 */
public interface Reviewer {

    /** The reviewer's name in reports (e.g. B, C). */
    String id();

    /**
     * The criteria this reviewer judges (PASS/FAIL). A model reviewer judges every reviewed
     * criterion; an offline reviewer answers NOT_EVALUATED for the others.
     */
    Set<String> criteria();

    ReviewOutcome review(ReviewRequest request);
}
