package dev.santabatch.review;

/**
 * A review step whose failed-to-review share exceeds the threshold: the step, and the run, fail. An
 * expected failure: its message names the share, the threshold and the most common cause, so it
 * is reported in one line, without a stack trace.
 */
public class ReviewStepFailedException extends ExpectedFailureException {

    private final long failed;
    private final long total;
    private final double threshold;

    public ReviewStepFailedException(long failed, long total, double threshold) {
        this(failed, total, threshold, "");
    }

    /**
     * @param causes what made the items fail, for people (e.g. the most common failure: which
     *     model at which endpoint, the error kind and attempts); empty when unknown
     */
    public ReviewStepFailedException(long failed, long total, double threshold, String causes) {
        super(String.format(java.util.Locale.ROOT,
                "%d of %d items (%.1f %%) could not be reviewed, above the failed-review threshold of %.1f %%",
                failed, total, 100.0 * failed / total, 100.0 * threshold) + (causes.isBlank() ? "" : "; " + causes));
        this.failed = failed;
        this.total = total;
        this.threshold = threshold;
    }

    public long failed() {
        return failed;
    }

    public long total() {
        return total;
    }

    public double threshold() {
        return threshold;
    }
}
