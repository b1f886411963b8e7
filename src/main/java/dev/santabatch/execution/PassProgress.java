package dev.santabatch.execution;

import org.slf4j.Logger;

/**
 * Progress of one long pass over a catalog's items (a phase of an index's preparation, the batch
 * fix's narrowing): a line at most every {@code everyNanos} with the items done, the total and the
 * rate, and on {@link #finish} one with the time taken. Used from one thread.
 */
public final class PassProgress {

    private final Logger log;
    private final String what;
    private final long total;
    private final long every;
    private final long start = System.nanoTime();
    private long last = start;
    private long done;

    /**
     * @param what the pass, as the log names it
     * @param total the items the pass will do
     */
    public PassProgress(Logger log, String what, long total, long everyNanos) {
        this.log = log;
        this.what = what;
        this.total = total;
        this.every = everyNanos;
    }

    /** Items done so far. */
    public long done() {
        return done;
    }

    /** Counts {@code n} more items done; logs a line when the interval has passed since the last. */
    public void add(long n) {
        done += n;
        long now = System.nanoTime();
        if (now - last >= every) {
            last = now;
            log.info("{}: {} of {} items ({} /s)", what, done, total, Math.round(done / ((now - start) / 1e9)));
        }
    }

    /** Logs the pass's end: the items done and the seconds taken. */
    public void finish() {
        log.info("{}: {} of {} items in {} s", what, done, total,
                String.format(java.util.Locale.ROOT, "%.1f", (System.nanoTime() - start) / 1e9));
    }
}
