package dev.santabatch.config;

import org.jspecify.annotations.Nullable;

/**
 * The fixer of naughty items.
 *
 * @param type {@code offline} (rules' fixes and sentence removal) or {@code llm}. Defaults to offline.
 * @param model the model, for {@code llm}
 */
public record FixerSpec(String type, @Nullable ModelSpec model) {}
