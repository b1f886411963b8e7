package dev.santabatch.plan;

import dev.santabatch.execution.RunContext;
import dev.santabatch.rounds.LoopStore;
import dev.santabatch.persistence.Store;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.batch.core.scope.context.ChunkContext;
import org.springframework.batch.core.step.StepContribution;
import org.springframework.batch.core.step.tasklet.Tasklet;
import org.springframework.batch.infrastructure.repeat.RepeatStatus;

/**
 * The run's plan of itself, made once after the pre-pass and before round 1, with no model call:
 * the {@link Census} read from the run's own store (counts, and the prompts of {@value
 * Census#PROMPT_ITEMS} eligible items), the job's earlier runs, and the {@link Plan} stored with the
 * run ({@link PlanStore}) for the export to set beside what the run spent. A plan that cannot be made
 * is logged and left out; it never fails the run.
 */
public final class PlanTasklet implements Tasklet {

    private static final Logger log = LoggerFactory.getLogger(PlanTasklet.class);

    private final Store store;
    private final RunContext run;
    private final boolean canaries;

    /** @param canaries whether the run's rounds draw canaries */
    public PlanTasklet(Store store, RunContext run, boolean canaries) {
        this.store = store;
        this.run = run;
        this.canaries = canaries;
    }

    @Override
    public RepeatStatus execute(StepContribution contribution, ChunkContext chunkContext) {
        PlanStore plans = new PlanStore(store);
        if (plans.load(run.runPk()).isPresent()) {
            return RepeatStatus.FINISHED;
        }
        if (new LoopStore(store.jdbc()).lastRound(run.runPk()).isPresent()) {
            // a run an earlier version began, resumed past its first sample: too late to plan it
            log.info("plan: the run had drawn a sample before it could be planned; report.json has no plan");
            return RepeatStatus.FINISHED;
        }
        try {
            Plan plan = Plan.of(run.job(), run.input().toString(), plans.census(run.runPk(), run.job(), run.header()),
                    PlanHistory.read(store.jdbc(), run.job().name(), run.runPk()),
                    new Plan.Options(canaries, run.job().carryOver().targetBound()));
            plans.save(run.runPk(), plan.json());
            log.info("plan: round 1 expects {} model calls (sample {}), a whole run {}", plan.roundOneCalls(),
                    plan.roundOneSampleSize(), plan.wholeRunCalls());
        } catch (RuntimeException e) {
            log.warn("plan: the run's spend could not be estimated ({}); report.json has no plan", e.toString());
        }
        return RepeatStatus.FINISHED;
    }
}
