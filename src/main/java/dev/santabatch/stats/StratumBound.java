package dev.santabatch.stats;

import java.util.List;

/**
 * Bounds over a catalog sampled in strata (docs/carry-over.md, "Strata"): each stratum h has its
 * own clean sample, and the 95 % statement is shared out over the H strata sampled and the k_h looks
 * at each.
 *
 * <h2>Per stratum</h2>
 *
 * <p>A clean sample of n_h items from stratum h, looked at k_h times (rounds of one run, or nights of
 * a stratum that did not change), with x_h accepted failures: the chance that some look shows so few
 * failures by luck at a rate p_h is at most k_h · P(X ≤ x_h | n_h, p_h). Setting that to α / H, so
 * that the H statements hold together at 1 − α (Bonferroni), gives
 *
 * <pre>k_h · (1 − p_h)^(n_h) = α / H,   i.e.   p_h = 1 − (α / (H · k_h))^(1/n_h)</pre>
 *
 * for x_h = 0, and the Clopper–Pearson limit at level α / (H · k_h) with failures ({@link
 * CleanSampleBound#upperBound}). With H = 1 this is the bound of one clean sample.
 *
 * <h2>For the catalog</h2>
 *
 * <p>Σ (N_h / N) · p_h over the strata with a bound (N = Σ N_h): the share of defects among all their
 * items is that weighted mean of the strata's shares, and each is below its p_h when all the
 * statements hold, which they do together with probability at least 1 − α.
 *
 * <h2>Size of a fixed sample</h2>
 *
 * <p>The n for which a clean sample bounds a stratum's rate below a target t:
 * <pre>n = ⌈ ln(α / (H · k)) / ln(1 − t) ⌉</pre>
 * (the smallest n with (1 − t)^n ≤ α / (H · k)), whatever the stratum's size: a departure from the
 * Santa Method's 10–15 % for the covered stratum, whose items were verified before.
 */
public final class StratumBound {

    /** α: the statements of a run hold together with 95 % confidence. */
    public static final double ALPHA = 1 - CleanSampleBound.CONFIDENCE;

    private StratumBound() {}

    /**
     * {@code ⌈ln(alpha / (strata · looks)) / ln(1 − target)⌉}: the clean sample that bounds a
     * stratum's defect rate below {@code target}.
     *
     * @param target t, in (0, 1)
     * @param alpha α, in (0, 1)
     * @param strata H, the strata sampled in the run (≥ 1)
     * @param looks k, the looks at the stratum (≥ 1)
     */
    public static int sampleSize(double target, double alpha, int strata, int looks) {
        if (!(target > 0 && target < 1)) {
            throw new IllegalArgumentException("target bound must be in (0, 1), was " + target);
        }
        if (!(alpha > 0 && alpha < 1)) {
            throw new IllegalArgumentException("alpha must be in (0, 1), was " + alpha);
        }
        if (strata < 1 || looks < 1) {
            throw new IllegalArgumentException("strata and looks must be >= 1, were " + strata + " and " + looks);
        }
        double share = alpha / ((double) strata * looks);
        if (share >= 1) {
            return 1;
        }
        return (int) Math.max(1, Math.ceil(Math.log(share) / Math.log1p(-target)));
    }

    /**
     * p_h: the rate a clean sample of {@code n} items with {@code failures} accepted failures bounds,
     * after {@code looks} looks, as one of {@code strata} statements at {@code alpha} together.
     */
    public static double upperBound(int n, int failures, int looks, int strata, double alpha) {
        if (strata < 1) {
            throw new IllegalArgumentException("strata must be >= 1, was " + strata);
        }
        if (looks < 1) {
            throw new IllegalArgumentException("looks must be >= 1, was " + looks);
        }
        // k · P(X ≤ x | n, p) = α / H is (H · k) · P(X ≤ x | n, p) = α
        return CleanSampleBound.upperBound(n, failures, Math.multiplyExact(looks, strata), alpha);
    }

    /** A stratum's items N_h and its bound p_h, for {@link #catalog}. */
    public record Share(long items, double bound) {}

    /** Σ (N_h / N) · p_h over the given strata (N = Σ N_h); 0 without items. */
    public static double catalog(List<Share> strata) {
        long total = strata.stream().mapToLong(Share::items).sum();
        if (total == 0) {
            return 0;
        }
        double sum = 0;
        for (Share s : strata) {
            sum += (double) s.items() / total * s.bound();
        }
        return sum;
    }
}
