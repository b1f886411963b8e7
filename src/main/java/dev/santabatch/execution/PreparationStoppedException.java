package dev.santabatch.execution;

import org.springframework.batch.core.job.JobInterruptedException;

/**
 * A requested stop (SIGTERM, Ctrl-C) seen by a long preparation between two of its batches. What
 * the finished batches stored is kept (a preparation is restart-safe), so a restart continues where
 * it stopped. Its cause is a {@link JobInterruptedException}: a step it escapes from ends STOPPED
 * (restartable), not FAILED.
 */
public final class PreparationStoppedException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** @param what the preparation and how far it got, e.g. {@code lexical index, round 1: 500 of 9000 items} */
    public PreparationStoppedException(String what) {
        super(what + ": stop requested", new JobInterruptedException("stop requested during " + what));
    }
}
