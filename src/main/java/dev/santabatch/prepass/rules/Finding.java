package dev.santabatch.prepass.rules;

import org.jspecify.annotations.Nullable;

/**
 * A violation plus how to fix it by replacement: replace {@code [fixStart, fixEnd)} with
 * {@code replacement}. {@code replacement} is null when the rule cannot compute one.
 */
record Finding(Violation violation, int fixStart, int fixEnd, @Nullable String replacement) {

    static Finding of(Violation v) {
        return new Finding(v, v.start(), v.end(), null);
    }
}
