package dev.santabatch.review.llm;

import dev.santabatch.model.ErrorKind;
import dev.santabatch.model.LlmClient;
import dev.santabatch.model.LlmRoles;
import dev.santabatch.model.ModelAnswer;
import dev.santabatch.model.ModelCallFailedException;
import dev.santabatch.review.InvalidReviewKind;
import dev.santabatch.review.MalformedReviewException;
import dev.santabatch.review.Review;
import dev.santabatch.review.ReviewCall;
import dev.santabatch.review.ReviewOutcome;
import dev.santabatch.review.ReviewRequest;
import dev.santabatch.review.ReviewTransportException;
import dev.santabatch.review.ReviewValidation;
import dev.santabatch.review.ReviewValidator;
import dev.santabatch.review.Reviewer;
import dev.santabatch.review.ValidatingReviewer;
import java.util.Objects;
import java.util.Set;

/**
 * A model reviewer: the seed's REVIEWER_PROMPT as a fresh, stateless call per review (system +
 * user message, no history), the review JSON requested by strict JSON schema, JSON mode or the
 * prompt alone (the model's {@code structured-output}). The answer is trusted only after
 * {@link ValidatingReviewer} has parsed and validated it: an invalid answer is retried once as a
 * fresh call, then {@code FailedToReview(INVALID_ANSWER)}; a transport failure after the
 * governor's retries is {@code FailedToReview(TRANSPORT)}. Every invalid answer is counted by kind
 * under the reviewer's role. Configuration errors and a reached budget propagate.
 *
 * <p>Instances are cheap and hold no state of their own: make one per panel round over the same
 * {@link LlmClient}.
 */
public final class LlmReviewer implements Reviewer {

    private final String id;
    private final Set<String> criteria;
    private final LlmClient client;
    private final ReviewValidator validator = new ReviewValidator();
    private final ValidatingReviewer delegate;

    /**
     * @param id the reviewer's id (B, C)
     * @param criteria the criteria it judges: every Santa criterion, for a model
     * @param client the reviewer's model; its role should be {@link LlmRoles#reviewer(String)}
     */
    public LlmReviewer(String id, Set<String> criteria, LlmClient client) {
        this.id = Objects.requireNonNull(id, "id");
        this.criteria = Set.copyOf(criteria);
        this.client = Objects.requireNonNull(client, "client");
        this.delegate = new ValidatingReviewer(id, this.criteria, new ReviewCall() {
            @Override
            public String answer(ReviewRequest request) throws ReviewTransportException {
                return LlmReviewer.this.answer(request);
            }

            @Override
            public void retrying(ReviewRequest request) {
                client.recordAnswerRetry();
            }
        });
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
        return delegate.review(request);
    }

    private String answer(ReviewRequest request) throws ReviewTransportException {
        ModelAnswer answer;
        try {
            answer = client.ask(
                    Prompts.reviewerSystem(),
                    Prompts.reviewerUser(request),
                    ReviewSchema.responseFormat(client.structuredOutput(), request.criterionIds()));
        } catch (ModelCallFailedException e) {
            throw new ReviewTransportException(e.getMessage(), e);
        }
        String json = Prompts.unwrapJson(answer.text());
        count(json, answer.truncated(), request);
        return json;
    }

    /** Counts why an answer is unusable; {@link ValidatingReviewer} decides what happens to it. */
    private void count(String json, boolean truncated, ReviewRequest request) {
        ErrorKind kind;
        try {
            Review review = Review.fromJson(json);
            ReviewValidation v = validator.validate(review, request.criterionIds(), criteria);
            if (!(v instanceof ReviewValidation.Invalid bad)) {
                return;
            }
            kind = kindOf(bad.kind());
        } catch (MalformedReviewException e) {
            kind = truncated ? ErrorKind.TRUNCATED : kindOf(e.kind());
        }
        client.recordAnswerError(kind);
    }

    static ErrorKind kindOf(InvalidReviewKind kind) {
        return switch (kind) {
            case MALFORMED -> ErrorKind.MALFORMED_JSON;
            case UNKNOWN_VERDICT -> ErrorKind.UNKNOWN_VERDICT;
            case MISSING_CHECK -> ErrorKind.MISSING_CRITERION;
            case DUPLICATE_CHECK, UNKNOWN_CHECK, JUDGED_UNDECLARED_CRITERION -> ErrorKind.WRONG_CRITERION;
            case NOT_EVALUATED_JUDGED_CRITERION -> ErrorKind.NOT_EVALUATED;
            case PASS_WITH_FAILED_CHECK, PASS_WITH_CRITICAL_ISSUES, ISSUE_ON_PASSED_CHECK -> ErrorKind.CONTRADICTION;
            case FAIL_WITHOUT_FAILED_CHECK, FAILED_CHECK_WITHOUT_ISSUE -> ErrorKind.INCOMPLETE;
        };
    }
}
