package dev.santabatch.config;

/**
 * Canaries and the panel's fit ({@code santa.*}; docs/canaries.md).
 *
 * @param canaryShare canaries per round as a share of the round's sample. Defaults to 0.05.
 * @param minCanaries the fewest canaries a round gets (when it has items to copy). Defaults to 4;
 *     0 with a share of 0 turns canaries off.
 * @param minPanelSensitivity the least canary sensitivity a panel may have. Defaults to 0.8.
 * @param maxFalseFlagRate the highest share of clean canary copies a panel may fail. Defaults to 0.05.
 * @param maxFailShare the highest share of a round's sample a panel may fail on first review. Defaults to 0.5.
 */
public record FitSpec(double canaryShare, int minCanaries, double minPanelSensitivity, double maxFalseFlagRate,
        double maxFailShare) {

    public static final double DEFAULT_CANARY_SHARE = 0.05;
    public static final int DEFAULT_MIN_CANARIES = 4;
    public static final double DEFAULT_MIN_PANEL_SENSITIVITY = 0.8;
    public static final double DEFAULT_MAX_FALSE_FLAG_RATE = 0.05;
    public static final double DEFAULT_MAX_FAIL_SHARE = 0.5;

    public static FitSpec defaults() {
        return new FitSpec(DEFAULT_CANARY_SHARE, DEFAULT_MIN_CANARIES, DEFAULT_MIN_PANEL_SENSITIVITY,
                DEFAULT_MAX_FALSE_FLAG_RATE, DEFAULT_MAX_FAIL_SHARE);
    }

    /** Canaries for a round whose sample has {@code sampleSize} items: the share, at least the minimum. */
    public int canaries(int sampleSize) {
        if (canaryShare <= 0 && minCanaries <= 0) {
            return 0;
        }
        return Math.max(minCanaries, (int) Math.ceil(canaryShare * sampleSize));
    }
}
