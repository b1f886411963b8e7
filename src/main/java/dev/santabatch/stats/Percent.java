package dev.santabatch.stats;

import java.util.Locale;

/** Formats shares as percentages for the report's sentences (locale-independent). */
public final class Percent {

    private Percent() {}

    /**
     * {@code 0.4507 -> "45.1 %"}, {@code 0.0295 -> "2.95 %"}, {@code 0.00123 -> "0.123 %"}: three
     * significant digits below 10 %, one decimal above; {@code 0 -> "0 %"}, {@code 1 -> "100 %"}.
     */
    public static String format(double share) {
        double pct = share * 100;
        if (pct == 0) {
            return "0 %";
        }
        if (pct == 100) {
            return "100 %";
        }
        if (pct >= 10) {
            return String.format(Locale.ROOT, "%.1f %%", pct);
        }
        if (pct >= 1) {
            return String.format(Locale.ROOT, "%.2f %%", pct);
        }
        if (pct >= 0.1) {
            return String.format(Locale.ROOT, "%.3f %%", pct);
        }
        return String.format(Locale.ROOT, "%.2g %%", pct);
    }

    /** A confidence level: {@code 0.95 -> "95 %"}. */
    static String level(double confidence) {
        double pct = confidence * 100;
        return pct == Math.rint(pct) ? String.format(Locale.ROOT, "%d %%", (long) pct)
                : String.format(Locale.ROOT, "%s %%", pct);
    }
}
