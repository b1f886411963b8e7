package dev.santabatch.execution;

import org.jspecify.annotations.Nullable;
import org.springframework.batch.core.scope.context.ChunkContext;
import org.springframework.batch.core.step.StepContribution;
import org.springframework.batch.core.step.tasklet.Tasklet;
import org.springframework.batch.infrastructure.repeat.RepeatStatus;

/**
 * The tasklet steps' side of a requested stop (SIGTERM, Ctrl-C): a stop requested before the
 * tasklet runs ends the step as STOPPED without running it, as {@link StopAwareInterruptionPolicy}
 * does for chunk steps at every chunk boundary. Every tasklet of the job is wrapped in it. A tasklet
 * that makes a long pass looks at {@link StopSignal} itself every page and throws
 * {@link dev.santabatch.execution.PreparationStoppedException} (sample's scans, classify's embedding and
 * clustering, the export's passes, its ground truth's included).
 */
public final class StopAwareTasklet implements Tasklet {

    private final Tasklet delegate;

    private StopAwareTasklet(Tasklet delegate) {
        this.delegate = delegate;
    }

    public static Tasklet of(Tasklet delegate) {
        return new StopAwareTasklet(delegate);
    }

    @Override
    public @Nullable RepeatStatus execute(StepContribution contribution, ChunkContext chunkContext) throws Exception {
        if (StopSignal.requested()) {
            contribution.getStepExecution().setTerminateOnly();
            return RepeatStatus.FINISHED;
        }
        return delegate.execute(contribution, chunkContext);
    }
}
