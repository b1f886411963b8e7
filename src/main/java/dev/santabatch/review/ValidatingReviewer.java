package dev.santabatch.review;

import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.Set;

/**
 * A {@link Reviewer} over a raw {@link ReviewCall}: parses and validates the answer and applies
 * the reviewer retry rule: an invalid answer (malformed or failing {@link ReviewValidator}) is
 * retried once as a fresh call; still invalid gives {@code FailedToReview(INVALID_ANSWER)}. A
 * transport failure gives {@code FailedToReview(TRANSPORT)} at once (the call layer has retried).
 */
public final class ValidatingReviewer implements Reviewer {

    private final String id;
    private final Set<String> criteria;
    private final ReviewCall call;
    private final ReviewValidator validator;
    private final Clock clock;

    public ValidatingReviewer(String id, Set<String> criteria, ReviewCall call, ReviewValidator validator, Clock clock) {
        this.id = Objects.requireNonNull(id, "id");
        this.criteria = Set.copyOf(criteria);
        this.call = Objects.requireNonNull(call, "call");
        this.validator = Objects.requireNonNull(validator, "validator");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    public ValidatingReviewer(String id, Set<String> criteria, ReviewCall call) {
        this(id, criteria, call, new ReviewValidator(), Clock.systemUTC());
    }

    @Override
    public String id() {
        return id;
    }

    @Override
    public Set<String> criteria() {
        return criteria;
    }

    @Override
    public ReviewOutcome review(ReviewRequest request) {
        long start = clock.millis();
        ReviewOutcome.FailedToReview firstInvalid = null;
        for (int attempt = 1; attempt <= 2; attempt++) {
            if (attempt > 1) {
                call.retrying(request);
            }
            String answer;
            try {
                answer = call.answer(request);
            } catch (ReviewTransportException e) {
                return new ReviewOutcome.FailedToReview(ReviewOutcome.FailureKind.TRANSPORT, e.getMessage());
            }
            ReviewOutcome.FailedToReview invalid;
            try {
                Review review = Review.fromJson(answer);
                ReviewValidation validation = validator.validate(review, request.criterionIds(), criteria);
                if (validation instanceof ReviewValidation.Valid valid) {
                    return new ReviewOutcome.Reviewed(
                            valid.review(), Duration.ofMillis(clock.millis() - start),
                            valid.reattributedIssues(), valid.derivedIssues());
                }
                ReviewValidation.Invalid bad = (ReviewValidation.Invalid) validation;
                invalid = new ReviewOutcome.FailedToReview(
                        ReviewOutcome.FailureKind.INVALID_ANSWER, bad.message(), bad.kind());
            } catch (MalformedReviewException e) {
                invalid = new ReviewOutcome.FailedToReview(
                        ReviewOutcome.FailureKind.INVALID_ANSWER, e.getMessage(), e.kind());
            }
            if (firstInvalid == null) {
                firstInvalid = invalid;
            } else {
                return new ReviewOutcome.FailedToReview(
                        invalid.kind(),
                        "invalid answer twice: " + firstInvalid.message() + "; then " + invalid.message(),
                        invalid.invalidKind());
            }
        }
        throw new AssertionError("unreachable");
    }
}
