package dev.santabatch.model;

import java.util.concurrent.CancellationException;
import org.springframework.batch.core.job.JobInterruptedException;

/**
 * A requested stop (SIGTERM, Ctrl-C): the governor sends no attempt after it, and counts each one it
 * refuses {@link ErrorKind#CANCELLED}. Not a failure of the item: the step leaves the item as it was
 * (a restart asks again; answers received before the stop are kept). Its cause is a
 * {@link JobInterruptedException}: a step it escapes from ends STOPPED (restartable), not FAILED.
 */
public final class CallsStoppedException extends CancellationException {

    private static final long serialVersionUID = 1L;

    CallsStoppedException(String role) {
        super("stop requested: " + role + "'s model call not sent");
        initCause(new JobInterruptedException("stop requested before a model call of " + role));
    }
}
