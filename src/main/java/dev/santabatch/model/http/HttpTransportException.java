package dev.santabatch.model.http;

/**
 * The request did not get an HTTP answer: connection refused or reset, DNS failure, or the read
 * timeout ({@link #timedOut()}). Retriable. The message names the URL, never a header.
 */
public final class HttpTransportException extends RuntimeException {

    private final boolean timedOut;

    public HttpTransportException(String message, Throwable cause, boolean timedOut) {
        super(message, cause);
        this.timedOut = timedOut;
    }

    public boolean timedOut() {
        return timedOut;
    }
}
