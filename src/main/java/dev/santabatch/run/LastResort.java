package dev.santabatch.run;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The last resort: no thread ends on a throwable nobody caught without its cause in the log. The
 * run's own thread is covered by {@link Launcher} (an {@link Error} escaping the job, e.g. an
 * OutOfMemoryError outside a step, or a store failure while the job's end is recorded, is logged
 * with its cause and written to {@code report.json} before the process exits 1); the heartbeat
 * catches and logs whatever it throws itself. This handler covers the threads that die of an
 * uncaught throwable: plain threads, and the workers of an executor's {@code execute}d tasks. A
 * task {@code submit}ted to an executor or scheduled never reaches it (its throwable is kept in its
 * Future): such tasks handle their own failures.
 */
public final class LastResort {

    private static final Logger log = LoggerFactory.getLogger(LastResort.class);

    private LastResort() {}

    /** Installs the default uncaught-exception handler. Safe to call more than once. */
    public static void install() {
        Thread.setDefaultUncaughtExceptionHandler(LastResort::uncaught);
    }

    static void uncaught(Thread thread, Throwable e) {
        try {
            log.error("uncaught in thread '{}': {}", thread.getName(), Launcher.failureLine(e), e);
        } catch (Throwable logging) {
            // the logging itself failed (out of memory): the JVM's own last words
            System.err.println("santa-batch: uncaught in thread '" + thread.getName() + "': " + e);
        }
    }
}
