package dev.santabatch.export;

import dev.santabatch.persistence.Cause;
import dev.santabatch.ingest.CatalogCsvWriter;
import dev.santabatch.execution.RunContext;
import dev.santabatch.execution.StopSignal;
import dev.santabatch.model.SpendStore;
import dev.santabatch.rounds.Decision;
import dev.santabatch.rounds.LoopStore;
import dev.santabatch.rounds.ShippingInvariant;
import dev.santabatch.persistence.FieldsCodec;
import dev.santabatch.persistence.Store;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.batch.core.ExitStatus;
import org.springframework.batch.core.job.JobInstance;
import org.springframework.batch.core.repository.JobRepository;
import org.springframework.batch.core.scope.context.ChunkContext;
import org.springframework.batch.core.step.StepContribution;
import org.springframework.batch.core.step.StepExecution;
import org.springframework.batch.core.step.tasklet.Tasklet;
import org.springframework.batch.infrastructure.repeat.RepeatStatus;

/**
 * Writes the run's outputs from the store, each item where {@link ShippingInvariant} places it:
 * {@code catalog.csv} when the run ends {@code clean} or {@code fully-reviewed}, else {@code
 * verified.csv} (the input's header, column order and row order; latest revisions), {@code
 * unverified.csv} (the same columns and a reason column), {@code changes.csv}, {@code
 * escalations.csv}, {@code rejects.csv}, {@code audit.csv}, {@code report.json} and {@code report.html}
 * (rendered from the same map, {@link HtmlReport}). The files are written into a fresh folder beside the run's, which then replaces it ({@link OutputFolder}): a
 * stopped or failed export never leaves a half file nor a mix of two exports, and an export after a
 * resume replaces the earlier one whole. When the last round ended not clean the step's exit status
 * is {@link #NOT_CLEAN}: the job then stops, restartable.
 */
public final class ExportTasklet implements Tasklet {

    public static final String NOT_CLEAN = "NOT_CLEAN";

    private static final Logger log = LoggerFactory.getLogger(ExportTasklet.class);

    private final Store store;
    private final LoopStore loop;
    private final RunContext run;
    private final JobRepository jobs;

    private final java.util.function.BooleanSupplier stopRequested;
    private final int every;

    public ExportTasklet(Store store, LoopStore loop, RunContext run, JobRepository jobs) {
        this(store, loop, run, jobs, StopSignal::requested, PAGE);
    }

    /** @param every rows written between two looks at {@code stopRequested} in a streaming pass */
    public ExportTasklet(Store store, LoopStore loop, RunContext run, JobRepository jobs,
            java.util.function.BooleanSupplier stopRequested, int every) {
        this.store = store;
        this.loop = loop;
        this.run = run;
        this.jobs = jobs;
        this.stopRequested = stopRequested;
        this.every = every;
    }

    /** Rows of a streaming pass between two looks at the stop flag. */
    static final int PAGE = 2000;

    /**
     * A requested stop (SIGTERM, Ctrl-C) seen between two passes or every {@link #every} rows of one:
     * the export ends within a page of it ({@link dev.santabatch.execution.PreparationStoppedException}:
     * the step ends STOPPED, restartable); the files written so far are in the unpublished folder
     * only, so the earlier outputs stay as they were.
     */
    private void checkStop(String what, long rows) {
        checkStop(what, rows, "written");
    }

    /** @param done what the pass did with its rows, for the stop's message: {@code written}, {@code read} */
    private void checkStop(String what, long rows, String done) {
        if (stopRequested.getAsBoolean()) {
            throw new dev.santabatch.execution.PreparationStoppedException("export: " + what + ", " + rows + " rows " + done);
        }
    }

    /** Counts one row of the streaming pass {@code what} ({@code seen}), looking at the stop every {@link #every} rows. */
    private void row(String what, String done, long[] seen) {
        if (++seen[0] % every == 0) {
            checkStop(what, seen[0], done);
        }
    }

    @Override
    public RepeatStatus execute(StepContribution contribution, ChunkContext chunkContext) throws Exception {
        String decision = export(contribution.getStepExecution().getJobExecution().getJobInstance(), null);
        if (Decision.endsNotClean(decision)) {
            contribution.setExitStatus(new ExitStatus(NOT_CLEAN, Decision.UNREACHABLE_PATTERN.equals(decision)
                    ? "every failure of the last sample is of a pattern the batch fix cannot reach"
                    : Decision.PANEL_DOES_NOT_FIT.equals(decision)
                            ? "the panel does not fit the catalog (report.json panel_fit); a new run with another panel"
                            : "no clean sample within santa.max-rounds"));
        }
        return RepeatStatus.FINISHED;
    }

    /**
     * Writes every output from the store, also outside the job (after a budget stop).
     *
     * @param statusOverride the report's status when it is not the last round's decision's
     *     ({@link RunReport#BUDGET_STOPPED}), else {@code null}
     * @return the last round's decision
     */
    public String export(JobInstance instance, @Nullable String statusOverride) throws IOException {
        String decision = loop.lastRound(run.runPk()).map(LoopStore.Round::decision).orElse(null);
        String status = statusOverride != null ? statusOverride : RunReport.status(decision);
        checkStop("before the first pass", 0);
        Path dir = OutputFolder.begin(run.outDir());
        List<String> header = run.header();
        int contentIndex = run.column(run.job().input().contentColumn());
        int idIndex = run.column(run.job().input().idColumn());
        long[] shipped = {0};
        long[] unverified = {0};
        long[] held = {0};
        List<Unresolved> unresolved = new ArrayList<>();
        GroundTruthEscapes truth = run.groundTruth() == null ? null : new GroundTruthEscapes(run.groundTruth());
        if (truth != null) {
            long[] read = {0};
            // what the rules pre-pass left of each item: planted defects it fixed are not the reviewers'
            store.forEachRevision(run.runPk(), Cause.RULES, (id, content) -> {
                row("ground truth", "read", read);
                truth.afterPrePass(id, content);
            });
            // a carried item has no rules revision of its own (its text came from the earlier run):
            // what the rules make of its input is what the pre-pass would have left of it
            dev.santabatch.prepass.rules.RuleEngine rules = dev.santabatch.prepass.rules.RuleEngine.forJob(run.job());
            dev.santabatch.config.SourceFields source = new dev.santabatch.config.SourceFields(run.job(), header);
            new dev.santabatch.carry.CarryStore(store.jdbc()).forEachCarried(run.runPk(), (id, fields) -> {
                row("ground truth", "read", read);
                if (!truth.planted(id)) {
                    return; // the rules cost half a millisecond an item: only where it counts
                }
                List<String> values = FieldsCodec.decode(fields);
                dev.santabatch.prepass.rules.RuleOutcome o = rules.apply(source.content(values), source.of(values));
                if (o.changed()) {
                    truth.afterPrePass(id, o.text());
                }
            });
        }
        ShippingInvariant invariant = new ShippingInvariant(loop, run.runPk(), status);
        String shippedFile = ShippingInvariant.shippedFile(status);
        AuditFile.Reservoir audit = new AuditFile.Reservoir(run.job().santa().auditSize(), run.seed());
        List<String> unverifiedHeader = new ArrayList<>(header);
        unverifiedHeader.add(unverifiedReasonColumn(header));
        try (CatalogCsvWriter out = CatalogCsvWriter.create(dir.resolve(shippedFile), header);
                CatalogCsvWriter rest = CatalogCsvWriter.create(dir.resolve(UNVERIFIED), unverifiedHeader)) {
            long[] seen = {0};
            store.forEachItem(run.runPk(), item -> {
                row("items", "written", seen);
                List<String> values = FieldsCodec.decode(item.fields());
                String original = values.get(contentIndex);
                ShippingInvariant.Placement placement = invariant.place(item);
                if (item.content() != null) {
                    values = new ArrayList<>(values);
                    values.set(contentIndex, item.content());
                }
                try {
                    switch (placement.place()) {
                        case HELD -> {
                            held[0]++;
                            if (placement.failed() != null) {
                                unresolved.add(new Unresolved(placement.failed(), original, values.get(contentIndex)));
                            }
                            if (truth != null) {
                                truth.offer(values.get(idIndex), original, null);
                            }
                        }
                        case UNVERIFIED -> {
                            List<String> row = new ArrayList<>(values);
                            row.add(placement.why());
                            rest.writeRow(row);
                            unverified[0]++;
                            if (truth != null) {
                                truth.offer(values.get(idIndex), original, null);
                            }
                        }
                        case SHIPPED -> {
                            out.writeRow(values);
                            shipped[0]++;
                            audit.offer(new AuditFile.ShippedItem(item.id(), values.get(contentIndex)));
                            if (truth != null) {
                                truth.offer(values.get(idIndex), original, values.get(contentIndex));
                            }
                        }
                    }
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
            out.commit();
            rest.commit();
        }
        checkStop("items", shipped[0] + unverified[0] + held[0]);
        long rejects = 0;
        try (CatalogCsvWriter out = CatalogCsvWriter.create(
                dir.resolve("rejects.csv"), List.of("line", "end_line", "reason", "raw"))) {
            for (Store.RejectRow r : store.rejects(run.runPk())) {
                out.writeRow(List.of(String.valueOf(r.line()), String.valueOf(r.endLine()), r.reason(), r.raw()));
                rejects++;
            }
            out.commit();
        }
        checkStop("rejects", rejects);
        long changes = writeChanges(dir, contentIndex);
        checkStop("changes", changes);
        Report.Escalations escalations = writeEscalations(dir, contentIndex, unresolved);
        AuditFile.write(dir.resolve("audit.csv"), audit.sample());
        checkStop("escalations and audit", 0);

        SpendStore spendStore = new SpendStore(store.jdbc());
        boolean modelMatcher = run.job().batchFixByModelMatcher();
        dev.santabatch.model.SpendSnapshot snapshot = spendStore.counted(run.runPk());
        SpendReport.ModelCalls spend = SpendReport.render(snapshot, spendStore.matchStats(run.runPk()));
        int modelReviewers = (int) run.job().reviewers().stream().filter(r -> "llm".equals(r.type())).count();
        // tonight's patterns against the job's earlier runs': the report's block and history's counts
        double similarity = run.job().santa().patternSimilarity();
        dev.santabatch.history.PatternMemory.Memory patternMemory = dev.santabatch.history.PatternMemory.of(store.jdbc(),
                run.job().name(), run.runPk(), new dev.santabatch.patterns.EmbeddingIssueSimilarity(similarity)::same);
        dev.santabatch.canary.CanaryStore canaries = new dev.santabatch.canary.CanaryStore(store.jdbc());
        RunReport.Additions additions = new RunReport.Additions(
                dev.santabatch.carry.CarryReport.of(store.jdbc(), run.runPk(), run.job().carryOver()),
                new dev.santabatch.plan.PlanStore(store).report(run.runPk(), snapshot), patternMemory,
                String.format(java.util.Locale.ROOT, "criterion, and label equal (case and spacing aside) or similar:"
                        + " cosine >= %.2f (santa.pattern-similarity)", similarity),
                SpendReport.panel(run.job(), run.sameModelReviewers()),
                dev.santabatch.canary.PanelFitCheck.estimates(canaries, run.runPk(), run.job()),
                dev.santabatch.canary.PanelFitCheck.judge(loop, canaries, run.runPk(), run.job()),
                run.job().santaCriteria().stream().map(dev.santabatch.config.Criterion::id).toList(),
                run.job().rubric().stream().filter(c -> !c.reviewedBySanta()).map(dev.santabatch.config.Criterion::id).toList(),
                RunReport.BUDGET_STOPPED.equals(status) ? budgetStop(spendStore) : null, escalations);
        dev.santabatch.export.Report report = RunReport.build(store, loop,
                new RunReport.Context(run.job().name(), run.runId(), run.runPk(), run.job().reviewers().size(),
                        run.job().santa().lowAgreementKappa(), run.warnings(), truth == null ? null : truth.result(),
                        spend, modelMatcher ? 0 : batchFixChecks(instance), snapshot, modelReviewers,
                        run.job().reviewers().stream().filter(r -> !"llm".equals(r.type()))
                                .map(dev.santabatch.config.ReviewerSpec::id).toList(),
                        !"llm".equals(run.job().fixer().type())),
                status, new dev.santabatch.export.Report.Outputs(shippedFile, shipped[0], unverified[0], held[0],
                        unresolved.size()), rejects,
                additions).withAudit(RunReport.storedAudit(store, run.runPk(),
                        audit.sample().stream().map(AuditFile.ShippedItem::id).toList()), run.outDir());
        RunReport.write(dir.resolve("report.json"), report);
        HtmlReport.write(dir.resolve("report.html"), report,
                RunTrend.withCurrent(RunTrend.earlier(store, run.job().name(), run.runId()), report));
        OutputFolder.publish(dir, run.outDir());
        // the figures 'history' lists, recorded with the export's end (one transaction in the job)
        new dev.santabatch.history.RunSummaryStore(store.jdbc()).save(run.runPk(),
                report.historyFigures(patternMemory.counts()));
        // a later run of the job may carry outcomes over from this one
        store.markExported(run.runPk(), status);
        log.info("export: {} items in {}, {} unverified, {} held ({} with an unresolved FAIL), {} rejects, {} changes;"
                        + " status {}", shipped[0], run.outDir().resolve(shippedFile), unverified[0], held[0],
                unresolved.size(), rejects, changes, status);
        return decision;
    }

    /** The file of what a run does not ship, with why; in every exported run. */
    static final String UNVERIFIED = "unverified.csv";

    /** The name of {@code unverified.csv}'s reason column: {@code unverified_reason}, unless the input has one. */
    static String unverifiedReasonColumn(List<String> header) {
        String name = "unverified_reason";
        while (header.contains(name)) {
            name = name + "_";
        }
        return name;
    }

    /** An item held at export for a FAIL on its current revision that the run ended before resolving. */
    private record Unresolved(LoopStore.FailedReview fail, String original, String current) {}

    /** Why the run stopped, and what it left undone: the round's sampled items not reviewed, the items still eligible. */
    private Report.BudgetStop budgetStop(SpendStore spendStore) {
        var round = loop.currentRound(run.runPk());
        List<LoopStore.SampleOutcome> sample = round.map(r -> loop.sample(run.runPk(), r.round())).orElse(null);
        return new Report.BudgetStop(spendStore.budgetStop(run.runPk()).orElse("budget reached"),
                round.map(LoopStore.Round::round).orElse(null), sample == null ? null : sample.size(),
                sample == null ? null : sample.stream()
                        .filter(o -> o.outcome() == null || "UNREVIEWED".equals(o.outcome())).count(),
                store.countEligible(run.runPk()), "raise the budget in " + run.job().file() + ", then: santa-batch run "
                        + run.job().file() + " --run-id " + run.runId() + " (spend so far is counted)");
    }

    /** Items the batch-fix steps of this run scanned, over every execution (restarts included). */
    private long batchFixChecks(JobInstance instance) {
        return jobs.getJobExecutions(instance).stream()
                .flatMap(e -> e.getStepExecutions().stream())
                .filter(s -> s.getStepName().equals(dev.santabatch.batchfix.BatchFixStep.NAME))
                .mapToLong(StepExecution::getReadCount)
                .sum();
    }

    /** {@code changes.csv}: one row per revision, with the text before and after; text kept exact. */
    private long writeChanges(Path dir, int contentIndex) throws IOException {
        long[] n = {0};
        try (CatalogCsvWriter out = CatalogCsvWriter.create(
                dir.resolve("changes.csv"), List.of("item_id", "round", "cause", "pattern", "before", "after"))) {
            store.forEachChange(run.runPk(), c -> {
                if ((n[0] + 1) % every == 0) {
                    checkStop("changes", n[0]);
                }
                String before = c.previous() != null ? c.previous() : FieldsCodec.decode(c.fields()).get(contentIndex);
                try {
                    out.writeRow(c.itemId(), String.valueOf(c.round()), c.cause(), c.pattern() == null ? "" : c.pattern(),
                            before, c.after());
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
                n[0]++;
            });
            out.commit();
        }
        return n[0];
    }

    /**
     * The last revision that passed the rules: the current one; the original unless the pre-pass
     * held the item (then no version passed them and the cell is empty).
     */
    private static String lastPassing(Store.Escalation e, String original) {
        if (e.current() != null) {
            return e.current();
        }
        return Cause.RULES.value().equals(e.cause()) ? "" : original;
    }

    /**
     * {@code escalations.csv}: items held for a person, with the original text, the last revision
     * that passed the rules, the last attempted fix and the open issues. Neutralised for
     * spreadsheets (a cell starting with =, +, -, @, tab or CR gets a leading quote). The items
     * held at export with an unresolved FAIL ({@link ShippingInvariant#FAIL_UNRESOLVED}: cause
     * {@code santa-fix}, the FAIL's round, the failing reviewers' critical issues) follow the stored ones.
     *
     * @return report.json's {@code escalations}: the count and the first {@link HtmlReport#MAX_ESCALATIONS}
     *     rows without their texts (item, round, cause, reason, pattern, open issues)
     */
    private Report.Escalations writeEscalations(Path dir, int contentIndex, List<Unresolved> unresolved) throws IOException {
        long[] total = {0};
        List<Report.Escalation> first = new ArrayList<>();
        java.util.function.Consumer<Report.Escalation> excerpt = row -> {
            if (total[0]++ < HtmlReport.MAX_ESCALATIONS) {
                first.add(row);
            }
        };
        try (CatalogCsvWriter out = CatalogCsvWriter.neutralising(
                dir.resolve("escalations.csv"),
                List.of("item_id", "round", "cause", "reason", "pattern", "original", "last_passing", "last_attempt",
                        "open_issues"))) {
            store.forEachEscalation(run.runPk(), e -> {
                String original = FieldsCodec.decode(e.fields()).get(contentIndex);
                try {
                    out.writeRow(e.itemId(), String.valueOf(e.round()), e.cause(), e.reason() == null ? "" : e.reason(),
                            e.pattern() == null ? "" : e.pattern(),
                            original, lastPassing(e, original),
                            e.lastAttempt() == null ? "" : e.lastAttempt(), e.issues());
                } catch (IOException ex) {
                    throw new UncheckedIOException(ex);
                }
                excerpt.accept(new Report.Escalation(e.itemId(), e.round(), e.cause(), e.reason(), e.pattern(),
                        e.issues().isEmpty() ? List.of() : List.of(e.issues().split("\n"))));
            });
            for (Unresolved u : unresolved) {
                out.writeRow(u.fail().itemId(), String.valueOf(u.fail().round()), Cause.SANTA_FIX.value(),
                        ShippingInvariant.FAIL_UNRESOLVED, "", u.original(), u.current(), "", String.join("\n", u.fail().issues()));
                excerpt.accept(new Report.Escalation(u.fail().itemId(), u.fail().round(), Cause.SANTA_FIX.value(),
                        ShippingInvariant.FAIL_UNRESOLVED, null, List.copyOf(u.fail().issues())));
            }
            out.commit();
        }
        return new Report.Escalations(total[0], first.size(), first, "the first " + HtmlReport.MAX_ESCALATIONS
                + " rows of escalations.csv without their texts; every row, with its texts, is in escalations.csv");
    }
}
