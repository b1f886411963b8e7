package dev.santabatch.review;

import java.time.Duration;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/** What one reviewer made of one item: a valid review, or a failure to review it. */
public sealed interface ReviewOutcome {

    /**
     * A valid review.
     *
     * @param review the validated review (issues already attributed to failed criteria)
     * @param duration how long the reviewer took
     * @param reattributedIssues critical issues without a criterion prefix that validation
     *     attributed to a failed criterion
     * @param derivedIssues failed checks without a critical issue whose detail validation took as
     *     their issue
     */
    record Reviewed(Review review, Duration duration, int reattributedIssues, int derivedIssues) implements ReviewOutcome {
        public Reviewed {
            Objects.requireNonNull(review, "review");
            Objects.requireNonNull(duration, "duration");
        }

        /** A review taken as answered: nothing attributed or derived. */
        public Reviewed(Review review, Duration duration) {
            this(review, duration, 0, 0);
        }
    }

    /**
     * The reviewer could not review the item: neither PASS nor FAIL.
     *
     * @param kind transport error (after the call layer's retries) or invalid answer (after one fresh retry)
     * @param message for people
     * @param invalidKind for {@link FailureKind#INVALID_ANSWER}: why the last answer was invalid
     */
    record FailedToReview(FailureKind kind, String message, @Nullable InvalidReviewKind invalidKind)
            implements ReviewOutcome {
        public FailedToReview {
            Objects.requireNonNull(kind, "kind");
            Objects.requireNonNull(message, "message");
        }

        public FailedToReview(FailureKind kind, String message) {
            this(kind, message, null);
        }
    }

    enum FailureKind {
        TRANSPORT,
        INVALID_ANSWER
    }
}
