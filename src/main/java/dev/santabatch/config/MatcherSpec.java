package dev.santabatch.config;

import org.jspecify.annotations.Nullable;

/**
 * The pattern matcher of the batch-fix step when the panel has a model reviewer (all-model or
 * mixed panels; see {@link JobDefinition#batchFixByModelMatcher()}).
 *
 * @param model the matcher's model: {@code matcher.model}, else the fixer's model when the fixer is
 *     {@code llm}, else {@code null} (no model matcher: the batch fix scans with the panel's own
 *     checks)
 * @param fromFixer true when {@code model} is the fixer's, because {@code matcher.model} is absent
 * @param maxCandidateShare the most candidates the cheap narrowing may hand to the model, as a share
 *     of the eligible items, per pattern; the best-ranked are kept. Defaults to 0.25.
 * @param minSimilarity the narrowing's floor: an eligible item is a candidate for a pattern only when
 *     one of its sentences has at least this cosine to one of the pattern's failing sampled sentences
 *     (all-MiniLM-L6-v2). Defaults to {@link #DEFAULT_MIN_SIMILARITY}.
 */
public record MatcherSpec(@Nullable ModelSpec model, boolean fromFixer, double maxCandidateShare, double minSimilarity) {

    /**
     * Derived on the product generator's tuning pools (SAMPLE and HELD_OUT, never FRESH) by
     * {@code bench.MeaningFloorSweep}: see docs/job-file-reference.md#matcher for the figures.
     */
    public static final double DEFAULT_MIN_SIMILARITY = 0.45;
}
