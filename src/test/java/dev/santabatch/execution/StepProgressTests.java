package dev.santabatch.execution;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.springframework.batch.core.BatchStatus;
import org.springframework.batch.core.job.JobExecution;
import org.springframework.batch.core.job.JobInstance;
import org.springframework.batch.core.job.parameters.JobParameters;
import org.springframework.batch.core.step.StepExecution;
import org.springframework.batch.infrastructure.item.Chunk;

/** The loop steps' progress lines: items read and written this session, the round, the read rate, and a last line. */
class StepProgressTests {

    @Test
    void logsItemsRoundAndRateAndAFinalLine() {
        Logger logger = (Logger) LoggerFactory.getLogger(StepProgress.class);
        ListAppender<ILoggingEvent> appender = new ListAppender<>();
        appender.start();
        logger.addAppender(appender);
        try {
            StepProgress p = new StepProgress("review", () -> 3, 0); // every chunk
            StepExecution step = new StepExecution(1L, "review", new JobExecution(1L, new JobInstance(1L, "santa"), new JobParameters()));
            p.beforeStep(step);
            step.setReadCount(5); // a batch-fix reads every eligible item and writes what it fixed
            p.afterChunk(new Chunk<>(List.of("a", "b")));
            step.setReadCount(9);
            p.afterChunk(new Chunk<>(List.of("c")));
            step.setStatus(BatchStatus.COMPLETED);
            p.afterStep(step);
        } finally {
            logger.detachAppender(appender);
        }
        List<String> lines = appender.list.stream().map(ILoggingEvent::getFormattedMessage).toList();
        assertThat(lines).hasSize(3);
        assertThat(lines.get(0)).startsWith("review, round 3: 5 items read, 2 written this session (");
        assertThat(lines.get(1)).startsWith("review, round 3: 9 items read, 3 written this session (");
        assertThat(lines.get(2)).startsWith("review, round 3: COMPLETED (9 items read, 3 written this session in ");
    }
}
