package dev.santabatch.run;

import dev.santabatch.store.Store;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.batch.core.listener.ChunkListener;
import org.springframework.batch.core.listener.StepExecutionListener;
import org.springframework.batch.core.step.StepExecution;
import org.springframework.batch.infrastructure.item.Chunk;

/** Shows progress of a long chunk step: at most one line every two seconds, and one at the end. */
final class ProgressListener implements ChunkListener<Object, Object>, StepExecutionListener {

    private static final Logger log = LoggerFactory.getLogger(ProgressListener.class);
    private static final long EVERY_NANOS = 2_000_000_000L;

    private final String step;
    private final Store store;
    private final long runPk;
    private long started;
    private long lastLog;
    private long written;

    ProgressListener(String step, Store store, long runPk) {
        this.step = step;
        this.store = store;
        this.runPk = runPk;
    }

    @Override
    public void beforeStep(StepExecution stepExecution) {
        started = System.nanoTime();
        lastLog = started;
        written = 0;
        if (stepExecution.getExecutionContext().containsKey("batch.stepType")
                && stepExecution.getReadCount() > 0) {
            log.info("{}: resuming after {} records already committed", step, stepExecution.getReadCount());
        }
    }

    @Override
    public void afterChunk(Chunk<Object> chunk) {
        written += chunk.size();
        long now = System.nanoTime();
        if (now - lastLog >= EVERY_NANOS) {
            lastLog = now;
            double secs = (now - started) / 1e9;
            log.info("{}: {} records this session ({} /s)", step, written, Math.round(written / Math.max(secs, 1e-9)));
        }
    }

    @Override
    public org.springframework.batch.core.ExitStatus afterStep(StepExecution stepExecution) {
        double secs = (System.nanoTime() - started) / 1e9;
        log.info(
                "{}: {} ({} read this session in {} s; store holds {} items, {} rejects)",
                step,
                stepExecution.getStatus(),
                written,
                String.format("%.1f", secs),
                store.countItems(runPk),
                store.countRejects(runPk));
        return stepExecution.getExitStatus();
    }
}
