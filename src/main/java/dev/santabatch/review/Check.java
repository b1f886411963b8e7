package dev.santabatch.review;

import java.util.Objects;

/**
 * One criterion's check in a review.
 *
 * @param criterion the criterion id
 * @param result PASS, FAIL or NOT_EVALUATED
 * @param detail the reviewer's explanation; never null (empty when absent)
 */
public record Check(String criterion, CheckResult result, String detail) {

    public Check {
        Objects.requireNonNull(criterion, "criterion");
        Objects.requireNonNull(result, "result");
        detail = detail == null ? "" : detail;
    }
}
