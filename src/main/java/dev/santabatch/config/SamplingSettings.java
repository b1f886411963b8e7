package dev.santabatch.config;

/**
 * Pattern C sampling settings.
 *
 * @param rate the share of eligible items to sample; 0.10 to 0.15 (the seed's range) unless
 *     {@code allowRateOutsideRange}, and always in (0, 1]
 * @param allowRateOutsideRange the explicit override that allows a rate outside 0.10 to 0.15
 * @param minSize the minimum sample size (the seed's 5)
 * @param fullReviewBelow fewer eligible items than this are all reviewed (the seed's 100: Pattern C
 *     is for batches of 100+ items)
 */
public record SamplingSettings(double rate, boolean allowRateOutsideRange, int minSize, int fullReviewBelow) {

    public static final double DEFAULT_RATE = 0.12;
    public static final double MIN_RATE = 0.10;
    public static final double MAX_RATE = 0.15;
    public static final int DEFAULT_MIN_SIZE = 5;
    public static final int DEFAULT_FULL_REVIEW_BELOW = 100;

    public SamplingSettings {
        if (!(rate > 0 && rate <= 1)) {
            throw new IllegalArgumentException("sampling rate must be in (0, 1], was " + rate);
        }
        if (!allowRateOutsideRange && (rate < MIN_RATE || rate > MAX_RATE)) {
            throw new IllegalArgumentException("sampling rate " + rate + " is outside " + MIN_RATE + " to " + MAX_RATE
                    + " (the Santa Method's 10-15 %); set the explicit override to use it");
        }
        if (minSize < 1) {
            throw new IllegalArgumentException("minimum sample size must be at least 1, was " + minSize);
        }
        if (fullReviewBelow < 0) {
            throw new IllegalArgumentException("full-review threshold must be >= 0, was " + fullReviewBelow);
        }
    }

    /** Rate 0.12, minimum 5, full review below 100. */
    public static SamplingSettings defaults() {
        return new SamplingSettings(DEFAULT_RATE, false, DEFAULT_MIN_SIZE, DEFAULT_FULL_REVIEW_BELOW);
    }

    /** The defaults with another rate (which must be within 0.10 to 0.15). */
    public static SamplingSettings withRate(double rate) {
        return new SamplingSettings(rate, false, DEFAULT_MIN_SIZE, DEFAULT_FULL_REVIEW_BELOW);
    }
}
