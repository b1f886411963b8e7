package dev.santabatch.stats;

import org.apache.commons.statistics.distribution.BinomialDistribution;
import org.apache.commons.statistics.interval.BinomialConfidenceInterval;
import org.apache.commons.statistics.interval.Interval;

/**
 * The exact (Clopper-Pearson) confidence interval for a binomial proportion: x events in n trials
 * (here: defective items among the audited ones).
 *
 * <pre>
 * lower = 0                                  if x = 0, else  B⁻¹(α/2;     x,     n − x + 1)
 * upper = 1                                  if x = n, else  B⁻¹(1 − α/2; x + 1, n − x)
 * </pre>
 *
 * where B⁻¹(q; a, b) is the q-quantile of the Beta(a, b) distribution and α = 1 − confidence,
 * computed by Apache Commons Statistics ({@link BinomialConfidenceInterval#CLOPPER_PEARSON}). Pure
 * and thread-safe.
 *
 * <p>Hand checks: 0/20 → [0, 1 − 0.025^(1/20)] = [0, 0.1684]; 20/20 → [0.025^(1/20), 1] =
 * [0.8316, 1]; 1/20 → [0.0013, 0.2487].
 */
public final class ClopperPearson {

    public static final double DEFAULT_CONFIDENCE = 0.95;

    private ClopperPearson() {}

    /** The 95 % interval for {@code events} in {@code trials}. */
    public static ConfidenceInterval interval(long events, long trials) {
        return interval(events, trials, DEFAULT_CONFIDENCE);
    }

    /**
     * The two-sided interval at {@code confidence} (e.g. 0.95) for {@code events} in {@code trials};
     * {@link IllegalArgumentException} unless 0 ≤ events ≤ trials, trials > 0 and confidence in (0, 1).
     */
    public static ConfidenceInterval interval(long events, long trials, double confidence) {
        Interval ci = BinomialConfidenceInterval.CLOPPER_PEARSON.fromErrorRate(Math.toIntExact(trials),
                Math.toIntExact(events), 1 - confidence);
        return new ConfidenceInterval(ci.getLowerBound(), ci.getUpperBound(), confidence);
    }

    /** P(X ≤ x) for X ~ Binomial(n, p), and 1 for x ≥ n. */
    public static double binomialCdf(long x, long n, double p) {
        if (n < 0 || x < 0) {
            throw new IllegalArgumentException("x and n must be >= 0, were " + x + " and " + n);
        }
        if (!(p >= 0 && p <= 1)) {
            throw new IllegalArgumentException("p must be in [0, 1], was " + p);
        }
        return x >= n ? 1 : BinomialDistribution.of(Math.toIntExact(n), p).cumulativeProbability((int) x);
    }
}
