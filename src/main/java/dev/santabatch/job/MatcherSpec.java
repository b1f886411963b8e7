package dev.santabatch.job;

import org.jspecify.annotations.Nullable;

/**
 * The pattern matcher of the batch-fix step for model-found patterns.
 *
 * @param model the matcher's model: {@code matcher.model}, else the fixer's model when the fixer is
 *     {@code llm}, else {@code null} (no model matcher: the batch fix scans with the panel's own
 *     checks)
 * @param fromFixer true when {@code model} is the fixer's, because {@code matcher.model} is absent
 * @param maxCandidateShare the most candidates the cheap narrowing may hand to the model, as a share
 *     of the eligible items, per pattern; the best-ranked are kept. Defaults to 0.25.
 */
public record MatcherSpec(@Nullable ModelSpec model, boolean fromFixer, double maxCandidateShare) {}
