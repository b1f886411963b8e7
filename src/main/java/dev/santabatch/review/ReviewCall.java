package dev.santabatch.review;

/**
 * One raw call to a reviewer's method or model, returning its answer text (the contract JSON).
 * The call layer owns transport retries; when they are exhausted it throws
 * {@link ReviewTransportException}. Configuration errors throw {@link ConfigurationException}.
 */
@FunctionalInterface
public interface ReviewCall {

    String answer(ReviewRequest request) throws ReviewTransportException;

    /** Called before the fresh call that retries an invalid answer to {@code request} (for counting). */
    default void retrying(ReviewRequest request) {}
}
