package dev.santabatch.review;

/**
 * A configuration error found while calling a reviewer or fixer (authentication, unknown model).
 * Not retriable: it propagates out of the panel and the processor and must fail the step, reported
 * in one line ({@link ExpectedFailureException}).
 */
public class ConfigurationException extends ExpectedFailureException {

    public ConfigurationException(String message) {
        super(message);
    }

    public ConfigurationException(String message, Throwable cause) {
        super(message, cause);
    }
}
