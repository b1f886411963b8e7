package dev.santabatch.batch;

import dev.santabatch.export.ExportTasklet;
import dev.santabatch.ingest.IngestWriter;
import dev.santabatch.ingest.CatalogItemReader;
import dev.santabatch.ingest.CatalogRecord;
import dev.santabatch.execution.RunContext;
import dev.santabatch.execution.StopAwareInterruptionPolicy;
import dev.santabatch.execution.StopAwareTasklet;
import dev.santabatch.review.step.Panels;
import dev.santabatch.prepass.PrePass;
import dev.santabatch.prepass.StoreItemReader;
import dev.santabatch.persistence.Store;
import org.springframework.batch.core.job.Job;
import org.springframework.batch.core.job.builder.JobBuilder;
import org.springframework.batch.core.job.flow.JobExecutionDecider;
import org.springframework.batch.core.repository.JobRepository;
import org.springframework.batch.core.step.Step;
import org.springframework.batch.core.step.builder.StepBuilder;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.transaction.PlatformTransactionManager;

/**
 * The santa-batch job, top to bottom:
 *
 * <pre>
 * ingest ─► pre-pass ─► plan ─► sample ─► review ─► canaries ─► classify ─► batch-fix ─► decide ─┬─► export
 *                                   ▲                                                              │
 *                                   └──────────────────────── CONTINUE (rounds left) ──────────────┘
 * </pre>
 *
 * Every loop step is round-aware and idempotent ({@code allowStartIfComplete}), so the loop can
 * revisit them and a restart resumes where it stopped. An export after a round that ended not
 * clean stops the job (restartable at {@code sample}, after raising {@code santa.max-rounds}). The
 * plan step estimates the run's spend once, with no model call, for the report (docs/plan.md).
 * Registered only for an invocation that runs a job; the {@link RunContext} and {@link Panels}
 * beans are supplied by the caller.
 */
@Configuration(proxyBeanMethods = false)
public class SantaJobConfiguration {
    /**
     * The property {@code --no-learned-rules} sets to {@code false}: whether the batch fix learns
     * rules from the sample's fixes (default true).
     */
    public static final String LEARNED_RULES_PROPERTY = "santa-batch.learned-rules";

    /**
     * Whether rounds draw canaries and the panel's fit is judged (default true). Off, neither: for
     * test panels scripted to see only their own markers, which no canary carries, and to fail what
     * a test needs (docs/canaries.md). Operators turn canaries off in the job file instead
     * ({@code santa.canary-share: 0}, {@code santa.min-canaries: 0}), the fit still judged.
     */
    public static final String CANARIES_PROPERTY = "santa-batch.canaries";


    static final String INGEST = "ingest";
    static final String PREPASS = "pre-pass";
    static final String EXPORT = "export";
    static final String PLAN = "plan";

    @Bean
    Job santaJob(JobRepository jobRepository, RunContext run, Step ingestStep, Step prePassStep, Step planStep,
            LoopSteps loop, Step exportStep) {
        Step sample = loop.sampleStep();
        JobExecutionDecider decider = loop.decider();
        return new JobBuilder(run.job().name(), jobRepository)
                .start(ingestStep)
                .next(prePassStep)
                .next(planStep)
                .next(sample)
                .next(loop.reviewStep())
                .next(loop.canaryStep())
                .next(loop.classifyStep())
                .next(loop.batchFixStep())
                .next(loop.decideStep())
                .next(decider)
                .on(LoopSteps.CONTINUE)
                .to(sample)
                .from(decider)
                .on("*")
                .to(exportStep)
                .from(exportStep)
                .on(ExportTasklet.NOT_CLEAN)
                .stopAndRestart(sample)
                .from(exportStep)
                .on("*")
                .end()
                .end()
                .build();
    }

    @Bean
    LoopSteps loopSteps(JobRepository jobRepository, PlatformTransactionManager tm, RunContext run, Store store,
            Panels panels, @Value("${" + LEARNED_RULES_PROPERTY + ":true}") boolean learnedRules,
            @Value("${" + CANARIES_PROPERTY + ":true}") boolean canaries,
            dev.santabatch.review.offline.EmbeddingPool embeddingPool) {
        return new LoopSteps(jobRepository, tm, run, store, panels, learnedRules, canaries, embeddingPool);
    }

    @Bean
    Step ingestStep(JobRepository jobRepository, PlatformTransactionManager tm, RunContext run, Store store) {
        CatalogItemReader reader =
                new CatalogItemReader(run.input(), run.job().input(), CatalogItemReader.DEFAULT_PREFIX);
        return new StepBuilder(INGEST, jobRepository)
                .<CatalogRecord, CatalogRecord>chunk(run.job().run().chunkSize())
                .transactionManager(tm)
                .reader(reader)
                .writer(new IngestWriter(store, run.runPk(), run.categoryIndex(),
                        new dev.santabatch.config.SourceFields(run.job(), run.header())))
                .interruptionPolicy(new StopAwareInterruptionPolicy())
                .listener(new ProgressListener(INGEST, store, run.runPk()))
                .build();
    }

    @Bean
    Step prePassStep(JobRepository jobRepository, PlatformTransactionManager tm, RunContext run, Store store) {
        PrePass prePass = new PrePass(run.job(), run.header(), store, run.runPk(),
                dev.santabatch.carry.CarryOver.of(store, run.runPk(), run.job().carryOver()));
        return new StepBuilder(PREPASS, jobRepository)
                .<PrePass.Input, PrePass.Checked>chunk(run.job().run().chunkSize())
                .transactionManager(tm)
                .reader(new StoreItemReader<>(store, run.runPk(), run.job().run().chunkSize(), PREPASS, prePass::page))
                .processor(prePass)
                .writer(prePass)
                .interruptionPolicy(new StopAwareInterruptionPolicy())
                .listener(new ProgressListener(PREPASS, store, run.runPk()))
                .build();
    }

    @Bean
    Step planStep(JobRepository jobRepository, PlatformTransactionManager tm, RunContext run, Store store,
            @Value("${" + CANARIES_PROPERTY + ":true}") boolean canaries) {
        return new StepBuilder(PLAN, jobRepository)
                .tasklet(StopAwareTasklet.of(new dev.santabatch.plan.PlanTasklet(store, run, canaries)), tm)
                .build();
    }

    @Bean
    Step exportStep(JobRepository jobRepository, PlatformTransactionManager tm, RunContext run, Store store,
            LoopSteps loop) {
        return new StepBuilder(EXPORT, jobRepository)
                .tasklet(StopAwareTasklet.of(new ExportTasklet(store, loop.loopStore(), run, jobRepository)), tm)
                .allowStartIfComplete(true)
                .build();
    }
}
