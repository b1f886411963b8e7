package dev.santabatch.stats;

/**
 * A two-sided confidence interval for a proportion.
 *
 * @param lower the lower limit, in [0, 1]
 * @param upper the upper limit, in [lower, 1]
 * @param confidence the confidence level, e.g. 0.95
 */
public record ConfidenceInterval(double lower, double upper, double confidence) {

    public ConfidenceInterval {
        if (!(0 <= lower && lower <= upper && upper <= 1)) {
            throw new IllegalArgumentException("not an interval within [0, 1]: [" + lower + ", " + upper + "]");
        }
        if (!(confidence > 0 && confidence < 1)) {
            throw new IllegalArgumentException("confidence must be in (0, 1), was " + confidence);
        }
    }

    /** For example {@code [0.13 %, 24.87 %] (95 % Clopper-Pearson)}. */
    @Override
    public String toString() {
        return "[" + Percent.format(lower) + ", " + Percent.format(upper) + "] (" + Percent.level(confidence)
                + " Clopper-Pearson)";
    }
}
