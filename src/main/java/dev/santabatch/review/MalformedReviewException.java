package dev.santabatch.review;

/**
 * A reviewer's answer that is not a review in the contract shape (bad JSON, missing or unknown
 * values). {@link #kind()} tells an unknown verdict or check result
 * ({@link InvalidReviewKind#UNKNOWN_VERDICT}) from any other malformed answer
 * ({@link InvalidReviewKind#MALFORMED}).
 */
public final class MalformedReviewException extends Exception {

    private final InvalidReviewKind kind;

    public MalformedReviewException(String message) {
        this(InvalidReviewKind.MALFORMED, message);
    }

    public MalformedReviewException(InvalidReviewKind kind, String message) {
        super(message);
        this.kind = java.util.Objects.requireNonNull(kind, "kind");
    }

    /** {@link InvalidReviewKind#MALFORMED} or {@link InvalidReviewKind#UNKNOWN_VERDICT}. */
    public InvalidReviewKind kind() {
        return kind;
    }
}
