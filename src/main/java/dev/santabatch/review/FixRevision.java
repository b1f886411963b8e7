package dev.santabatch.review;

import java.util.List;
import java.util.Objects;

/**
 * One accepted Santa fix (a new revision, cause {@code santa-fix}).
 *
 * @param iteration 1 for the first fix, and so on
 * @param before the text given to the fixer
 * @param after the fixed text (usable and passing the rules)
 * @param issues the merged critical issues the fix addressed
 * @param attempts 1, or 2 when the first attempt was unusable and retried
 */
public record FixRevision(int iteration, String before, String after, List<String> issues, int attempts) {

    public FixRevision {
        Objects.requireNonNull(before, "before");
        Objects.requireNonNull(after, "after");
        issues = List.copyOf(issues);
    }
}
