package dev.santabatch.review;

/** A reviewer's answer that is not a review in the contract shape (bad JSON, missing or unknown values). */
public final class MalformedReviewException extends Exception {

    public MalformedReviewException(String message) {
        super(message);
    }
}
