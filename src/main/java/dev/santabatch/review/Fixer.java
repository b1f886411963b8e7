package dev.santabatch.review;

/**
 * Fixes only the flagged critical issues of one item. Each call is a fresh call (no memory of
 * earlier attempts). Throws {@link ConfigurationException} for configuration errors.
 */
@FunctionalInterface
public interface Fixer {

    FixOutcome fix(FixRequest request);

    /** Called before the fresh call that retries an unusable fix of {@code request} (for counting). */
    default void retrying(FixRequest request) {}
}
