package dev.santabatch.review.step;

import dev.santabatch.review.ReviewOutcome;
import dev.santabatch.review.ReviewRequest;
import dev.santabatch.review.Reviewer;

/**
 * Told of every answer a member of the review step's panels gives, on the reviewer's thread, as it
 * arrives: before the item's convergence loop ends, so an answer outlives a stop or a kill that
 * drops the item's result (see {@link ReviewStep.ReceivedAnswers}).
 */
@FunctionalInterface
interface AnswerListener {

    AnswerListener NONE = (reviewer, request, outcome) -> {};

    void answered(Reviewer reviewer, ReviewRequest request, ReviewOutcome outcome);

    /** {@code reviewer}, telling this listener of each of its answers. */
    default Reviewer listening(Reviewer reviewer) {
        AnswerListener self = this;
        return new Reviewer() {
            @Override
            public String id() {
                return reviewer.id();
            }

            @Override
            public java.util.Set<String> criteria() {
                return reviewer.criteria();
            }

            @Override
            public ReviewOutcome review(ReviewRequest request) {
                ReviewOutcome outcome = reviewer.review(request);
                if (outcome != null) {
                    self.answered(reviewer, request, outcome);
                }
                return outcome;
            }
        };
    }
}
