package dev.santabatch.execution;

import org.springframework.batch.core.ExitStatus;
import org.springframework.batch.core.listener.ChunkListener;
import org.springframework.batch.core.listener.StepExecutionListener;
import org.springframework.batch.core.step.StepExecution;
import org.springframework.batch.infrastructure.item.Chunk;

/**
 * Progress of a long chunk step: a line at most every {@code everyNanos} while it runs and one when
 * it ends, worded by the subclass (ingest and pre-pass: {@code batch.ProgressListener}; the loop's review
 * and batch-fix: {@code execution.StepProgress}). It counts the items written this session; the step
 * execution it keeps gives the items read.
 */
public abstract class ChunkProgress implements ChunkListener<Object, Object>, StepExecutionListener {

    protected final String step;
    private final long everyNanos;
    private long started;
    private long lastLog;
    private long written;
    private StepExecution execution;

    protected ChunkProgress(String step, long everyNanos) {
        this.step = step;
        this.everyNanos = everyNanos;
    }

    @Override
    public final void beforeStep(StepExecution stepExecution) {
        started = System.nanoTime();
        lastLog = started;
        written = 0;
        execution = stepExecution;
        starting(stepExecution);
    }

    @Override
    public final void afterChunk(Chunk<Object> chunk) {
        written += chunk.size();
        long now = System.nanoTime();
        if (now - lastLog >= everyNanos) {
            lastLog = now;
            progress(now);
        }
    }

    @Override
    public final ExitStatus afterStep(StepExecution stepExecution) {
        finished(stepExecution, System.nanoTime());
        return stepExecution.getExitStatus();
    }

    /** Called as the step starts (a resumed step may say so). */
    protected void starting(StepExecution stepExecution) {}

    /** A progress line, at most every interval. */
    protected abstract void progress(long now);

    /** The last line. */
    protected abstract void finished(StepExecution stepExecution, long now);

    /** Items written this session. */
    protected final long written() {
        return written;
    }

    /** Items read this session (the written count before the step started). */
    protected final long read() {
        return execution == null ? written : execution.getReadCount();
    }

    /** Seconds since the step started, one decimal. */
    protected final String seconds(long now) {
        return String.format(java.util.Locale.ROOT, "%.1f", (now - started) / 1e9);
    }

    /** {@code count} per second since the step started. */
    protected final long rate(long count, long now) {
        return Math.round(count / Math.max((now - started) / 1e9, 1e-9));
    }
}
