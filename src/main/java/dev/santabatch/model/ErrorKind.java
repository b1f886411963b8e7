package dev.santabatch.model;

/**
 * What went wrong with one model call or answer; the report counts each kind by its
 * {@link #label()}. The {@link Category} decides what the governor does about it.
 */
public enum ErrorKind {
    /** HTTP 429. Retried after {@code Retry-After} or a backoff. */
    RATE_LIMITED("429", Category.RETRIABLE),
    /** HTTP 5xx, or a 2xx without choices. Retried. */
    SERVER_ERROR("5xx", Category.RETRIABLE),
    /** No answer within the model's timeout (or HTTP 408). Retried. */
    TIMEOUT("timeout", Category.RETRIABLE),
    /** No connection: refused, reset, unknown host. Retried. */
    CONNECTION("connection", Category.RETRIABLE),
    /** A 2xx body that is not a chat completion. Retried. */
    MALFORMED_RESPONSE("malformed-response", Category.RETRIABLE),
    /** HTTP 401 or 403: fails the step at once. */
    AUTH("auth", Category.CONFIGURATION),
    /**
     * HTTP 404 (model_not_found, or a base URL without the API path), or another 4xx whose error
     * code is {@code model_not_found}: fails the step at once.
     */
    MODEL_NOT_FOUND("model-not-found", Category.CONFIGURATION),
    /** Another 4xx (e.g. 400, the request is too long; not code model_not_found): not retried; the call fails. */
    BAD_REQUEST("4xx", Category.REJECTED),
    /** The answer is not JSON in the review (or match) shape. */
    MALFORMED_JSON("malformed-json", Category.ANSWER),
    /** The review's verdict is not PASS/FAIL, or a check's result not PASS/FAIL/NOT_EVALUATED. */
    UNKNOWN_VERDICT("unknown-verdict", Category.ANSWER),
    /** The review has no check for a reviewed criterion. */
    MISSING_CRITERION("missing-criterion", Category.ANSWER),
    /** The review contradicts itself: PASS with a failed check, or PASS with any critical issue. */
    CONTRADICTION("contradiction", Category.ANSWER),
    /** The review is incomplete: FAIL without a failed check, or a failed check with neither issue nor detail. */
    INCOMPLETE("incomplete", Category.ANSWER),
    /** The review checks a criterion twice, or one that is not reviewed. */
    WRONG_CRITERION("wrong-criterion", Category.ANSWER),
    /** The review answers NOT_EVALUATED for a criterion a model must judge. */
    NOT_EVALUATED("not-evaluated", Category.ANSWER),
    /** The answer was cut at the output-token limit (finish reason length). */
    TRUNCATED("truncated", Category.ANSWER),
    /** The fixer or matcher answered with no text. */
    EMPTY_ANSWER("empty-answer", Category.ANSWER),
    /** The fixer returned its input unchanged. */
    UNCHANGED("unchanged", Category.ANSWER),
    /**
     * An attempt cut off or not sent because its endpoint's calls were aborted (a configuration
     * error such as a 401, or an open circuit breaker) or its thread was interrupted (a stop). Not
     * a failure of the endpoint: never retried, and not counted by the circuit breaker.
     */
    CANCELLED("cancelled", Category.REJECTED),
    /** An exception the governor does not know; rethrown as is. */
    UNEXPECTED("unexpected", Category.REJECTED);

    /** What the governor does about a kind. */
    public enum Category {
        /** Retried with backoff, up to the attempt limit. */
        RETRIABLE,
        /** Not retried: a {@link dev.santabatch.review.ConfigurationException} fails the step. */
        CONFIGURATION,
        /** Not retried: the call fails ({@link ModelCallFailedException}). */
        REJECTED,
        /** The call succeeded, its answer is unusable; the caller decides (and counts). */
        ANSWER
    }

    private final String label;
    private final Category category;

    ErrorKind(String label, Category category) {
        this.label = label;
        this.category = category;
    }

    /** The name in reports: {@code 429}, {@code 5xx}, {@code timeout}, {@code malformed-json}... */
    public String label() {
        return label;
    }

    public Category category() {
        return category;
    }

    public boolean retriable() {
        return category == Category.RETRIABLE;
    }
}
