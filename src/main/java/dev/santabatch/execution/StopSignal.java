package dev.santabatch.execution;

import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The project-level stop flag. SIGTERM (a CronJob deadline) and SIGINT set it instead of starting
 * JVM shutdown, so the job ends at its next chunk boundary as STOPPED while the context and the
 * DataSource are still open to record it; the process then exits 1 through the normal path.
 *
 * <p>Why not Spring Batch's own {@code JobOperator.stop}: it can race with the step thread and
 * leave the step UNKNOWN, which is not restartable. Why not a shutdown hook: by the time a hook
 * runs, Spring Boot's own hook is closing the context and the DataSource.
 */
public final class StopSignal {

    private static final Logger log = LoggerFactory.getLogger(StopSignal.class);
    private static final AtomicBoolean requested = new AtomicBoolean();

    private StopSignal() {}

    /** Routes SIGTERM and SIGINT to the stop flag. Safe to call more than once. */
    @SuppressWarnings("restriction")
    public static void install() {
        for (String name : new String[] {"TERM", "INT"}) {
            try {
                sun.misc.Signal.handle(new sun.misc.Signal(name), sig -> request("SIG" + sig.getName()));
            } catch (IllegalArgumentException | UnsupportedOperationException e) {
                log.debug("cannot handle SIG{}: {}", name, e.getMessage());
            }
        }
    }

    public static void request(String why) {
        if (requested.compareAndSet(false, true)) {
            log.warn("{} received: stopping at the next chunk boundary (the run stays restartable)", why);
        }
    }

    public static boolean requested() {
        return requested.get();
    }

    /** For tests that run several jobs in one JVM. */
    public static void reset() {
        requested.set(false);
    }
}
