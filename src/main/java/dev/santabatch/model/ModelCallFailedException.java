package dev.santabatch.model;

import java.util.Objects;

/**
 * A model call that failed for transport reasons after the governor's retries (or at once for a
 * rejected request such as HTTP 400). Not a configuration error: the item stays unreviewed or
 * unfixed and the run goes on. The message names the endpoint and model, never a credential.
 */
public final class ModelCallFailedException extends Exception {

    private final ErrorKind kind;
    private final int attempts;

    public ModelCallFailedException(ErrorKind kind, int attempts, String message, Throwable cause) {
        super(message, cause);
        this.kind = Objects.requireNonNull(kind, "kind");
        this.attempts = attempts;
    }

    /** The kind of the last failure. */
    public ErrorKind kind() {
        return kind;
    }

    /** HTTP attempts made, retries included. */
    public int attempts() {
        return attempts;
    }
}
