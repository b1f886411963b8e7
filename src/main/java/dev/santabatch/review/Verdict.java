package dev.santabatch.review;

/** A reviewer's overall verdict on one item, as in the seed's contract. */
public enum Verdict {
    PASS,
    FAIL
}
