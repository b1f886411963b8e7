package dev.santabatch.stats;

import java.util.Locale;
import java.util.OptionalDouble;

/**
 * Chance-corrected agreement of item verdicts.
 *
 * @param method "cohen" (two raters) or "fleiss" (three or more)
 * @param raters raters per item
 * @param items items rated
 * @param observedAgreement P_o: Cohen, the share of items both raters rated alike; Fleiss, P̄, the
 *     mean share of agreeing rater pairs per item (NaN with no items)
 * @param expectedAgreement P_e, the agreement expected by chance from the raters' category shares
 *     (NaN with no items)
 * @param kappa (P_o − P_e) / (1 − P_e); empty ("undefined") when P_e = 1 (every verdict in one
 *     category, so chance explains all agreement) or there are no items: report the raw agreement
 */
public record KappaResult(
        String method, int raters, int items, double observedAgreement, double expectedAgreement, OptionalDouble kappa) {

    /** The default low-agreement threshold of the job file (0.4). */
    public static final double DEFAULT_LOW_AGREEMENT = 0.4;

    public boolean defined() {
        return kappa.isPresent();
    }

    /**
     * Kappa is defined and below {@code threshold} (the seed: the rubric needs tightening). An
     * undefined kappa is not flagged: its raw agreement is reported instead.
     */
    public boolean lowAgreement(double threshold) {
        return kappa.isPresent() && kappa.getAsDouble() < threshold;
    }

    /** "kappa 0.40 (cohen, 10 items, raw agreement 70.0 %)" or "kappa undefined (...)". */
    @Override
    public String toString() {
        String k = kappa.isPresent() ? String.format(Locale.ROOT, "kappa %.2f", kappa.getAsDouble()) : "kappa undefined";
        String raw = Double.isNaN(observedAgreement) ? "no items" : "raw agreement " + Percent.format(observedAgreement);
        return k + " (" + method + ", " + raters + " raters, " + items + " items, " + raw + ")";
    }
}
