package dev.santabatch.stats;

import java.util.Optional;
import org.apache.commons.statistics.distribution.BetaDistribution;

/**
 * What a clean sample says about the items it was drawn from.
 *
 * <h2>Formula</h2>
 *
 * <p>A clean sample of n items from the N eligible items of the last round has x failures, at most
 * the acceptance number c ({@link AcceptanceNumber}), none in a systematic pattern. If the defect
 * rate were p, one round's sample would show at most x failures with probability P(X ≤ x | n, p),
 * X ~ Binomial(n, p). The loop looked at k rounds and stops at the first clean one, so (union bound
 * over the k looks) the chance that some round shows so few failures by luck is at most
 * k · P(X ≤ x | n, p). Setting that to α = 0.05 gives the 95 % upper bound: the p solving
 *
 * <pre>P(X ≤ x | n, p) = α / k,   i.e.   p = B⁻¹(1 − α/k; x + 1, n − x)</pre>
 *
 * (the one-sided Clopper–Pearson upper limit at level α/k). For x = 0 it is today's closed form
 * p = 1 − (α / k)^(1/n), about 3/n for k = 1: n = 5 → 45.07 %, n = 100 → 2.95 %; k = 3, n = 100 →
 * 4.01 %. With failures: n = 100, k = 1, x = 1 → 4.66 %, x = 2 → 6.16 %. Stating the bound for the
 * failures observed rather than for c is as safe: a round whose x gives a bound below the true p
 * has x ≤ the largest such x, which happens with probability at most α/k.
 *
 * <h2>Why the binomial form is safe here</h2>
 *
 * <ul>
 *   <li>Sampling without replacement (hypergeometric) makes a sample with few failures <em>less</em>
 *       likely than the binomial does, so the bound is conservative; no finite-population
 *       correction is applied (it would only tighten the bound when n is a large share of N).
 *   <li>With proportional allocation (n_h = n · N_h / N) and stratum defect rates p_h averaging to
 *       p, a stratified sample's failures vary less than a binomial's of rate p, so stratification
 *       does not weaken it (for x = 0: Π(1 − p_h)^(n_h) ≤ (1 − p)^n by Jensen). Largest-remainder
 *       rounding moves each n_h by less than one item: the bound is then approximate to that degree.
 * </ul>
 *
 * <p>The bound covers only defects "these reviewers can detect": what both reviewers miss is
 * invisible to it (the human audit's escape rate measures that). A reviewer's false FAIL counts
 * as a failure here, so the bound is conservative for noisy judges. Items reviewed in full have no
 * sampling bound; see {@link #fullReviewSentence}.
 *
 * @param sampleSize n, the clean sample's size
 * @param eligible N, the eligible items of the last round
 * @param roundsLookedAt k, the rounds whose samples were looked at (≥ 1)
 * @param failures x, the clean sample's items not NICE on first review (fixed in the sample)
 * @param acceptanceNumber c, the most failures the round's plan accepted
 * @param confidence 1 − α (0.95)
 * @param upperBound p
 */
public record CleanSampleBound(int sampleSize, long eligible, int roundsLookedAt, int failures, int acceptanceNumber,
        double confidence, double upperBound) {

    public static final double CONFIDENCE = 0.95;

    /** A bound above this (10 %) is called weak in the report. */
    public static final double WEAK_ABOVE = 0.10;

    /**
     * The 95 % bound for a clean sample of {@code n} items from {@code eligible}, after {@code k}
     * rounds, with {@code failures} failures accepted under the acceptance number {@code c}.
     */
    public static CleanSampleBound of(int n, long eligible, int k, int failures, int c) {
        if (n < 1) {
            throw new IllegalArgumentException("a clean sample needs at least one item, was " + n);
        }
        if (eligible < n) {
            throw new IllegalArgumentException("sample of " + n + " from only " + eligible + " eligible items");
        }
        if (c < 0 || failures < 0 || failures > c) {
            throw new IllegalArgumentException("a clean sample has 0 to c failures, was " + failures + " with c = " + c);
        }
        return new CleanSampleBound(n, eligible, k, failures, c, CONFIDENCE, upperBound(n, failures, k, 1 - CONFIDENCE));
    }

    /**
     * The p solving {@code k · P(X ≤ failures | n, p) = alpha}: {@code 1 − (alpha / k)^(1/n)} with
     * no failures, else the beta quantile {@code B⁻¹(1 − alpha/k; failures + 1, n − failures)}.
     */
    public static double upperBound(int n, int failures, int k, double alpha) {
        if (n < 1) {
            throw new IllegalArgumentException("n must be >= 1, was " + n);
        }
        if (failures < 0 || failures >= n) {
            throw new IllegalArgumentException("failures must be within 0.." + (n - 1) + ", was " + failures);
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
        if (failures == 0) {
            // 1 − exp(ln(α/k) / n), computed with expm1 for accuracy at large n
            return -Math.expm1(Math.log(alpha / k) / n);
        }
        // the (1 − α/k)-quantile of Beta(x + 1, n − x), as its survival quantile at α/k (accurate for small α/k)
        return BetaDistribution.of(failures + 1, n - failures).inverseSurvivalProbability(alpha / k);
    }

    /** p above 10 %. */
    public boolean weak() {
        return upperBound > WEAK_ABOVE;
    }

    /**
     * "Among the 1000 items eligible in the last round, for defects these reviewers can detect,
     * the defect rate is below 4.66 % with 95 % confidence (clean sample of 100 items with 1
     * failure, acceptance number 7; 1 round looked at)."
     */
    public String sentence() {
        return "Among the " + eligible + " items eligible in the last round, for defects these reviewers can detect,"
                + " the defect rate is below " + Percent.format(upperBound) + " with " + Percent.level(confidence)
                + " confidence (clean sample of " + items(sampleSize) + " with " + failures
                + (failures == 1 ? " failure" : " failures") + ", acceptance number " + acceptanceNumber + "; "
                + roundsLookedAt + (roundsLookedAt == 1 ? " round" : " rounds") + " looked at).";
    }

    private static String items(int n) {
        return n + (n == 1 ? " item" : " items");
    }

    /**
     * For a weak bound: "Weak bound: a clean sample of only 5 items shows only that the defect
     * rate is below 45.1 %; it does not show that the catalog is clean."; empty otherwise.
     */
    public Optional<String> warning() {
        if (!weak()) {
            return Optional.empty();
        }
        return Optional.of("Weak bound: a clean sample of only " + items(sampleSize)
                + (failures == 0 ? "" : " with " + failures + (failures == 1 ? " failure" : " failures")) + " shows only that the defect rate is below " + Percent.format(upperBound)
                + "; it does not show that the catalog is clean.");
    }

    /** For a run whose eligible items were all reviewed: there is no sampling bound. */
    public static String fullReviewSentence(long reviewed) {
        return "All " + reviewed + " eligible items were reviewed in full (fully reviewed, no sampling bound):"
                + " there is no sampling bound to state; the result is the reviewers' verdict on each item.";
    }
}
