package dev.santabatch.batch;

import dev.santabatch.execution.ChunkProgress;
import dev.santabatch.persistence.Store;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.batch.core.step.StepExecution;

/** Shows progress of the ingest and pre-pass steps: at most one line every two seconds, and one at the end with the store's counts. */
final class ProgressListener extends ChunkProgress {

    private static final Logger log = LoggerFactory.getLogger(ProgressListener.class);
    private static final long EVERY_NANOS = 2_000_000_000L;

    private final Store store;
    private final long runPk;

    ProgressListener(String step, Store store, long runPk) {
        super(step, EVERY_NANOS);
        this.store = store;
        this.runPk = runPk;
    }

    @Override
    protected void starting(StepExecution stepExecution) {
        if (stepExecution.getExecutionContext().containsKey("batch.stepType")
                && stepExecution.getReadCount() > 0) {
            log.info("{}: resuming after {} records already committed", step, stepExecution.getReadCount());
        }
    }

    @Override
    protected void progress(long now) {
        log.info("{}: {} records this session ({} /s)", step, written(), rate(written(), now));
    }

    @Override
    protected void finished(StepExecution stepExecution, long now) {
        log.info("{}: {} ({} read this session in {} s; store holds {} items, {} rejects)", step, stepExecution.getStatus(),
                written(), seconds(now), store.countItems(runPk), store.countRejects(runPk));
    }
}
