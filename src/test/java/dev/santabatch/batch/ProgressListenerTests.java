package dev.santabatch.batch;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.santabatch.persistence.Store;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.springframework.batch.core.BatchStatus;
import org.springframework.batch.core.job.JobExecution;
import org.springframework.batch.core.job.JobInstance;
import org.springframework.batch.core.job.parameters.JobParameters;
import org.springframework.batch.core.step.StepExecution;
import org.springframework.batch.infrastructure.item.Chunk;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/** The ingest and pre-pass progress lines: a resumed step says so, records and rate while it runs, the store's counts at the end. */
class ProgressListenerTests {

    @Test
    void logsResumeRecordsRateAndTheStoresCounts() {
        Store store = new Store(new DriverManagerDataSource("jdbc:h2:mem:" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1", "sa", ""));
        dev.santabatch.persistence.StoreSchema.migrate(store.jdbc().getDataSource());
        Logger logger = (Logger) LoggerFactory.getLogger(ProgressListener.class);
        ListAppender<ILoggingEvent> appender = new ListAppender<>();
        appender.start();
        logger.addAppender(appender);
        try {
            ProgressListener p = new ProgressListener("ingest", store, 42);
            StepExecution step = new StepExecution(1L, "ingest", new JobExecution(1L, new JobInstance(1L, "santa"), new JobParameters()));
            step.getExecutionContext().putString("batch.stepType", "chunk");
            step.setReadCount(500); // committed by the execution before the restart
            p.beforeStep(step);
            p.afterChunk(new Chunk<>(List.of("a", "b", "c")));
            step.setStatus(BatchStatus.COMPLETED);
            p.afterStep(step);
        } finally {
            logger.detachAppender(appender);
        }
        List<String> lines = appender.list.stream().map(ILoggingEvent::getFormattedMessage).toList();
        assertThat(lines).hasSize(2); // two seconds have not passed: no progress line between
        assertThat(lines.get(0)).isEqualTo("ingest: resuming after 500 records already committed");
        assertThat(lines.get(1)).startsWith("ingest: COMPLETED (3 read this session in ").endsWith(" s; store holds 0 items, 0 rejects)");
    }
}
