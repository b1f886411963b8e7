package dev.santabatch.review;

/**
 * The result of one rubric criterion in a review. {@link #NOT_EVALUATED} is only allowed from an
 * offline reviewer, for a criterion it does not judge.
 */
public enum CheckResult {
    PASS,
    FAIL,
    NOT_EVALUATED;

    /** PASS or FAIL: the reviewer judged the criterion. */
    public boolean judged() {
        return this != NOT_EVALUATED;
    }
}
