package dev.santabatch.review;

/**
 * Decides whether a review step failed: the share of its items left UNREVIEWED (a reviewer failed
 * to review, or the fixer failed for transport reasons) above the threshold fails the step, so
 * the run is FAILED and a restart retries those items. A share equal to the threshold passes.
 */
public record FailedReviewThreshold(double threshold) {

    public static final double DEFAULT = 0.10;

    public FailedReviewThreshold {
        if (!(threshold >= 0.0 && threshold <= 1.0)) {
            throw new IllegalArgumentException("failed-review threshold must lie in [0, 1], was " + threshold);
        }
    }

    public static FailedReviewThreshold defaults() {
        return new FailedReviewThreshold(DEFAULT);
    }

    /**
     * @param failed items left unreviewed in the step
     * @param total items the step processed; 0 never exceeds
     */
    public boolean exceeded(long failed, long total) {
        if (failed < 0 || total < 0 || failed > total) {
            throw new IllegalArgumentException("bad counts: " + failed + " failed of " + total);
        }
        // failed / total > threshold, without rounding trouble at the boundary for small totals
        return total > 0 && failed > threshold * total + 1e-9 * total;
    }

    /** Throws {@link ReviewStepFailedException} when {@link #exceeded}. */
    public void check(long failed, long total) {
        check(failed, total, () -> "");
    }

    /** As {@link #check(long, long)}, the exception's message ending with {@code causes}. */
    public void check(long failed, long total, java.util.function.Supplier<String> causes) {
        if (exceeded(failed, total)) {
            throw new ReviewStepFailedException(failed, total, threshold, causes.get());
        }
    }
}
