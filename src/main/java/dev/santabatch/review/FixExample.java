package dev.santabatch.review;

import java.util.Objects;

/**
 * A fix the Santa loop accepted for a sampled item of a pattern: its text before and after. The
 * batch-fix gives a pattern's examples to the fixer, for fixers that can learn from them.
 */
public record FixExample(String before, String after) {
    public FixExample {
        Objects.requireNonNull(before, "before");
        Objects.requireNonNull(after, "after");
    }
}
