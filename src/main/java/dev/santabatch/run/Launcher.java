package dev.santabatch.run;

import dev.santabatch.export.OutputFolder;
import dev.santabatch.batch.SantaJobConfiguration;
import dev.santabatch.export.ExportTasklet;
import dev.santabatch.SantaBatchApplication;
import dev.santabatch.ingest.CatalogException;
import dev.santabatch.ingest.CatalogReader;
import dev.santabatch.execution.Fingerprints;
import dev.santabatch.execution.RunContext;
import dev.santabatch.execution.StopSignal;
import dev.santabatch.config.JobDefinition;
import dev.santabatch.config.JobFileException;
import dev.santabatch.config.JobFileLoader;
import dev.santabatch.review.step.Panels;
import dev.santabatch.batch.RunComponents;
import dev.santabatch.export.AuditFile;
import dev.santabatch.export.AuditFileException;
import dev.santabatch.export.RunReport;
import dev.santabatch.rounds.Decision;
import dev.santabatch.rounds.LoopStore;
import dev.santabatch.persistence.FieldsCodec;
import dev.santabatch.persistence.Store;
import io.micrometer.observation.ObservationRegistry;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.batch.core.BatchStatus;
import org.springframework.batch.core.configuration.annotation.BatchObservabilityBeanPostProcessor;
import org.springframework.batch.core.job.Job;
import org.springframework.batch.core.job.JobExecution;
import org.springframework.batch.core.job.parameters.JobParameters;
import org.springframework.batch.core.job.parameters.JobParametersBuilder;
import org.springframework.batch.core.launch.JobInstanceAlreadyCompleteException;
import org.springframework.batch.core.launch.JobOperator;
import org.springframework.batch.core.repository.JobRepository;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.core.env.MapPropertySource;

/**
 * Runs, restarts and lists jobs. Owns the run's lifecycle around Spring Batch: the run row and its
 * lock (a heartbeat, so a run killed with {@code kill -9} is told from a live one), recovery of a
 * dead execution through {@link JobOperator#recover}, the stop signal, and the exit status.
 */
public final class Launcher {

    private static final Logger log = LoggerFactory.getLogger(Launcher.class);

    /** A lock whose heartbeat is older than this is dead even if a process with its pid exists. */
    static final Duration STALE_AFTER = Duration.ofSeconds(30);

    static final Duration HEARTBEAT_EVERY = Duration.ofSeconds(2);

    private Launcher() {}

    /**
     * Runs (or resumes) a job. Reviewer types and the fixer may be supplied as beans of the
     * application context (docs/architecture.md); by default they are the job file's.
     */
    public static int run(RunRequest request, Map<String, Object> props, PrintStream out, PrintStream err) {
        JobDefinition job;
        List<String> warnings;
        Function<String, @Nullable String> env = environment(props);
        try {
            JobFileLoader.Result loaded = JobFileLoader.loadWithWarnings(request.jobFile(), env);
            job = loaded.definition();
            warnings = loaded.warnings();
            warnings.forEach(w -> err.println("santa-batch: warning: " + w));
        } catch (JobFileException e) {
            err.println("santa-batch: invalid job file: " + e.getMessage());
            return ExitCodes.USAGE;
        }
        Map<String, List<String>> missing = RunComponents.missingApiKeys(job, env);
        if (!missing.isEmpty()) {
            // every missing variable at once, before a run is created; names only, never values
            List<String> each = new ArrayList<>();
            missing.forEach((var, roles) -> each.add(var + " (" + String.join(", ", roles) + ")"));
            err.println("santa-batch: API key environment variable" + (missing.size() == 1 ? "" : "s") + " not set: "
                    + String.join("; ", each) + ". Set each to its endpoint's key (for a local server that needs none,"
                    + " any value such as 'none'), or change the role's model.api-key-env in " + job.file());
            return ExitCodes.USAGE;
        }
        try (ConfigurableApplicationContext base = baseContext(props)) {
            return launch(base, job, warnings, request, out, err, env);
        } catch (StoreLockedException e) {
            return storeLocked(e, err);
        }
    }

    public static int restart(long executionId, Map<String, Object> props, PrintStream out, PrintStream err) {
        RunRequest request;
        try (ConfigurableApplicationContext base = baseContext(props)) {
            JobRepository repo = base.getBean(JobRepository.class);
            JobExecution execution;
            try {
                execution = repo.getJobExecution(executionId);
            } catch (org.springframework.dao.EmptyResultDataAccessException e) {
                execution = null;
            }
            if (execution == null) {
                err.println("santa-batch: no execution with id " + executionId + " (see 'santa-batch status')");
                return ExitCodes.USAGE;
            }
            JobParameters p = execution.getJobParameters();
            String jobFile = p.getString(RunParameters.JOB_FILE);
            String runId = p.getString(RunParameters.RUN_ID);
            if (jobFile == null || runId == null) {
                err.println("santa-batch: execution " + executionId + " was not started by santa-batch run");
                return ExitCodes.USAGE;
            }
            String input = p.getString(RunParameters.INPUT);
            String outDir = p.getString(RunParameters.OUT);
            request = new RunRequest(
                    Path.of(jobFile),
                    input == null ? null : Path.of(input),
                    outDir == null ? Path.of("out") : Path.of(outDir),
                    runId,
                    p.getLong(RunParameters.SEED));
            out.println("restart: execution " + executionId + " of job '" + execution.getJobInstance().getJobName()
                    + "', run id '" + runId + "' (" + execution.getStatus() + ")");
        } catch (StoreLockedException e) {
            return storeLocked(e, err);
        }
        return run(request, props, out, err);
    }

    public static int status(int limit, Map<String, Object> props, PrintStream out, PrintStream err) {
        try (ConfigurableApplicationContext base = baseContext(props)) {
            Store store = base.getBean(Store.class);
            // SQL: JobRepository lists executions per job instance, not the latest N of every job
            List<Map<String, Object>> rows = store.jdbc()
                    .queryForList(
                            "SELECT e.JOB_EXECUTION_ID, i.JOB_NAME, p.PARAMETER_VALUE AS RUN_ID, e.STATUS, e.START_TIME,"
                                    + " e.END_TIME FROM BATCH_JOB_EXECUTION e"
                                    + " JOIN BATCH_JOB_INSTANCE i ON i.JOB_INSTANCE_ID = e.JOB_INSTANCE_ID"
                                    + " LEFT JOIN BATCH_JOB_EXECUTION_PARAMS p ON p.JOB_EXECUTION_ID = e.JOB_EXECUTION_ID"
                                    + " AND p.PARAMETER_NAME = ? ORDER BY e.JOB_EXECUTION_ID DESC",
                            RunParameters.RUN_ID)
                    .stream()
                    .limit(limit)
                    .toList();
            List<String> statuses = rows.stream().map(r -> shownStatus(store, r)).toList();
            int width = Math.max(10, statuses.stream().mapToInt(String::length).max().orElse(0));
            String format = "%-6s %-28s %-28s %-" + width + "s %-19s %-19s%n";
            out.printf(format, "ID", "JOB", "RUN ID", "STATUS", "START", "END");
            for (int i = 0; i < rows.size(); i++) {
                Map<String, Object> r = rows.get(i);
                out.printf(
                        format,
                        r.get("JOB_EXECUTION_ID"),
                        r.get("JOB_NAME"),
                        r.get("RUN_ID"),
                        statuses.get(i),
                        time(r.get("START_TIME")),
                        time(r.get("END_TIME")));
            }
            if (rows.isEmpty()) {
                out.println("(no executions yet)");
            }
            return ExitCodes.OK;
        } catch (StoreLockedException e) {
            return storeLocked(e, err);
        }
    }

    /**
     * {@code history}: the job's runs on this store, one line each, oldest first, with the trend
     * (or the same as JSON). Reads the store only: works while a run of the job is live.
     */
    public static int history(Path jobFile, int limit, boolean json, Map<String, Object> props, PrintStream out,
            PrintStream err) {
        JobDefinition job = readOnlyJob(jobFile, props, err);
        if (job == null) {
            return ExitCodes.USAGE;
        }
        try (ConfigurableApplicationContext base = baseContext(props)) {
            dev.santabatch.history.History.Listing listing = dev.santabatch.history.History.read(
                    base.getBean(Store.class).jdbc(), job.name(), limit, RunParameters.RUN_ID, Launcher::isAlive);
            if (json) {
                out.println(dev.santabatch.history.History.json(listing));
            } else {
                dev.santabatch.history.History.text(listing).forEach(out::println);
            }
            return ExitCodes.OK;
        } catch (StoreLockedException e) {
            return storeLocked(e, err);
        }
    }

    /** The job file for a command that only reads; {@code null} after its error was printed (exit 2). */
    private static @Nullable JobDefinition readOnlyJob(Path jobFile, Map<String, Object> props, PrintStream err) {
        try {
            return JobFileLoader.loadWithWarnings(jobFile, environment(props)).definition();
        } catch (JobFileException e) {
            err.println("santa-batch: invalid job file: " + e.getMessage());
            return null;
        }
    }

    /**
     * {@code plan}: what a run of the job started now on {@code input} (else the job file's) would do
     * and spend, without a model call and without writing to the store (docs/plan.md). Reads the
     * store only: works while a run of the job is live.
     *
     * @param targetBound the bound whose clean sample size is stated; {@code null}: the job's
     *     {@code carry-over.target-bound}
     */
    public static int plan(Path jobFile, @Nullable Path input, @Nullable Double targetBound, boolean json,
            Map<String, Object> props, PrintStream out, PrintStream err) {
        JobDefinition job = readOnlyJob(jobFile, props, err);
        if (job == null) {
            return ExitCodes.USAGE;
        }
        Path catalog = absolute(input != null ? input : job.input().path());
        if (checkedHeader(job, catalog, err) == null) {
            return ExitCodes.USAGE;
        }
        try (ConfigurableApplicationContext base = baseContext(props)) {
            Store store = base.getBean(Store.class);
            dev.santabatch.plan.Census census = dev.santabatch.plan.CatalogCensus.count(job, catalog, store,
                    environment(props));
            dev.santabatch.plan.Plan plan = dev.santabatch.plan.Plan.of(job, catalog.toString(), census,
                    dev.santabatch.plan.PlanHistory.read(store.jdbc(), job.name(), Long.MAX_VALUE),
                    new dev.santabatch.plan.Plan.Options(
                            base.getEnvironment().getProperty(SantaJobConfiguration.CANARIES_PROPERTY, Boolean.class, true),
                            targetBound != null ? targetBound : job.carryOver().targetBound()));
            if (json) {
                out.println(plan.json());
            } else {
                plan.text().forEach(out::println);
            }
            return ExitCodes.OK;
        } catch (StoreLockedException e) {
            return storeLocked(e, err);
        } catch (CatalogException | IOException e) {
            err.println("santa-batch: invalid input: " + e.getMessage());
            return ExitCodes.USAGE;
        }
    }

    /**
     * Takes a filled-in {@code audit.csv} back: stores the verdicts with the run, computes the escape
     * rate (defective among audited, with a 95 % Clopper-Pearson interval) and writes it into the
     * run's {@code report.json}. The file may also hold rows of the run's {@code escalations.csv} with
     * a verdict: a person's decision on a held item, stored alike, which the job's next run carries
     * over (docs/carry-over.md); they do not count in the escape rate.
     */
    public static int audit(Path runDir, Path filled, Map<String, Object> props, PrintStream out, PrintStream err) {
        Path reportFile = runDir.resolve("report.json");
        Path sampleFile = runDir.resolve("audit.csv");
        if (!Files.isRegularFile(reportFile) || !Files.isRegularFile(sampleFile)) {
            err.println("santa-batch: " + runDir + " is not a run's output folder (no report.json and audit.csv)");
            return ExitCodes.USAGE;
        }
        if (!Files.isRegularFile(filled)) {
            err.println("santa-batch: " + filled + " does not exist or is not a file");
            return ExitCodes.USAGE;
        }
        try {
            List<String> ids = itemIds(sampleFile);
            // a person's decisions on held items: rows of escalations.csv with a verdict
            List<String> held = Files.isRegularFile(runDir.resolve("escalations.csv"))
                    ? itemIds(runDir.resolve("escalations.csv")) : List.of();
            List<String> known = new ArrayList<>(ids);
            known.addAll(held);
            AuditFile.AuditResult result = AuditFile.read(filled, known);
            if (!(RunReport.load(reportFile) instanceof dev.santabatch.export.Report report)) {
                err.println("santa-batch: " + reportFile + " is a failed run's report: it shipped nothing to audit");
                return ExitCodes.USAGE;
            }
            dev.santabatch.export.Report.Audit audit;
            List<dev.santabatch.export.RunTrend.Point> earlier;
            String job = report.job();
            String runId = report.runId();
            try (ConfigurableApplicationContext base = baseContext(props)) {
                Store store = base.getBean(Store.class);
                Store.RunRow row = store.findRun(job, runId).orElse(null);
                if (row == null) {
                    err.println("santa-batch: run '" + runId + "' of job '" + job + "' is not in this store");
                    return ExitCodes.USAGE;
                }
                store.saveAudit(row.runPk(), result.items().stream()
                        .map(i -> new Store.AuditRow(i.itemId(), i.verdict().name().toLowerCase(java.util.Locale.ROOT), i.note()))
                        .toList());
                // from every stored verdict of the audit.csv's items (an earlier hand-back included),
                // as the export computes it
                audit = RunReport.storedAudit(store, row.runPk(), ids);
                earlier = dev.santabatch.export.RunTrend.earlier(store, job, runId);
                new dev.santabatch.history.RunSummaryStore(store.jdbc()).saveAudit(row.runPk(),
                        audit == null ? 0 : audit.audited(), audit == null ? null : audit.escapeRate());
            }
            if (audit == null) {
                audit = new dev.santabatch.export.Report.Audit(0, 0, null, null, null,
                        (long) new java.util.HashSet<>(ids).size());
            }
            // the escape rate and the seed target's escape-rate row, as the export writes them
            report = report.withAudit(audit, runDir);
            RunReport.write(reportFile, report);
            dev.santabatch.export.HtmlReport.write(runDir.resolve("report.html"), report,
                    dev.santabatch.export.RunTrend.withCurrent(earlier, report));
            long audited = audit.audited();
            List<Double> ci = audit.interval95();
            out.printf("audit: %d audited, %d defective: escape rate %s%s%s; written to %s%n", audited, audit.defective(),
                    audited == 0 ? "n/a" : String.format("%.1f %%", audit.escapeRate() * 100),
                    ci == null ? "" : String.format(" (95 %% CI %.1f-%.1f %%)", ci.get(0) * 100, ci.get(1) * 100),
                    report.escapeTarget().map(t -> "; target 0: " + t.status()).orElse(""),
                    reportFile);
            java.util.Set<String> heldIds = new java.util.HashSet<>(held);
            List<AuditFile.AuditedItem> decided = result.items().stream().filter(i -> heldIds.contains(i.itemId())).toList();
            if (!decided.isEmpty()) {
                long ok = decided.stream().filter(i -> i.verdict() == AuditFile.Verdict.OK).count();
                out.printf("held items decided: %d ok (the job's next run ships them with their last_passing text),"
                        + " %d defective (held still)%n", ok, decided.size() - ok);
            }
            return ExitCodes.OK;
        } catch (StoreLockedException e) {
            return storeLocked(e, err);
        } catch (AuditFileException e) {
            err.println("santa-batch: " + e.getMessage());
            return ExitCodes.USAGE;
        } catch (IOException e) {
            err.println("santa-batch: cannot read the audit: " + e.getMessage());
            return ExitCodes.USAGE;
        }
    }

    /** The {@code item_id} column of one of a run's output files, as written (neutralised) and read back. */
    private static List<String> itemIds(Path csv) throws IOException {
        List<String> ids = new ArrayList<>();
        try (var parser = org.apache.commons.csv.CSVFormat.RFC4180.builder().setHeader().setSkipHeaderRecord(true).get()
                .parse(Files.newBufferedReader(csv, java.nio.charset.StandardCharsets.UTF_8))) {
            parser.forEach(r -> ids.add(unneutralise(r.get("item_id"))));
        }
        return ids;
    }

    private static String unneutralise(String cell) {
        return cell.startsWith("'") && cell.length() > 1 && "=+-@\t\r".indexOf(cell.charAt(1)) >= 0 ? cell.substring(1) : cell;
    }

    /**
     * An execution's status as {@code status} shows it: the stored one, except for an execution
     * stored as running (STARTING, STARTED, STOPPING) whose run has no live lock holder (the holder
     * process is gone, or its heartbeat is older than {@link #STALE_AFTER}): a process killed with
     * {@code kill -9} or by the OOM killer, until a rerun recovers it. That one is shown as
     * {@code DEAD (last heartbeat <time>)}, {@code DEAD (no heartbeat)} when none was recorded.
     */
    static String shownStatus(Store store, Map<String, Object> row) {
        String status = String.valueOf(row.get("STATUS"));
        boolean running = status.equals("STARTING") || status.equals("STARTED") || status.equals("STOPPING");
        if (!running || row.get("RUN_ID") == null) {
            return status;
        }
        Optional<Store.RunRow> run = store.findRun(String.valueOf(row.get("JOB_NAME")), String.valueOf(row.get("RUN_ID")));
        if (run.isEmpty()) {
            return status;
        }
        Store.RunRow r = run.get();
        if (r.lockOwner() != null && isAlive(r.lockOwner(), r.heartbeatAt())) {
            return status;
        }
        return r.heartbeatAt() == null ? "DEAD (no heartbeat)"
                : "DEAD (last heartbeat " + time(java.sql.Timestamp.from(r.heartbeatAt())) + ")";
    }

    private static String time(@Nullable Object t) {
        if (t == null) {
            return "-";
        }
        String s = t.toString();
        return s.length() > 19 ? s.substring(0, 19) : s;
    }

    static ConfigurableApplicationContext baseContext(Map<String, Object> props) {
        if (System.getProperty("h2.bindAddress") == null) {
            // H2's AUTO_SERVER would otherwise listen on every interface
            System.setProperty("h2.bindAddress", "127.0.0.1");
        }
        Map<String, Object> overrides = new HashMap<>(props);
        java.util.concurrent.atomic.AtomicReference<@Nullable String> url = new java.util.concurrent.atomic.AtomicReference<>();
        ConfigurableApplicationContext context;
        try {
            context = new SpringApplicationBuilder(SantaBatchApplication.class)
                    .web(WebApplicationType.NONE)
                    .initializers(ctx -> {
                        // highest precedence: the caller's properties win over application.properties
                        ctx.getEnvironment().getPropertySources().addFirst(new MapPropertySource("santa-batch-overrides", overrides));
                        url.set(ctx.getEnvironment().getProperty("spring.datasource.url"));
                        // after Spring Boot has set logback up (it resets its context), before the
                        // store is opened: a locked store's start-up failure is filtered out
                        ConfigurationErrorLogFilter.install();
                    })
                    .logStartupInfo(false)
                    .registerShutdownHook(false)
                    .run();
        } catch (RuntimeException e) {
            if (StoreLockedException.locked(e)) {
                throw new StoreLockedException(url.get(), e);
            }
            throw e;
        }
        return context;
    }

    /** A store locked by another process: one line, exit 2 (nothing was run). */
    private static int storeLocked(StoreLockedException e, PrintStream err) {
        err.println("santa-batch: ERROR: " + e.getMessage());
        return ExitCodes.USAGE;
    }

    /**
     * The input catalog's header, after the checks a run makes before it starts: the file is there and
     * readable, its header reads, and it has every column a rule reads. {@code null} when a check
     * fails, the error printed to {@code err} (exit 2: nothing run).
     */
    private static @Nullable List<String> checkedHeader(JobDefinition job, Path input, PrintStream err) {
        if (!Files.isRegularFile(input) || !Files.isReadable(input)) {
            err.println("santa-batch: input catalog " + input + " does not exist or is not a readable file");
            return null;
        }
        List<String> header;
        try (CatalogReader reader = CatalogReader.open(input, job.input(), null)) {
            header = reader.header();
        } catch (CatalogException | IOException e) {
            err.println("santa-batch: invalid input: " + e.getMessage());
            return null;
        }
        for (Map.Entry<String, String> c : job.ruleColumns().entrySet()) {
            if (!header.contains(c.getKey())) {
                // a rule reading a column the catalog lacks would silently check nothing
                err.println("santa-batch: invalid input: " + input + ": column '" + c.getKey() + "', read by rule '"
                        + c.getValue() + "' of " + job.file() + ", is not in the header; header is " + header);
                return null;
            }
        }
        return header;
    }

    private static int launch(ConfigurableApplicationContext base, JobDefinition job, List<String> warnings,
            RunRequest request, PrintStream out, PrintStream err, Function<String, @Nullable String> env) {
        Store store = base.getBean(Store.class);
        JobRepository repo = base.getBean(JobRepository.class);
        JobOperator operator = base.getBean(JobOperator.class);

        String runId = request.runId() != null ? request.runId() : newRunId();
        Path input = absolute(request.input() != null ? request.input() : job.input().path());
        Path outDir = absolute(request.out()).resolve(job.name()).resolve(runId);
        long seed = request.seed() != null
                ? request.seed()
                : job.sampling().seed() != null ? job.sampling().seed() : new SecureRandom().nextLong();

        Optional<Store.RunRow> existing = store.findRun(job.name(), runId);
        if (existing.isPresent()) {
            Store.RunRow row = existing.get();
            if (request.input() != null && !row.inputPath().equals(input.toString())) {
                err.println("santa-batch: run '" + runId + "' was started with input " + row.inputPath()
                        + "; restart it without --input, or use a new --run-id");
                return ExitCodes.USAGE;
            }
            input = Path.of(row.inputPath());
            outDir = Path.of(row.outDir());
            seed = row.seed();
        }
        List<String> header = checkedHeader(job, input, err);
        if (header == null) {
            return ExitCodes.USAGE;
        }

        Store.RunRow row = store.createRunIfAbsent(new Store.RunRow(
                0, job.name(), runId, absolute(job.file()).toString(), input.toString(), outDir.toString(), seed,
                Instant.now(), null, null));
        String me = owner();
        if (!acquire(store, row, me, err)) {
            return ExitCodes.USAGE;
        }
        if (!acquireJob(store, row, me, err)) {
            if (existing.isEmpty()) {
                // a new run refused before any work leaves nothing: no run for status, history or carry-over
                store.deleteRun(row.runPk(), me);
            } else {
                store.releaseLock(row.runPk(), me);
            }
            return ExitCodes.USAGE;
        }
        try {
            String catalogHash = Fingerprints.file(input);
            String rubricHash = Fingerprints.rubric(job, env);
            Optional<Store.Fingerprint> started = store.fingerprint(row.runPk());
            if (started.isEmpty()) {
                // what carry-over compares, and the earlier runs it may carry from, fixed as the run starts
                store.saveFingerprint(row.runPk(), catalogHash, rubricHash, Fingerprints.verification(job, env),
                        dev.santabatch.review.llm.PromptTemplates.digest(),
                        new dev.santabatch.carry.CarryStore(store.jdbc()).exportedRuns(job.name(), row.runPk(),
                                job.carryOver().window()));
            } else if (!started.get().catalog().equals(catalogHash) || !started.get().rubric().equals(rubricHash)) {
                String what = !started.get().catalog().equals(catalogHash) ? "the catalog " + input : "the rubric in " + job.file();
                err.println("santa-batch: " + what + " changed since run '" + runId + "' started; a restart would mix"
                        + " results of two versions. Restore it, or start a new run (a new --run-id).");
                releaseLocks(store, row, me);
                return ExitCodes.USAGE;
            }
        } catch (IOException e) {
            releaseLocks(store, row, me);
            err.println("santa-batch: cannot read " + input + ": " + e.getMessage());
            return ExitCodes.USAGE;
        }
        ScheduledExecutorService heartbeat = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "santa-heartbeat");
            t.setDaemon(true);
            return t;
        });
        try {
            heartbeat.scheduleAtFixedRate(
                    heartbeat(store, row.runPk(), me),
                    HEARTBEAT_EVERY.toMillis(),
                    HEARTBEAT_EVERY.toMillis(),
                    TimeUnit.MILLISECONDS);
            store.saveHeaderIfAbsent(row.runPk(), FieldsCodec.encode(header));

            JobParameters params = new JobParametersBuilder()
                    .addString(RunParameters.RUN_ID, runId, true)
                    .addString(RunParameters.JOB_FILE, absolute(job.file()).toString(), false)
                    .addString(RunParameters.INPUT, input.toString(), false)
                    .addString(RunParameters.OUT, absolute(request.out()).toString(), false)
                    .addLong(RunParameters.SEED, seed, false)
                    .toJobParameters();
            JobExecution last = repo.getLastJobExecution(job.name(), identifying(runId));
            if (last != null) {
                BatchStatus s = last.getStatus();
                if (s == BatchStatus.COMPLETED) {
                    err.println("santa-batch: run '" + runId + "' of job '" + job.name() + "' already COMPLETED"
                            + " (execution " + last.getId() + "); its outputs are in " + outDir
                            + ". Use a new --run-id (or none) to run again.");
                    return ExitCodes.USAGE;
                }
                if (s.isRunning()) {
                    log.warn("execution {} of run '{}' was left {} by a process that is gone: recovering it", last.getId(), runId, s);
                    operator.recover(last);
                    s = BatchStatus.FAILED;
                }
                if (s == BatchStatus.ABANDONED) {
                    err.println("santa-batch: run '" + runId + "' was abandoned; use a new --run-id");
                    return ExitCodes.USAGE;
                }
                out.println("resuming run '" + runId + "' of job '" + job.name() + "': execution " + last.getId()
                        + " ended " + s + "; restarting where it stopped");
                // what it exported may change: no later run carries from it until it exports again
                store.clearExported(row.runPk());
            } else {
                out.println("starting run '" + runId + "' of job '" + job.name() + "' on " + input);
            }

            List<String> runWarnings = new ArrayList<>(warnings);
            if (job.input().groundTruth() != null
                    && !new RunContext(job, runId, row.runPk(), input, outDir, seed, header, warnings).readsJobInput()) {
                String w = "input.ground-truth " + job.input().groundTruth() + " describes input.path, not " + input
                        + ": no escape rates against a ground truth for this run";
                err.println("santa-batch: warning: " + w);
                runWarnings.add(w);
            }
            RunContext context = new RunContext(job, runId, row.runPk(), input, outDir, seed, header, List.copyOf(runWarnings),
                    job.sameModelReviewers(env));
            StopSignal.install();
            LastResort.install();
            try (Panels panels = RunComponents.panels(job, base, env, row.runPk());
                    AnnotationConfigApplicationContext child = new AnnotationConfigApplicationContext()) {
                child.setParent(base);
                child.registerBean(RunContext.class, () -> context);
                child.registerBean(Panels.class, () -> panels);
                // the run's job and steps record their observations (job and step timers) in the run's metrics
                RunMetrics metrics = new RunMetrics();
                child.registerBean(ObservationRegistry.class, metrics::observations);
                child.registerBean(BatchObservabilityBeanPostProcessor.class);
                child.register(SantaJobConfiguration.class);
                child.refresh();
                Job santaJob = child.getBean("santaJob", Job.class);
                JobExecution execution;
                try {
                    execution = operator.start(santaJob, params);
                } catch (Error e) {
                    return pushed(metrics, base.getEnvironment(), context, lastResort(store, context, null, e, out, err, metrics), err);
                } catch (RuntimeException e) {
                    if (ConfigurationErrorLogFilter.configurationError(e)) {
                        throw e;
                    }
                    // the job ran and its end could not be recorded (the store's connection died)
                    return pushed(metrics, base.getEnvironment(), context, lastResort(store, context, null, e, out, err, metrics), err);
                }
                int exit;
                try {
                    exit = finish(store, repo, context, execution, out, err, metrics);
                } catch (RuntimeException | Error e) {
                    exit = lastResort(store, context, execution, e, out, err, metrics);
                }
                return pushed(metrics, base.getEnvironment(), context, exit, err);
            }
        } catch (JobInstanceAlreadyCompleteException e) {
            err.println("santa-batch: run '" + runId + "' already completed. Use a new --run-id.");
            return ExitCodes.USAGE;
        } catch (Exception e) {
            if (ConfigurationErrorLogFilter.configurationError(e)) {
                // a configuration error, not a crash: one line, no trace
                err.println("santa-batch: run '" + runId + "' could not be started: " + failureLine(e));
                return ExitCodes.USAGE;
            }
            err.println("santa-batch: run '" + runId + "' could not be started: " + e);
            log.error("launch failed", e);
            return ExitCodes.FAILED;
        } finally {
            // never interrupt a thread that may be inside H2: an interrupted file channel closes the
            // database for the whole process
            heartbeat.shutdown();
            try {
                heartbeat.awaitTermination(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            try {
                releaseLocks(store, row, me);
            } catch (RuntimeException e) {
                log.warn("could not release the lock of run '{}' ({}); it expires with its heartbeat", runId, e.getMessage());
            }
        }
    }

    /**
     * What escaped the job or the recording of its end (an {@link Error} anywhere, a
     * RuntimeException from the store while the end is recorded, e.g. its connection died): its
     * cause is logged first (one ERROR line, then the trace), then written to {@code report.json} as
     * a failed run's, with the store's counts if the store still answers and without them if it does
     * not; exit 1, restartable (a rerun recovers the execution). A COMPLETED execution's outputs and
     * report, written by its export inside the job, are kept.
     *
     * @param execution the execution, when the job returned one; {@code null} when it did not
     */
    static int lastResort(Store store, RunContext run, @Nullable JobExecution execution, Throwable e, PrintStream out,
            PrintStream err, RunMetrics metrics) {
        String cause = failureLine(e);
        try {
            log.error("run '{}' of job '{}' ended by an unexpected error: {}", run.runId(), run.job().name(), cause, e);
        } catch (Throwable logging) {
            err.println("santa-batch: run '" + run.runId() + "' ended by an unexpected error: " + cause);
        }
        if (execution != null && execution.getStatus() == BatchStatus.COMPLETED) {
            err.println("santa-batch: run '" + run.runId() + "' completed (its outputs are complete, in " + run.outDir()
                    + "), then failed while its end was recorded: " + cause);
            return ExitCodes.FAILED;
        }
        String restart = "santa-batch run " + run.job().file() + " --run-id " + run.runId();
        List<String> failures = new ArrayList<>();
        if (execution != null) {
            execution.getAllFailureExceptions().forEach(t -> failures.add(failureLine(t)));
        }
        failures.add(cause);
        long executionId = execution == null ? -1 : execution.getId();
        String status = execution == null ? "FAILED" : execution.getStatus().name();
        String why = "an unexpected error ended the run";
        dev.santabatch.export.FailedReport report;
        try {
            report = dev.santabatch.export.FailedRunReport.build(store, new LoopStore(store.jdbc()), run.job().name(),
                    run.runId(), run.runPk(), executionId, status, why, failures, restart);
        } catch (Throwable storeFailed) {
            // the store does not answer (the hypothesis for a run that ends with no trace): what needs no store
            report = dev.santabatch.export.FailedRunReport.withoutStore(run.job().name(), run.runId(), executionId, status,
                    why, failures, restart, failureLine(storeFailed));
        }
        try {
            metrics.record(report, ExitCodes.FAILED);
        } catch (Throwable t) {
            log.warn("could not record the run's metrics: {}", t.toString());
        }
        try {
            writeFailedReport(run.outDir(), report, earlierRuns(store, run));
            out.println("  report:   " + run.outDir().resolve("report.json") + " (and report.html)");
        } catch (Throwable t) {
            err.println("santa-batch: could not write " + run.outDir().resolve("report.json") + ": " + t);
        }
        err.println("santa-batch: run '" + run.runId() + "' failed: " + cause + "; restart: " + restart);
        return ExitCodes.FAILED;
    }

    /**
     * Writes a failed run's {@code report.json} as an export is written: into a fresh folder that then
     * takes the place of {@code outDir}, so the outputs of an earlier export go at once with their
     * report (a reader sees either them or the failed report, never a mix), and a write that fails
     * leaves the earlier export as it was.
     */
    static void writeFailedReport(Path outDir, dev.santabatch.export.FailedReport report, List<dev.santabatch.export.RunTrend.Point> earlier)
            throws IOException {
        Path partial = OutputFolder.begin(outDir);
        dev.santabatch.export.FailedRunReport.write(partial, report, earlier);
        OutputFolder.publish(partial, outDir);
    }

    /** The job's earlier runs for the page's trend; none when the store does not answer. */
    static List<dev.santabatch.export.RunTrend.Point> earlierRuns(Store store, RunContext run) {
        try {
            return dev.santabatch.export.RunTrend.earlier(store, run.job().name(), run.runId());
        } catch (RuntimeException e) {
            return List.of();
        }
    }

    /**
     * The heartbeat task: anything it throws is logged and the next beat runs (a scheduled task that
     * throws is cancelled silently, and the run would look dead, its lock free to take, while alive).
     */
    static Runnable heartbeat(Store store, long runPk, String owner) {
        return () -> {
            try {
                store.heartbeat(runPk, owner);
            } catch (RuntimeException e) {
                log.warn("heartbeat failed: {}", e.getMessage());
            } catch (Throwable e) {
                try {
                    log.error("heartbeat failed: {}", failureLine(e), e);
                } catch (Throwable logging) {
                    System.err.println("santa-batch: heartbeat failed: " + e);
                }
            }
        };
    }

    /**
     * The run's end for a scheduler: its metrics pushed to the Pushgateway when one is configured
     * (a run whose figures could not be read is pushed with its exit and status only).
     *
     * @return {@code exit}
     */
    private static int pushed(RunMetrics metrics, org.springframework.core.env.Environment env, RunContext run, int exit,
            PrintStream err) {
        try {
            if (!metrics.recorded()) {
                // what is known without a report: job, run and status
                metrics.record(new dev.santabatch.export.FailedReport(exit == ExitCodes.OK ? "unknown" : RunReport.FAILED,
                        run.job().name(), run.runId(), null, List.of(), null, null, null, null, null, null), exit);
            }
            metrics.push(env, run.job().name(), err);
        } catch (RuntimeException e) {
            log.warn("could not push the run's metrics: {}", e.toString());
        }
        return exit;
    }

    private static int finish(Store store, JobRepository repo, RunContext run, JobExecution execution, PrintStream out,
            PrintStream err, RunMetrics metrics) {
        BatchStatus status = execution.getStatus();
        if (status != BatchStatus.STOPPED) {
            // the answers kept for a killed execution's resume have served: a failed execution's (say,
            // invalid answers past the failed-review threshold) must be asked afresh by the restart
            new dev.santabatch.model.SpendStore(store.jdbc()).forgetAnswers(run.runPk());
        }
        LoopStore loop = new LoopStore(store.jdbc());
        String decision = loop.lastRound(run.runPk()).map(LoopStore.Round::decision).orElse(null);
        boolean notClean = status == BatchStatus.STOPPED && !StopSignal.requested() && Decision.endsNotClean(decision);
        // a reached budget stops the job at a chunk boundary; what was done is exported here
        Optional<String> budgetStop = status == BatchStatus.STOPPED && !StopSignal.requested()
                ? new dev.santabatch.model.SpendStore(store.jdbc()).budgetStop(run.runPk()) : Optional.empty();
        boolean budget = budgetStop.isPresent() && !notClean;
        boolean budgetExported = false;
        String exportFailure = null;
        if (budget) {
            try {
                new ExportTasklet(store, loop, run, repo).export(execution.getJobInstance(), RunReport.BUDGET_STOPPED);
                budgetExported = true;
            } catch (IOException | RuntimeException e) {
                exportFailure = "the export after the budget stop failed: " + failureLine(e);
                err.println("santa-batch: " + exportFailure);
                log.error("export after budget stop failed", e);
            }
        }
        int exit = switch (status) {
            case COMPLETED -> ExitCodes.OK;
            default -> notClean || budget ? ExitCodes.NOT_CLEAN : ExitCodes.FAILED;
        };
        out.println();
        out.println("santa-batch: job '" + run.job().name() + "', run '" + run.runId() + "', execution "
                + execution.getId() + ": " + status + (notClean ? " (not clean)" : budget ? " (budget reached)" : "")
                + " (exit " + exit + ")");
        Path reportFile = run.outDir().resolve("report.json");
        boolean exported = status == BatchStatus.COMPLETED || notClean || budgetExported;
        if (exported && Files.exists(reportFile)) {
            try {
                dev.santabatch.export.Report report = (dev.santabatch.export.Report) RunReport.load(reportFile);
                for (String line : RunReport.summary(report)) {
                    out.println("  " + line);
                }
                dev.santabatch.export.SummaryEvent.log(log, report, exit);
                metrics.record(report, exit);
            } catch (IOException | RuntimeException e) {
                err.println("santa-batch: could not read " + reportFile + ": " + e.getMessage());
            }
            out.println("  outputs:  " + run.outDir());
            out.println("            " + (notClean || budget ? "verified.csv" : "catalog.csv")
                    + ", unverified.csv, changes.csv, escalations.csv, rejects.csv, audit.csv, report.json, report.html");
            if (notClean) {
                out.println("  resume:   " + (Decision.UNREACHABLE_PATTERN.equals(decision)
                        ? "give the unreachable patterns what would reach them (above: a larger matcher.max-candidate-share, a rule)"
                        : "raise santa.max-rounds") + " in " + run.job().file() + ", then: santa-batch run "
                        + run.job().file() + " --run-id " + run.runId());
            }
            if (budget) {
                out.println("  resume:   raise the budget in " + run.job().file() + ", then: santa-batch run "
                        + run.job().file() + " --run-id " + run.runId() + "   (spend so far is counted)");
            }
        } else {
            // failed, or stopped by a signal: report.json says "failed", and nothing looks shippable
            List<String> failures = new ArrayList<>();
            if (exportFailure != null) {
                failures.add(exportFailure);
            }
            for (Throwable t : execution.getAllFailureExceptions()) {
                failures.add(failureLine(t));
                if (ConfigurationErrorLogFilter.configurationError(t)) {
                    // Spring Batch's own trace of it is filtered out: one line says it all
                    log.error("step failed on a configuration error: {}", failureLine(t));
                } else if (ConfigurationErrorLogFilter.expectedFailure(t)) {
                    log.error("step failed: {}", failureLine(t));
                } else if (status == BatchStatus.FAILED) {
                    // the cause in one line (Spring Batch's own line names the step, its trace the cause)
                    log.error("run '{}' of job '{}', execution {} failed: {}", run.runId(), run.job().name(), execution.getId(),
                            failureLine(t));
                }
            }
            String restart = "santa-batch run " + run.job().file() + " --run-id " + run.runId()
                    + "   (or: santa-batch restart " + execution.getId() + ")";
            try {
                dev.santabatch.export.FailedReport report = dev.santabatch.export.FailedRunReport.build(store, loop, run.job().name(),
                        run.runId(), run.runPk(), execution.getId(), status.name(),
                        status == BatchStatus.FAILED ? "a step failed"
                                // a budget stop whose export failed: the budget stopped it, not a signal
                                : budget ? "budget reached (" + budgetStop.get() + "); raise the budget to resume"
                                : "stopped by a signal (SIGTERM or Ctrl-C)",
                        failures, restart);
                dev.santabatch.export.FailedRunReport.summary(report).forEach(line -> out.println("  " + line));
                dev.santabatch.export.SummaryEvent.log(log, report, exit);
                metrics.record(report, exit);
                writeFailedReport(run.outDir(), report, earlierRuns(store, run));
                out.println("  report:   " + reportFile + " (and report.html)");
            } catch (IOException | RuntimeException e) {
                out.println("  status:   " + RunReport.FAILED.toUpperCase(java.util.Locale.ROOT));
                failures.forEach(f -> out.println("  failure:  " + f));
                err.println("santa-batch: could not write " + reportFile + ": " + e.getMessage());
            }
            out.println("  restart:  " + restart);
        }
        return exit;
    }

    /**
     * One failure for people: an expected failure in the cause chain (e.g. a model's 401: which
     * model, which endpoint, which environment variable to check; an endpoint whose circuit breaker
     * opened) says what to do, so its message wins; otherwise the root cause's message, with its type.
     */
    static String failureLine(Throwable t) {
        Throwable root = t;
        java.util.Set<Throwable> seen = new java.util.HashSet<>();
        for (Throwable c = t; c != null && seen.add(c); c = c.getCause()) {
            if (c instanceof dev.santabatch.review.ExpectedFailureException) {
                return c.getMessage();
            }
            root = c;
        }
        return root == t ? t.toString() : root.getMessage() + "  (" + root.getClass().getSimpleName() + ")";
    }

    /**
     * Takes the run's lock. A holder that is alive with a fresh heartbeat makes this a concurrent
     * run: refused. A holder that is gone (its pid is dead on this host, or its heartbeat is stale)
     * is replaced.
     */
    private static boolean acquire(Store store, Store.RunRow row, String me, PrintStream err) {
        for (int attempt = 0; attempt < 3; attempt++) {
            if (store.takeLock(row.runPk(), null, me)) {
                return true;
            }
            Store.RunRow current = store.findRun(row.jobName(), row.runId()).orElseThrow();
            String holder = current.lockOwner();
            if (holder == null) {
                continue;
            }
            if (isAlive(holder, current.heartbeatAt())) {
                err.println("santa-batch: run '" + row.runId() + "' of job '" + row.jobName()
                        + "' is live in another process (" + holder + ", heartbeat "
                        + (current.heartbeatAt() == null ? "never" : Duration.between(current.heartbeatAt(), Instant.now()).toSeconds() + " s ago")
                        + "); refusing a second concurrent run");
                return false;
            }
            if (store.takeLock(row.runPk(), holder, me)) {
                log.warn("run '{}' was held by {}, which is gone (killed?): taking it over", row.runId(), holder);
                return true;
            }
        }
        err.println("santa-batch: could not lock run '" + row.runId() + "'; another process is starting it");
        return false;
    }

    /**
     * Takes the job's lock for the run (its run lock held): one live run per job on a store, since a
     * run carries outcomes over from the job's earlier runs. A holder that is live (its run's lock
     * is held by it with a fresh heartbeat) refuses this run in one line naming that run; a holder
     * that is gone is replaced.
     */
    private static boolean acquireJob(Store store, Store.RunRow row, String me, PrintStream err) {
        for (int attempt = 0; attempt < 3; attempt++) {
            if (store.takeJobLock(row.jobName(), row.runPk(), null, me)) {
                return true;
            }
            Store.JobLock lock = store.jobLock(row.jobName()).orElse(null);
            if (lock == null || lock.owner() == null) {
                continue;
            }
            Store.RunRow holder = store.findRun(lock.runPk()).orElse(null);
            if (holder != null && lock.owner().equals(holder.lockOwner()) && isAlive(lock.owner(), holder.heartbeatAt())) {
                err.println("santa-batch: job '" + row.jobName() + "' has a live run, '" + holder.runId() + "' ("
                        + lock.owner() + ", heartbeat " + (holder.heartbeatAt() == null ? "never"
                                : Duration.between(holder.heartbeatAt(), Instant.now()).toSeconds() + " s ago")
                        + "); refusing a second concurrent run of the job (run '" + row.runId() + "'): wait for it to end");
                return false;
            }
            if (store.takeJobLock(row.jobName(), row.runPk(), lock.owner(), me)) {
                if (lock.runPk() != row.runPk()) {
                    log.warn("job '{}' was held by run {} of {}, which is gone (killed?): taking it over", row.jobName(),
                            holder == null ? lock.runPk() : "'" + holder.runId() + "'", lock.owner());
                }
                return true;
            }
        }
        err.println("santa-batch: could not lock job '" + row.jobName() + "'; another run of it is starting");
        return false;
    }

    /** Releases the job's lock, then the run's. */
    private static void releaseLocks(Store store, Store.RunRow row, String me) {
        store.releaseJobLock(row.jobName(), me);
        store.releaseLock(row.runPk(), me);
    }

    /** Owner strings are {@code pid@host#nonce}. */
    static boolean isAlive(String owner, @Nullable Instant heartbeat) {
        if (heartbeat == null || heartbeat.isBefore(Instant.now().minus(STALE_AFTER))) {
            return false;
        }
        int at = owner.indexOf('@');
        int hash = owner.indexOf('#');
        if (at > 0 && hash > at && owner.substring(at + 1, hash).equals(hostName())) {
            try {
                long pid = Long.parseLong(owner.substring(0, at));
                return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
            } catch (NumberFormatException e) {
                return true;
            }
        }
        return true;
    }

    private static String owner() {
        return ProcessHandle.current().pid() + "@" + hostName() + "#" + UUID.randomUUID().toString().substring(0, 8);
    }

    private static String hostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            return ManagementFactory.getRuntimeMXBean().getName();
        }
    }

    private static JobParameters identifying(String runId) {
        return new JobParametersBuilder().addString(RunParameters.RUN_ID, runId, true).toJobParameters();
    }



    /**
     * Prefix of the Spring properties that stand in for environment variables: a property
     * {@code santa-batch.env.NAME} given to {@link #run} is read as the environment variable
     * {@code NAME} (a model's API key). For tests and embedding; the command line uses the real
     * environment.
     */
    public static final String ENV_PROPERTY_PREFIX = "santa-batch.env.";

    /** The environment as the models see it: the caller's stand-ins first, then the process's environment. */
    static Function<String, @Nullable String> environment(Map<String, Object> props) {
        return name -> {
            Object v = props.get(ENV_PROPERTY_PREFIX + name);
            return v != null ? v.toString() : System.getenv(name);
        };
    }

    private static String newRunId() {
        byte[] b = new byte[2];
        new SecureRandom().nextBytes(b);
        return LocalDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"))
                + "-" + HexFormat.of().formatHex(b);
    }

    private static Path absolute(Path p) {
        return p.toAbsolutePath().normalize();
    }
}
