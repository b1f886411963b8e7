package dev.santabatch.review;

/** A call that failed for transport reasons after the call layer's retries. */
public class ReviewTransportException extends Exception {

    public ReviewTransportException(String message) {
        super(message);
    }

    public ReviewTransportException(String message, Throwable cause) {
        super(message, cause);
    }
}
