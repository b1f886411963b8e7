package dev.santabatch.execution;

import org.springframework.batch.core.job.JobInterruptedException;
import org.springframework.batch.core.step.StepExecution;
import org.springframework.batch.core.step.StepInterruptionPolicy;

/** Checked by chunk steps at every chunk boundary: a requested stop ends the step as STOPPED. */
public final class StopAwareInterruptionPolicy implements StepInterruptionPolicy {

    @Override
    public void checkInterrupted(StepExecution stepExecution) throws JobInterruptedException {
        if (StopSignal.requested() || stepExecution.isTerminateOnly()) {
            stepExecution.setTerminateOnly();
            throw new JobInterruptedException("stop requested");
        }
    }
}
