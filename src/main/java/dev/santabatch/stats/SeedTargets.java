package dev.santabatch.stats;

import java.util.List;
import java.util.OptionalDouble;

/**
 * The seed's targets beside the measured values: first-pass rate &gt; 70 %, mean reviews to NICE
 * &lt; 1.5, escape rate = 0.
 */
public final class SeedTargets {

    public static final double FIRST_PASS_RATE_ABOVE = 0.70;
    public static final double MEAN_REVIEWS_TO_NICE_BELOW = 1.5;

    /** Whether a measured value meets its target. */
    public enum Status {
        MET,
        MISSED,
        NOT_MEASURED
    }

    /**
     * One target.
     *
     * @param metric "first-pass-rate", "mean-reviews-to-nice" or "escape-rate"
     * @param target the seed's target, e.g. "> 70 %"
     * @param measured the measured value, empty when not measured
     * @param status met, missed or not measured
     */
    public record Target(String metric, String target, OptionalDouble measured, Status status) {}

    private SeedTargets() {}

    /**
     * The three targets; {@code escapeRate} is empty until the human spot-check (the filled
     * {@code audit.csv} handed back) gives one: the seed's escape rate is defective among the
     * audited shipped items, never a ground truth's figure.
     */
    public static List<Target> of(SantaMetrics metrics, OptionalDouble escapeRate) {
        OptionalDouble fp = metrics.firstPassRate();
        OptionalDouble mr = metrics.meanReviewsToNice();
        return List.of(
                new Target("first-pass-rate", "> 70 %", fp,
                        status(fp, fp.isPresent() && fp.getAsDouble() > FIRST_PASS_RATE_ABOVE)),
                new Target("mean-reviews-to-nice", "< 1.5", mr,
                        status(mr, mr.isPresent() && mr.getAsDouble() < MEAN_REVIEWS_TO_NICE_BELOW)),
                escapeRate(escapeRate));
    }

    /** The escape-rate target: met when the spot-check found no defective item; empty: not measured. */
    public static Target escapeRate(OptionalDouble measured) {
        return new Target("escape-rate", "0", measured, status(measured, measured.isPresent() && measured.getAsDouble() == 0));
    }

    private static Status status(OptionalDouble measured, boolean met) {
        return measured.isEmpty() ? Status.NOT_MEASURED : met ? Status.MET : Status.MISSED;
    }
}
