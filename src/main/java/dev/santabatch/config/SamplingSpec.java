package dev.santabatch.config;

import org.jspecify.annotations.Nullable;

/**
 * Pattern C sampling.
 *
 * @param rate share of eligible items sampled per round. Defaults to 0.12; must lie in 0.10-0.15
 *     unless {@code allowRateOutsideRange} is set, then in (0, 1].
 * @param allowRateOutsideRange explicit override for a rate outside 0.10-0.15. Defaults to false.
 * @param minSize minimum sample size. Defaults to 5.
 * @param fullReviewBelow with fewer eligible items than this, all are reviewed. Defaults to 100.
 * @param seed random seed of the draw; {@code null} means a fresh seed, recorded with the run
 */
public record SamplingSpec(double rate, boolean allowRateOutsideRange, int minSize, int fullReviewBelow, @Nullable Long seed) {

    /** The sampler's settings for these values. */
    public dev.santabatch.config.SamplingSettings settings() {
        return new dev.santabatch.config.SamplingSettings(rate, allowRateOutsideRange, minSize, fullReviewBelow);
    }
}
