package dev.santabatch.model;

import dev.santabatch.review.ExpectedFailureException;

/**
 * A model endpoint's circuit breaker is open: it failed {@code governor.circuit-breaker-failures}
 * times in a row (5xx answers, connection failures, timeouts), so the governor calls it no more.
 * Not retriable: it fails the step, in one line naming the endpoint and what was seen. The run can
 * be restarted with the same run id once the endpoint is back; what is done is kept.
 */
public final class EndpointDownException extends ExpectedFailureException {

    private final String endpoint;

    public EndpointDownException(String endpoint, String message) {
        super(message);
        this.endpoint = endpoint;
    }

    /** The base URL of the endpoint. */
    public String endpoint() {
        return endpoint;
    }
}
