package dev.santabatch.review;

/**
 * A failure santa-batch expects and explains, which fails the step: a configuration error, a
 * model endpoint that is down, a review step over the failed-review threshold. Not retriable. Its message says what was seen and what to do, so it
 * is reported in one line, without a stack trace (stack traces are for unexpected errors).
 */
public class ExpectedFailureException extends RuntimeException {

    public ExpectedFailureException(String message) {
        super(message);
    }

    public ExpectedFailureException(String message, Throwable cause) {
        super(message, cause);
    }
}
