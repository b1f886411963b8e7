package dev.santabatch.batch;

import dev.santabatch.batchfix.BatchFixStep;
import dev.santabatch.batchfix.LearnedRules;
import dev.santabatch.batchfix.ModelBatchFix;
import dev.santabatch.batchfix.OfflineNarrowingChecks;
import dev.santabatch.batchfix.PatternNarrowing;
import dev.santabatch.canary.CanaryStep;
import dev.santabatch.decide.DecideTasklet;
import dev.santabatch.decide.LoopDecider;
import dev.santabatch.execution.ItemPipeline;
import dev.santabatch.execution.StepProgress;
import dev.santabatch.model.SpendStore;
import dev.santabatch.patterns.ClassifyTasklet;
import dev.santabatch.patterns.FailureClassifier;
import dev.santabatch.review.offline.EmbeddingPool;
import dev.santabatch.review.step.Panels;
import dev.santabatch.review.step.ReviewStep;
import dev.santabatch.sampling.SampleTasklet;
import dev.santabatch.execution.RunContext;
import dev.santabatch.execution.StopAwareTasklet;
import dev.santabatch.rounds.LearnedRuleStore;
import dev.santabatch.rounds.LoopStore;
import dev.santabatch.review.semantic.Embedder;
import dev.santabatch.review.semantic.SentenceVectors;

import dev.santabatch.config.SourceFields;
import dev.santabatch.review.IssueSimilarity;
import dev.santabatch.persistence.Store;
import org.springframework.batch.core.job.flow.JobExecutionDecider;
import org.springframework.batch.core.repository.JobRepository;
import org.springframework.batch.core.step.Step;
import org.springframework.batch.core.listener.StepExecutionListener;
import org.springframework.batch.core.step.builder.StepBuilder;
import org.springframework.core.task.SimpleAsyncTaskExecutor;
import org.springframework.transaction.PlatformTransactionManager;

/**
 * The Pattern C loop's steps: sample, review, canaries, classify, batch-fix, decide, and the decider that
 * closes the loop. Every step may run once per round ({@code allowStartIfComplete}) and is
 * round-aware: it works on the current (undecided) round and does nothing otherwise.
 */
final class LoopSteps {

    public static final String SAMPLE = "sample";
    public static final String REVIEW = "review";
    public static final String CLASSIFY = "classify";
    public static final String BATCH_FIX = BatchFixStep.NAME;
    public static final String DECIDE = "decide";
    public static final String CANARIES = "canaries";
    public static final String CONTINUE = LoopDecider.CONTINUE;

    private final JobRepository repo;
    private final PlatformTransactionManager tm;
    private final RunContext run;
    private final Store store;
    private final LoopStore loop;
    private final Panels panels;
    private final SourceFields source;
    private final Step sample;
    private final JobExecutionDecider decider;
    private final boolean learnedRules;
    private final boolean canaries;
    private final java.util.concurrent.ExecutorService embeddingPool;

    /**
     * @param learnedRules whether the batch fix learns rules from the sample's fixes ({@code false}:
     *     {@code --no-learned-rules}, every systematic pattern goes to narrowing and the matcher)
     * @param canaries whether rounds draw canaries ({@link dev.santabatch.batch.SantaJobConfiguration#CANARIES_PROPERTY})
     */
    public LoopSteps(JobRepository repo, PlatformTransactionManager tm, RunContext run, Store store, Panels panels,
            boolean learnedRules, boolean canaries, EmbeddingPool embeddingPool) {
        this.canaries = canaries;
        this.embeddingPool = embeddingPool.executor();
        this.repo = repo;
        this.tm = tm;
        this.run = run;
        this.store = store;
        this.loop = new LoopStore(store.jdbc());
        this.panels = panels;
        this.source = new SourceFields(run.job(), run.header());
        this.sample = new StepBuilder(SAMPLE, repo)
                .tasklet(StopAwareTasklet.of(new SampleTasklet(store, loop, run)), tm)
                .allowStartIfComplete(true)
                .build();
        this.decider = new LoopDecider(loop, run);
        this.learnedRules = learnedRules;
    }

    public LoopStore loopStore() {
        return loop;
    }

    public Step sampleStep() {
        return sample;
    }

    public Step reviewStep() {
        int concurrency = run.job().run().concurrency();
        BudgetGuard budget = new BudgetGuard(panels.modelCalls(), loop, run.runPk());
        // the pipeline keeps `concurrency` items in process at all times; the step writes the
        // finished ones in chunks of that size, in completion order
        ReviewStep.Causes causes = new ReviewStep.Causes();
        // answers of items in flight are kept as they arrive: a stop drops those items' results
        ReviewStep.ReceivedAnswers received = new ReviewStep.ReceivedAnswers(loop, run, panels);
        panels.listen(received);
        ItemPipeline<ReviewStep.Task, ReviewStep.Done> pipeline = ReviewStep.pipeline(
                new ReviewStep.Reader(store, loop, run, panels, source, run.categoryIndex(), causes),
                new ReviewStep.Processor(panels, source, causes, received), concurrency, budget);
        return new StepBuilder(REVIEW, repo)
                .<ItemPipeline.Attempt<ReviewStep.Task, ReviewStep.Done>, ReviewStep.Done>chunk(Math.max(1, concurrency))
                .transactionManager(tm)
                .reader(pipeline)
                .processor(budget.guard(new ReviewStep.Unwrap()))
                .writer(budget.saving(new ReviewStep.Writer(store, loop, run, pipeline)))
                .listener(budget)
                .listener((StepExecutionListener) pipeline)
                .listener(progress(REVIEW))
                .interruptionPolicy(budget)
                .allowStartIfComplete(true)
                .build();
    }

    /**
     * The canary step: the round's canaries drawn once and reviewed by fresh panels as items are
     * ({@link CanaryStep}), with the review step's budget guard. One canary a chunk: the canaries
     * are reviewed one after another (each by its panel in parallel), so a stop or a reached budget
     * is seen after each canary, not after a chunk of them.
     */
    public Step canaryStep() {
        BudgetGuard budget = new BudgetGuard(panels.modelCalls(), loop, run.runPk());
        dev.santabatch.canary.CanaryStore canaryStore = new dev.santabatch.canary.CanaryStore(store.jdbc());
        CanaryStep.Writer writer = new CanaryStep.Writer(canaryStore, store, loop, source, run.runPk());
        return new StepBuilder(CANARIES, repo)
                .<CanaryStep.Task, CanaryStep.Reviewed>chunk(1)
                .transactionManager(tm)
                .reader(new CanaryStep.Reader(store, loop, canaryStore, run, panels, source, run.categoryIndex(),
                        this.canaries))
                .processor(budget.guard(new CanaryStep.Processor(panels, writer)))
                .writer(budget.saving(writer))
                .listener(budget)
                .interruptionPolicy(budget)
                .allowStartIfComplete(true)
                .build();
    }

    /** Progress lines of a long step, with the round in progress. */
    private StepProgress progress(String step) {
        return new StepProgress(step, () -> loop.lastRound(run.runPk()).map(LoopStore.Round::round).orElse(0));
    }

    public Step classifyStep() {
        return new StepBuilder(CLASSIFY, repo)
                .tasklet(StopAwareTasklet.of(new ClassifyTasklet(loop, run, classifier(), similarity())), tm)
                .allowStartIfComplete(true)
                .build();
    }

    public Step batchFixStep() {
        if (panels.modelCalls().matcher().isPresent()) {
            return modelBatchFixStep(new dev.santabatch.batchfix.LlmMatcher(panels.modelCalls().matcher().get()));
        }
        BatchFixStep.RoundPatterns patterns = new BatchFixStep.RoundPatterns();
        BudgetGuard budget = new BudgetGuard(panels.modelCalls(), loop, run.runPk());
        // with a model reviewer, one item a chunk: a scan's FAIL is written before the next item's panel
        // can end with an exception that rolls its chunk back (an open breaker, a rejected key)
        int chunk = run.job().anyModelReviewer() ? 1 : Math.max(1, run.job().run().concurrency() * 4);
        return new StepBuilder(BATCH_FIX, repo)
                .<BatchFixStep.Task, BatchFixStep.Outcome>chunk(chunk)
                .transactionManager(tm)
                .reader(new BatchFixStep.Reader(store, loop, run, panels, patterns, source, run.categoryIndex()))
                .processor(budget.guard(new BatchFixStep.Processor(panels, patterns, source, similarity(), store, loop, run.runPk())))
                .writer(budget.saving(new BatchFixStep.Writer(store, loop, run)))
                .listener(budget)
                .listener(progress(BATCH_FIX))
                .interruptionPolicy(budget)
                .allowStartIfComplete(true)
                .build();
    }

    /** Batch fix for a model panel: narrowed candidates, one model matcher call per candidate and pattern. */
    private Step modelBatchFixStep(dev.santabatch.batchfix.LlmMatcher matcher) {
        int inFlight = Math.max(1, run.job().run().concurrency() * run.job().reviewers().size());
        SimpleAsyncTaskExecutor executor = new SimpleAsyncTaskExecutor("santa-match-");
        executor.setConcurrencyLimit(inFlight);
        ModelBatchFix.State state = new ModelBatchFix.State();
        SpendStore spend = new SpendStore(store.jdbc());
        BudgetGuard budget = new BudgetGuard(panels.modelCalls(), loop, run.runPk());
        javax.sql.DataSource dataSource = java.util.Objects.requireNonNull(store.jdbc().getDataSource());
        return new StepBuilder(BATCH_FIX, repo)
                .<ModelBatchFix.Task, ModelBatchFix.Outcome>chunk(inFlight)
                .transactionManager(tm)
                // the learned rules' panel reviews are made while the reader opens
                .reader(budget.opening(new ModelBatchFix.Reader(store, loop, spend, run, state,
                        run.job().matcher().maxCandidateShare(),
                        new PatternNarrowing(new SentenceVectors(dataSource, Embedder::shared, embeddingPool),
                                run.job().matcher().minSimilarity()),
                        new OfflineNarrowingChecks(run.job(), dataSource, embeddingPool), source,
                        learnedRules ? new LearnedRules(store, loop, new LearnedRuleStore(store.jdbc()), run, panels, source)
                                : null)))
                .processor(budget.guard(new ModelBatchFix.Processor(panels, matcher, state, source)))
                .writer(budget.saving(new ModelBatchFix.Writer(store, loop, spend, run)))
                .taskExecutor(executor)
                .listener(budget)
                .listener(progress(BATCH_FIX))
                .interruptionPolicy(budget)
                .allowStartIfComplete(true)
                .build();
    }

    public Step decideStep() {
        return new StepBuilder(DECIDE, repo)
                .tasklet(StopAwareTasklet.of(new DecideTasklet(store, loop, run, canaries)), tm)
                .allowStartIfComplete(true)
                .build();
    }

    public JobExecutionDecider decider() {
        return decider;
    }

    private FailureClassifier classifier() {
        return panels.classifier();
    }

    /** The batch-fix matcher compares an item's issues with pattern labels by problem, not by evidence. */
    private IssueSimilarity similarity() {
        return panels.patternSimilarity();
    }
}
