package dev.santabatch.config;

/**
 * Carry-over across runs of the same job (docs/carry-over.md): an item whose content and source
 * facts equal what an earlier run ingested, under the same verification fingerprint, inherits that
 * run's outcome without a review.
 *
 * @param enabled whether a run carries outcomes over from earlier runs of its job. Defaults to true.
 * @param maxAge an item is judged afresh at least once every this many runs of the job it is in: it
 *     is carried at most {@code maxAge - 1} runs in a row ({@code 1}: never carried), then re-enters
 *     Pattern C's population (the changed stratum) as a new item, where it may ship under a clean
 *     sample without a review of its own. Defaults to 7 (1-1000).
 * @param targetBound t: the covered stratum (items carried over as covered) is sampled with the
 *     fixed size n for which a clean sample bounds its defect rate below t (docs/carry-over.md,
 *     "Strata"). Defaults to 0.05; in (0, 1).
 */
public record CarryOverSpec(boolean enabled, int maxAge, double targetBound) {

    public static final int DEFAULT_MAX_AGE = 7;
    public static final double DEFAULT_TARGET_BOUND = 0.05;

    public CarryOverSpec {
        if (!(targetBound > 0 && targetBound < 1)) {
            throw new IllegalArgumentException("carry-over target bound must be in (0, 1), was " + targetBound);
        }
    }

    /**
     * Carry-over on, items judged afresh at least every {@value #DEFAULT_MAX_AGE} runs, the covered
     * stratum sampled for a bound below {@value #DEFAULT_TARGET_BOUND}.
     */
    public static CarryOverSpec defaults() {
        return new CarryOverSpec(true, DEFAULT_MAX_AGE, DEFAULT_TARGET_BOUND);
    }

    /** How many earlier runs a run looks back at: an item's verdict older than that has expired anyway. */
    public int window() {
        return enabled ? maxAge - 1 : 0;
    }
}
