/**
 * Honest statistics for the report, pure and unit-tested against hand computations: the bound a
 * clean sample gives ({@link dev.santabatch.stats.CleanSampleBound}), reviewer agreement ({@link
 * dev.santabatch.stats.Agreement}, {@link dev.santabatch.stats.Kappa}), the seed's metrics and
 * targets ({@link dev.santabatch.stats.SantaMetrics}, {@link dev.santabatch.stats.SeedTargets}),
 * cost against full verification ({@link dev.santabatch.stats.CostShares}) and the exact binomial
 * interval of the audit's escape rate ({@link dev.santabatch.stats.ClopperPearson}).
 */
@NullMarked
package dev.santabatch.stats;

import org.jspecify.annotations.NullMarked;
