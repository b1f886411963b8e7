package dev.santabatch.execution;

import java.util.function.IntSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.batch.core.step.StepExecution;

/**
 * Progress of a long loop step (review, batch-fix): a line at most every {@link #EVERY_NANOS} with
 * the items read and written this session, the round and the rate (items read per second: the
 * batch-fix reads every eligible item and writes only those it fixed), and one at the end. A
 * 100,000-item round reviews 12,000 sampled items and scans some 90,000 in the batch-fix; without
 * it the log said nothing for many minutes.
 */
public final class StepProgress extends ChunkProgress {

    private static final Logger log = LoggerFactory.getLogger(StepProgress.class);
    static final long EVERY_NANOS = 30_000_000_000L;

    private final IntSupplier round;

    public StepProgress(String step, IntSupplier round) {
        this(step, round, EVERY_NANOS);
    }

    public StepProgress(String step, IntSupplier round, long everyNanos) {
        super(step, everyNanos);
        this.round = round;
    }

    @Override
    protected void progress(long now) {
        log.info("{}, round {}: {} items read, {} written this session ({} read /s)", step, round.getAsInt(), read(), written(),
                rate(read(), now));
    }

    @Override
    protected void finished(StepExecution stepExecution, long now) {
        log.info("{}, round {}: {} ({} items read, {} written this session in {} s, {} read /s)", step, round.getAsInt(),
                stepExecution.getStatus(), read(), written(), seconds(now), rate(read(), now));
    }
}
