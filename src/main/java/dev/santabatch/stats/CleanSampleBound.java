package dev.santabatch.stats;

import java.util.Optional;

/**
 * What a clean sample says about the items it was drawn from.
 *
 * <h2>Formula</h2>
 *
 * <p>Zero failures among n items drawn from the N eligible items of the last round. If their
 * defect rate were p, one round's sample would come back clean with probability at most (1 − p)^n.
 * The loop looked at k rounds and stops at the first clean one, so (union bound over the k looks)
 * the chance that some round comes back clean by luck is at most k(1 − p)^n. Setting that to
 * α = 0.05 gives the 95 % upper bound
 *
 * <pre>p = 1 − (α / k)^(1/n)</pre>
 *
 * (about 3/n for k = 1: n = 5 → 45.07 %, n = 100 → 2.95 %; k = 3, n = 100 → 4.01 %).
 *
 * <h2>Why the binomial form is safe here</h2>
 *
 * <ul>
 *   <li>Sampling without replacement (hypergeometric) makes a clean sample <em>less</em> likely
 *       than (1 − p)^n, so the bound is conservative; no finite-population correction is applied
 *       (it would only tighten the bound when n is a large share of N).
 *   <li>With proportional allocation (n_h = n · N_h / N) and stratum defect rates p_h averaging to
 *       p, Π(1 − p_h)^(n_h) ≤ (1 − p)^n by Jensen (log(1 − x) is concave), so stratification does
 *       not weaken it. Largest-remainder rounding moves each n_h by less than one item: the bound
 *       is then approximate to that degree.
 * </ul>
 *
 * <p>The bound covers only defects "these reviewers can detect": what both reviewers miss is
 * invisible to it (the human audit's escape rate measures that). Items reviewed in full have no
 * sampling bound; see {@link #fullReviewSentence}.
 *
 * @param sampleSize n, the clean sample's size
 * @param eligible N, the eligible items of the last round
 * @param roundsLookedAt k, the rounds whose samples were looked at (≥ 1)
 * @param confidence 1 − α (0.95)
 * @param upperBound p
 */
public record CleanSampleBound(int sampleSize, long eligible, int roundsLookedAt, double confidence, double upperBound) {

    public static final double CONFIDENCE = 0.95;

    /** A bound above this (10 %) is called weak in the report. */
    public static final double WEAK_ABOVE = 0.10;

    /** The 95 % bound for a clean sample of {@code n} items from {@code eligible}, after {@code k} rounds. */
    public static CleanSampleBound of(int n, long eligible, int k) {
        if (n < 1) {
            throw new IllegalArgumentException("a clean sample needs at least one item, was " + n);
        }
        if (eligible < n) {
            throw new IllegalArgumentException("sample of " + n + " from only " + eligible + " eligible items");
        }
        return new CleanSampleBound(n, eligible, k, CONFIDENCE, upperBound(n, k, 1 - CONFIDENCE));
    }

    /** {@code 1 − (alpha / k)^(1/n)}, the p solving {@code k(1 − p)^n = alpha}. */
    public static double upperBound(int n, int k, double alpha) {
        if (n < 1) {
            throw new IllegalArgumentException("n must be >= 1, was " + n);
        }
        if (k < 1) {
            throw new IllegalArgumentException("k must be >= 1, was " + k);
        }
        if (!(alpha > 0 && alpha < 1)) {
            throw new IllegalArgumentException("alpha must be in (0, 1), was " + alpha);
        }
        if (alpha / k >= 1) {
            return 0;
        }
        // 1 − exp(ln(α/k) / n), computed with expm1 for accuracy at large n
        return -Math.expm1(Math.log(alpha / k) / n);
    }

    /** p above 10 %. */
    public boolean weak() {
        return upperBound > WEAK_ABOVE;
    }

    /**
     * "Among the 1000 items eligible in the last round, for defects these reviewers can detect,
     * the defect rate is below 2.95 % with 95 % confidence (clean sample of 100 items; 1 round
     * looked at)."
     */
    public String sentence() {
        return "Among the " + eligible + " items eligible in the last round, for defects these reviewers can detect,"
                + " the defect rate is below " + Percent.format(upperBound) + " with " + Percent.level(confidence)
                + " confidence (clean sample of " + sampleSize + (sampleSize == 1 ? " item; " : " items; ")
                + roundsLookedAt + (roundsLookedAt == 1 ? " round" : " rounds") + " looked at).";
    }

    /**
     * For a weak bound: "Weak bound: a clean sample of only 5 items shows only that the defect
     * rate is below 45.1 %; it does not show that the catalog is clean."; empty otherwise.
     */
    public Optional<String> warning() {
        if (!weak()) {
            return Optional.empty();
        }
        return Optional.of("Weak bound: a clean sample of only " + sampleSize + (sampleSize == 1 ? " item" : " items")
                + " shows only that the defect rate is below " + Percent.format(upperBound)
                + "; it does not show that the catalog is clean.");
    }

    /** For a run whose eligible items were all reviewed: there is no sampling bound. */
    public static String fullReviewSentence(long reviewed) {
        return "All " + reviewed + " eligible items were reviewed in full (fully reviewed, no sampling bound):"
                + " there is no sampling bound to state; the result is the reviewers' verdict on each item.";
    }
}
