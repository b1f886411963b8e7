package dev.santabatch.loop;

import java.util.function.IntSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.batch.core.ExitStatus;
import org.springframework.batch.core.listener.ChunkListener;
import org.springframework.batch.core.listener.StepExecutionListener;
import org.springframework.batch.core.step.StepExecution;
import org.springframework.batch.infrastructure.item.Chunk;

/**
 * Progress of a long loop step (review, batch-fix): a line at most every {@link #EVERY_NANOS} with
 * the items read and written this session, the round and the rate (items read per second: the
 * batch-fix reads every eligible item and writes only those it fixed), and one at the end. A 100,000-item round
 * reviews 12,000 sampled items and scans some 90,000 in the batch-fix; without it the log said
 * nothing for many minutes.
 */
final class StepProgress implements ChunkListener<Object, Object>, StepExecutionListener {

    private static final Logger log = LoggerFactory.getLogger(StepProgress.class);
    static final long EVERY_NANOS = 30_000_000_000L;

    private final String step;
    private final IntSupplier round;
    private final long everyNanos;
    private long started;
    private long lastLog;
    private long written;
    private StepExecution execution;

    StepProgress(String step, IntSupplier round) {
        this(step, round, EVERY_NANOS);
    }

    StepProgress(String step, IntSupplier round, long everyNanos) {
        this.step = step;
        this.round = round;
        this.everyNanos = everyNanos;
    }

    @Override
    public void beforeStep(StepExecution stepExecution) {
        started = System.nanoTime();
        lastLog = started;
        written = 0;
        execution = stepExecution;
    }

    @Override
    public void afterChunk(Chunk<Object> chunk) {
        written += chunk.size();
        long now = System.nanoTime();
        if (now - lastLog >= everyNanos) {
            lastLog = now;
            log.info("{}, round {}: {} items read, {} written this session ({} read /s)", step, round.getAsInt(), read(), written, rate(now));
        }
    }

    @Override
    public ExitStatus afterStep(StepExecution stepExecution) {
        long now = System.nanoTime();
        log.info("{}, round {}: {} ({} items read, {} written this session in {} s, {} read /s)", step, round.getAsInt(),
                stepExecution.getStatus(), read(), written, String.format(java.util.Locale.ROOT, "%.1f", (now - started) / 1e9), rate(now));
        return stepExecution.getExitStatus();
    }

    private long read() {
        return execution == null ? written : execution.getReadCount();
    }

    private long rate(long now) {
        return Math.round(read() / Math.max((now - started) / 1e9, 1e-9));
    }
}
