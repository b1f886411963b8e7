package dev.santabatch.decide;

import dev.santabatch.execution.RunContext;
import dev.santabatch.rounds.Decision;
import dev.santabatch.rounds.LoopStore;
import org.springframework.batch.core.job.JobExecution;
import org.springframework.batch.core.job.flow.FlowExecutionStatus;
import org.springframework.batch.core.job.flow.JobExecutionDecider;
import org.springframework.batch.core.step.StepExecution;

/** Routes the flow from the last round's stored decision: CONTINUE (resample) or DONE (export). */
public final class LoopDecider implements JobExecutionDecider {

    public static final String CONTINUE = "CONTINUE";
    static final String DONE = "DONE";

    private final LoopStore loop;
    private final RunContext run;

    public LoopDecider(LoopStore loop, RunContext run) {
        this.loop = loop;
        this.run = run;
    }

    @Override
    public FlowExecutionStatus decide(JobExecution jobExecution, StepExecution stepExecution) {
        String d = loop.lastRound(run.runPk()).map(LoopStore.Round::decision).orElse(Decision.FULLY_REVIEWED);
        return new FlowExecutionStatus(Decision.CONTINUE.equals(d) ? CONTINUE : DONE);
    }
}
