package dev.santabatch.bench;

import dev.santabatch.model.CatalogModelServer;
import dev.santabatch.model.CatalogModelServer.Answer;
import dev.santabatch.model.CatalogModelServer.Call;
import dev.santabatch.model.CatalogModelServer.FaultRates;
import dev.santabatch.model.DefectText;
import dev.santabatch.model.RealisticJudges;
import dev.santabatch.export.RunReport;
import dev.santabatch.eval.PlantedDefect;
import dev.santabatch.eval.SampleCatalogGenerator;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.commons.csv.CSVRecord;

/**
 * The fault-soak benchmark (issue 15): a model-backed job (reviewers B and C on two models, a model
 * fixer, a model matcher, a call budget, short backoffs, a 1 s timeout) over a generated catalog,
 * against a {@link CatalogModelServer} that draws a fault for every call deterministically from
 * (item, revision, role, attempt): 429 with {@code Retry-After} 10 %, 5xx 6 %, an answer held past
 * the timeout 2 %, garbage 4 %, a missing criterion 4 %, a contradiction 4 %. Every run is the real
 * command line in a child JVM.
 *
 * <p>Domains ({@link #DOMAINS}), each with the same faults, job settings and checks:
 * {@code products}, the product generator's {@code FRESH} pool, the job's rubric that of
 * {@code jobs/product-descriptions.yml} (its rules included), the server answering like a model that
 * knows the defects the reviewers judge ({@link CatalogModelServer#reviewerDefects}); and
 * {@code listings}, the listing generator's {@code HELD_OUT} pool (nothing was tuned on it), the
 * name, input, task and rubric of {@code bench/listings-llm.yml} ({@link BenchDomain#jobHead}), the
 * server in judge mode with judges that make no mistakes ({@link RealisticJudges.Settings#exact}):
 * every planted defect is the reviewers' to find.
 *
 * <p>One uninterrupted reference run; then series of runs, each killed with {@code kill -9}
 * ({@link Process#destroyForcibly()}) at seeded random moments (after a drawn number of calls at the
 * server, or a drawn wall time) and resumed with the same {@code --run-id} until it finishes, until
 * the kills are used up (at most 4 per series). The last series runs under a budget that stops it
 * (60 % of the reference's calls), so that the budget is tested where it binds, kills included.
 * Every series has its own server (so the attempt numbers start afresh), store and output folder.
 * Not a test. Prints, per run and in total:
 *
 * <ul>
 *   <li>items lost or doubled: every input id in exactly one of {@code catalog.csv} (or
 *       {@code verified.csv}), {@code unverified.csv}, {@code escalations.csv}, whichever exist;
 *   <li>items shipped ({@code catalog.csv} or {@code verified.csv}) with a FAIL on their current
 *       revision: by the server's record (a fault-free review answer that said FAIL for the exact
 *       shipped text) and by the store (a FAIL on the item's {@code current_rev}: {@link #storeFailedCurrent});
 *       a store it cannot read leaves the store's count unmeasured, never zero;
 *   <li>calls the server received against {@code budget.max-calls}, and against {@code report.json};
 *   <li>per kill: the requests the server held at the kill, the durable spend against the calls
 *       received so far, and the extra calls the kill cost (requests of the resumed execution that
 *       repeat one the server had already answered without a fault), against the calls in flight at
 *       the client once the process was gone ({@link Execution#clientInFlightAtKill}); for each
 *       extra call, whether the ledger had kept its answer ({@link #explainRepeats});
 *   <li>which output files each run wrote, and whether their item sets and bytes equal the
 *       reference's; wall times;
 *   <li>PASS/FAIL against the issue's required figures.
 * </ul>
 *
 * <p>Arguments: {@code [rows] [kills] [seed] [max-calls] [domain...]}, default {@code 1000 20 1},
 * max-calls {@code 0} = 12 x rows, domain {@code products}; each domain is soaked in turn, with
 * its own summary. Run from the project folder (it reads {@code jobs/product-descriptions.yml} for
 * the products' rubric).
 */
public final class FaultSoakBenchmark {

    static final String JOB = "soak";
    static final String RUN_ID = "soak";
    static final String KEY_ENV = "SOAK_BENCH_MODEL_KEY";
    static final int CONCURRENCY = 4;
    /** Two reviewers per item at concurrency 4: 8 review calls at once. */
    static final int MAX_IN_FLIGHT = 8;
    static final List<String> ITEM_FILES = List.of("catalog.csv", "verified.csv", "unverified.csv", "escalations.csv");
    static final List<String> SHIPPED_FILES = List.of("catalog.csv", "verified.csv");
    static final List<String> COMPARED_FILES = List.of("catalog.csv", "verified.csv", "unverified.csv", "escalations.csv",
            "changes.csv", "rejects.csv");
    static final Duration EXECUTION_LIMIT = Duration.ofMinutes(40);
    /** Wall clock and {@link System#nanoTime()} at one moment: a call's arrival on the store's clock. */
    static final long WALL_MILLIS = System.currentTimeMillis();
    static final long NANO_ORIGIN = System.nanoTime();

    /**
     * A domain of the soak: its catalog, the head of its job (name, input, task specification,
     * rubric; {@link #job} adds the rest, the same for every domain) and the scripted model that knows
     * its defects (one fresh server per series; the faults are drawn on top).
     */
    record SoakDomain(BenchDomain catalog, JobHead head, Model model) {}

    @FunctionalInterface
    interface JobHead {
        String write(Catalog catalog) throws IOException;
    }

    @FunctionalInterface
    interface Model {
        CatalogModelServer start(Catalog catalog) throws IOException;
    }

    /** A generated catalog of a domain: its file, truth file and planted defects. */
    record Catalog(SoakDomain domain, long seed, Path csv, Path truth, List<PlantedDefect> defects) {

        String contentColumn() {
            return domain.catalog().contentColumn();
        }
    }

    static final Map<String, SoakDomain> DOMAINS = Map.of(
            "products", new SoakDomain(BenchDomain.products(SampleCatalogGenerator.Vocabulary.FRESH), FaultSoakBenchmark::productHead,
                    c -> CatalogModelServer.start(CatalogModelServer.reviewerDefects(c.truth()))),
            "listings", new SoakDomain(BenchDomain.listings(), c -> c.domain().catalog().jobHead(JOB, c.csv()),
                    c -> CatalogModelServer.start(RealisticJudges.forCatalog(c.csv(), "id", c.defects(),
                            c.domain().catalog().criterionByKind(), RealisticJudges.Settings.exact(c.seed())))));

    /**
     * One execution of a run: killed (exit -9) or ended with its exit code.
     *
     * @param inFlightAtKill requests the server was handling at the kill signal
     * @param receivedAtKill requests the server had received at the kill signal (the process may
     *     send a few more before it is gone)
     * @param clientInFlightAtKill the execution's calls in flight when its process was gone: attempts
     *     it reserved in the call ledger ({@code sb_call_ledger}), less those the server answered
     *     with an error and those whose answer the ledger kept ({@code sb_answer}). An answer the
     *     server wrote out but the client had not yet made durable is in flight: the process died
     *     holding it, so the resumed execution must ask again
     * @param endNanos when the kill signal was sent, or the process ended ({@link System#nanoTime()})
     * @param keptAfter the questions the ledger kept answers to (digest to ordinals) once the process was gone
     */
    record Execution(int no, String trigger, int exit, double wallSeconds, int firstSeq, int lastSeq, int inFlightAtKill,
            int awaitingAtKill, long receivedAtKill, long storedSpendAfter, String stepAtKill, int clientInFlightAtKill,
            long endNanos, Map<String, Set<Integer>> keptAfter) {
        boolean killed() {
            return exit == -9;
        }
    }

    /** One run (a series of executions with one run id) and what it wrote. */
    record Run(String name, Path dir, long maxCalls, List<Execution> executions, List<Call> calls, List<Answer> answers,
            Map<Integer, Long> sentNanos, String baseUrl, double wallSeconds,
            Map<String, List<String>> idsByFile, Map<String, String> shippedText, Map<String, Object> report,
            Optional<Set<String>> storeFailedCurrent, Set<String> shippedWithDefect, java.util.NavigableMap<Long, Integer> roundStarts,
            java.util.NavigableMap<Long, String> stepStarts) {

        /**
         * The unit of work the client kept a call's answer for ({@code "round 2 review"}): the round
         * it was made in and the last model step ({@link #MODEL_STEPS}) the store had started when
         * the server received it ({@code BATCH_STEP_EXECUTION.START_TIME}).
         */
        String unitOf(Call c) {
            var e = stepStarts.floorEntry(wallMillis(c));
            return "round " + roundOf(c) + (e == null ? "" : " " + e.getValue());
        }

        /**
         * The round a call was made in: the last round the store had started ({@code sb_round.created_at})
         * when the server received it; 0 before the first.
         */
        int roundOf(Call c) {
            var e = roundStarts.floorEntry(wallMillis(c));
            return e == null ? 0 : e.getValue();
        }

        static long wallMillis(Call c) {
            return wallMillis(c.arrivalNanos());
        }

        static long wallMillis(long nanos) {
            return WALL_MILLIS + (nanos - NANO_ORIGIN) / 1_000_000;
        }

        /** The round in progress when execution {@code e} ended or was killed. */
        int roundAtEnd(Execution e) {
            var r = roundStarts.floorEntry(wallMillis(e.endNanos()));
            return r == null ? 0 : r.getValue();
        }

        List<Execution> kills() {
            return executions.stream().filter(Execution::killed).toList();
        }

        int finalExit() {
            return executions.get(executions.size() - 1).exit();
        }
    }

    public static void main(String[] args) throws Exception {
        int rows = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
        int kills = args.length > 1 ? Integer.parseInt(args[1]) : 20;
        long seed = args.length > 2 ? Long.parseLong(args[2]) : 1L;
        long maxCallsArg = args.length > 3 ? Long.parseLong(args[3]) : 0L;
        long maxCalls = maxCallsArg > 0 ? maxCallsArg : 12L * rows;
        List<String> names = args.length > 4 ? List.of(args).subList(4, args.length) : List.of("products");
        List<SoakDomain> domains = names.stream().map(n -> DOMAINS.get(n)).toList();
        if (domains.contains(null)) {
            throw new IllegalArgumentException("unknown domain in " + names + " (" + new TreeSet<>(DOMAINS.keySet()) + ")");
        }
        Path dir = Files.createTempDirectory("santa-soak");
        for (SoakDomain domain : domains) {
            soak(domain, rows, kills, seed, maxCalls, dir.resolve(domain.catalog().name()));
        }
    }

    static void soak(SoakDomain domain, int rows, int kills, long seed, long maxCalls, Path dir) throws Exception {
        long started = System.nanoTime();
        KEPT_YET_ASKED.clear();
        notKeptRepeats = 0;
        REPEAT_KINDS.clear();
        REPEATS_SEEN.clear();
        Files.createDirectories(dir);
        Path csv = dir.resolve("catalog-in.csv");
        Path truth = dir.resolve("catalog-in.truth.csv");
        Catalog catalog = new Catalog(domain, seed, csv, truth, domain.catalog().write(seed, rows, csv, truth));
        List<String> inputIds = ids(csv);
        FaultRates rates = new FaultRates(seed, 0.10, 0.06, 0.02, 0.04, 0.04, 0.04, 1, Duration.ofMillis(1500));
        System.out.printf("fault soak, %s: %d rows (%s pool, seed %d), %d kills, max-calls %d, in-flight limit %d, %d cores,"
                        + " folder %s%n", domain.catalog().name(), rows, domain.catalog().pool(), seed, kills, maxCalls, MAX_IN_FLIGHT,
                Runtime.getRuntime().availableProcessors(), dir);
        System.out.printf("faults per call by (item, revision, role, attempt): 429 %.0f %%, 5xx %.0f %%, hang %.0f %%, garbage %.0f %%,"
                        + " missing criterion %.0f %%, contradiction %.0f %%%n", rates.rate429() * 100, rates.rate5xx() * 100,
                rates.hang() * 100, rates.garbage() * 100, rates.missingCriterion() * 100, rates.contradiction() * 100);

        Run reference = run(dir.resolve("reference"), "reference", catalog, rates, maxCalls, 0, null, 0, 0);
        print(reference, null, inputIds, maxCalls);
        if (reference.report().isEmpty() || (reference.finalExit() != 0 && reference.finalExit() != 3)) {
            // a failed reference (a class path without a dependency, a bug) would make every comparison meaningless
            System.out.println("the reference run failed (exit " + reference.finalExit() + (reference.report().isEmpty()
                    ? ", no report.json" : "") + "): see " + reference.dir().resolve("child.log"));
            System.exit(1);
        }

        Random rnd = new Random(seed * 31 + 7);
        int perRun = (int) Math.ceil(kills / Math.ceil(kills / 4.0));
        List<Run> killed = new ArrayList<>();
        int left = kills;
        int series = 0;
        boolean budgetRun = false;
        // the last series runs under a budget that stops it (60 % of the reference's calls), so that
        // "the server never receives more than max-calls" is tested where it binds, kills included
        long tight = Math.max(10, reference.calls().size() * 6L / 10);
        while (left > 0 && series < kills + 5) {
            series++;
            int want = Math.min(perRun, left);
            // (only when there are two series or more: a single series is compared with the reference)
            boolean tightRun = !budgetRun && left <= perRun && kills > perRun;
            budgetRun |= tightRun;
            String name = (tightRun ? "budget-" : "killed-") + series;
            long budget = tightRun ? tight : maxCalls;
            int callScale = (int) Math.min(reference.calls().size(), budget);
            Run r = run(dir.resolve(name), name, catalog, rates, budget, want, rnd, callScale, reference.wallSeconds());
            killed.add(r);
            left -= r.kills().size();
            print(r, reference, inputIds, budget);
        }

        summary(domain, reference, killed, inputIds, maxCalls, kills, (System.nanoTime() - started) / 1e9);
    }

    // ------------------------------------------------------------------ running

    static Run run(Path dir, String name, Catalog catalog, FaultRates rates, long maxCalls, int kills, Random rnd, int refCalls,
            double refWall) throws Exception {
        Files.createDirectories(dir);
        List<Execution> executions = new ArrayList<>();
        long t0 = System.nanoTime();
        Map<String, List<PlantedDefect>> defectsByItem = catalog.defects().stream().collect(Collectors.groupingBy(PlantedDefect::itemId));
        try (CatalogModelServer server = catalog.domain().model().start(catalog).drawFaults(rates)) {
            Path job = dir.resolve(JOB + ".yml");
            Files.writeString(job, job(catalog, server.baseUrl(), maxCalls));
            int killsLeft = kills;
            int failures = 0;
            for (int no = 1; ; no++) {
                String trigger = "none";
                long callTrigger = Long.MAX_VALUE;
                double timeTrigger = Double.MAX_VALUE;
                if (killsLeft > 0) {
                    if (rnd.nextDouble() < 0.25) {
                        timeTrigger = 0.5 + rnd.nextDouble() * Math.max(1.0, 0.8 * refWall);
                        trigger = String.format("after %.1f s", timeTrigger);
                    } else {
                        callTrigger = 1 + rnd.nextInt(Math.max(2, 2 * refCalls / (kills + 1)));
                        trigger = "after " + callTrigger + " calls";
                    }
                }
                int firstSeq = server.received();
                long keptBefore = keptAnswers(dir);
                long roundBefore = count(dir, "SELECT COALESCE(MAX(round_no), 0) FROM sb_round");
                long reservedBefore = reservedCalls(dir, roundBefore);
                long e0 = System.nanoTime();
                Process p = child(dir, job);
                int exit;
                int inFlight = 0;
                int awaiting = 0;
                long received = 0;
                long endNanos = 0;
                while (true) {
                    if (p.waitFor(10, TimeUnit.MILLISECONDS)) {
                        exit = p.exitValue();
                        break;
                    }
                    double elapsed = (System.nanoTime() - e0) / 1e9;
                    boolean hit = server.received() - firstSeq >= callTrigger || elapsed >= timeTrigger;
                    if (hit || elapsed > EXECUTION_LIMIT.toSeconds()) {
                        endNanos = System.nanoTime();
                        inFlight = server.inFlight();
                        awaiting = server.awaitingAnswer();
                        received = server.received();
                        p.destroyForcibly();
                        p.waitFor(60, TimeUnit.SECONDS);
                        exit = hit ? -9 : -1;
                        if (!hit) {
                            trigger = "over the time limit";
                        }
                        break;
                    }
                }
                if (endNanos == 0) {
                    endNanos = System.nanoTime();
                }
                double wall = (System.nanoTime() - e0) / 1e9;
                // the process is gone: let the server's handlers record what it received (a starved handler
                // may be handed a request late), then count
                server.settle(Duration.ofMillis(200), Duration.ofSeconds(20));
                if (exit != -9) {
                    received = server.received();
                }
                long stored = storedSpendCalls(dir);
                String step = exit == -9 ? runningStep(dir) : "";
                int clientInFlight = 0;
                long unsent = 0;
                if (exit == -9) {
                    // counted once the process is gone (it sends until the signal takes effect), in the
                    // round in progress at the kill: the ledger forgets the answers it kept when a round
                    // starts, so an execution that started a round is counted from that round's start
                    long roundAfter = count(dir, "SELECT COALESCE(MAX(round_no), 0) FROM sb_round");
                    boolean sameRound = roundAfter == roundBefore;
                    Long roundStart = sameRound ? null : roundStarts(dir).entrySet().stream()
                            .filter(e -> e.getValue() == roundAfter).map(Map.Entry::getKey).findFirst().orElse(null);
                    Map<Integer, Long> arrival = new HashMap<>();
                    server.calls().forEach(c -> arrival.put(c.seq(), Run.wallMillis(c)));
                    long errors = server.answers().stream()
                            .filter(a -> a.seq() > firstSeq
                                    && (a.status() != 200 || a.fault().toLowerCase(java.util.Locale.ROOT).contains("hang")))
                            .filter(a -> roundStart == null || arrival.getOrDefault(a.seq(), Long.MAX_VALUE) >= roundStart)
                            .count();
                    long reservedAfter = reservedCalls(dir, roundAfter);
                    long keptAfter = keptAnswers(dir);
                    long reserved = reservedAfter - (sameRound ? reservedBefore : 0);
                    long kept = keptAfter - (sameRound ? keptBefore : 0);
                    // -1: a count the store would not give (the kill's bound is then unmeasured, never guessed)
                    clientInFlight = Math.min(Math.min(reservedBefore, reservedAfter), Math.min(Math.min(keptBefore, keptAfter),
                            Math.min(roundBefore, roundAfter))) < 0 || (!sameRound && roundStart == null) ? -1
                            : (int) Math.max(0, reserved - errors - kept);
                    if (clientInFlight > MAX_IN_FLIGHT) {
                        clientInFlight = -1; // more than the governor lets be in flight: a count gone wrong, not a bound
                    }
                    unsent = clientInFlight < 0 ? 0 : Math.max(0, reserved - (server.received() - firstSeq));
                }
                executions.add(new Execution(no, trigger, exit, wall, firstSeq, server.received(), inFlight, awaiting, received, stored,
                        step, clientInFlight, endNanos, keptQuestions(dir)));
                System.out.printf("  %s execution %d: %s, %.1f s, server calls %d..%d%s%n", name, no,
                        exit == -9 ? "killed " + trigger + " in " + step : "exit " + exit, wall, firstSeq + 1, server.received(),
                        exit == -9 ? ", in flight at the kill " + inFlight + " (awaiting " + awaiting + "; at the client "
                                + clientInFlight + (unsent == 0 ? "" : ", " + unsent + " of them reserved and never sent") + "), stored spend "
                                + (stored < 0 ? "n/a" : stored) + " of " + received + " received" : "");
                if (exit == -9) {
                    killsLeft--;
                    continue;
                }
                if (exit == 1 && ++failures < 3) {
                    continue; // failed, restartable: resume it as an operator would
                }
                break;
            }
            double wall = (System.nanoTime() - t0) / 1e9;
            Path out = dir.resolve("out").resolve(JOB).resolve(RUN_ID);
            Map<String, List<String>> idsByFile = new LinkedHashMap<>();
            Map<String, String> shipped = new LinkedHashMap<>();
            Set<String> withDefect = new TreeSet<>();
            for (String f : ITEM_FILES) {
                Path file = out.resolve(f);
                if (Files.exists(file)) {
                    List<CSVRecord> records = BenchDomain.records(file);
                    String idColumn = BenchDomain.idColumn(records);
                    List<String> ids = new ArrayList<>();
                    for (CSVRecord r : records) {
                        ids.add(r.get(idColumn));
                        if (SHIPPED_FILES.contains(f)) {
                            String text = r.get(catalog.contentColumn());
                            shipped.put(r.get(idColumn), text);
                            if (defectsByItem.getOrDefault(r.get(idColumn), List.of()).stream().anyMatch(d -> DefectText.carries(text, d))) {
                                withDefect.add(r.get(idColumn));
                            }
                        }
                    }
                    idsByFile.put(f, ids);
                }
            }
            Map<String, Object> report = Files.exists(out.resolve("report.json")) ? RunReport.read(out.resolve("report.json")) : Map.of();
            Map<Integer, Long> sent = new HashMap<>();
            for (Call c : server.calls()) {
                server.sentNanos(c.seq()).ifPresent(t -> sent.put(c.seq(), t));
            }
            return new Run(name, dir, maxCalls, executions, server.calls(), server.answers(), sent, server.baseUrl(), wall, idsByFile, shipped, report,
                    storeFailedCurrent(dir), withDefect, roundStarts(dir), stepStarts(dir));
        }
    }

    static Process child(Path dir, Path job) throws IOException {
        List<String> cmd = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx768m", "-cp",
                absoluteClassPath(), "-Dspring.datasource.url=" + url(dir),
                "dev.santabatch.SantaBatchApplication", "run", job.toString(), "--out", dir.resolve("out").toString(),
                "--run-id", RUN_ID);
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("child.log").toFile()));
        // a dummy value: the scripted server checks no key
        pb.environment().put(KEY_ENV, "none");
        return pb.start();
    }

    /** The benchmark's class path with every entry absolute (the child runs in its own folder). */
    static String absoluteClassPath() {
        return java.util.Arrays.stream(System.getProperty("java.class.path").split(java.io.File.pathSeparator))
                .filter(e -> !e.isBlank()).map(e -> Path.of(e).toAbsolutePath().toString())
                .collect(Collectors.joining(java.io.File.pathSeparator));
    }

    /**
     * The products' job head: the soak's own input and task specification, the rubric of
     * {@code jobs/product-descriptions.yml} (rules included).
     */
    static String productHead(Catalog c) throws IOException {
        String rubric = Files.readString(Path.of("jobs/product-descriptions.yml"));
        rubric = rubric.substring(rubric.indexOf("\nrubric:\n") + 1, rubric.indexOf("\nsampling:\n") + 1);
        return "name: " + JOB + "\n"
                + "input:\n  path: " + c.csv().toAbsolutePath() + "\n  id-column: id\n  content-column: description\n"
                + "  category-column: category\n"
                + "  source-columns: [name, brand, category, price, warranty_years, battery_hours]\n"
                + "  ground-truth: " + c.truth().toAbsolutePath() + "\n"
                + "task-spec: |\n"
                + "  Write a product description of 2 to 5 sentences for an online shop. Describe only the product\n"
                + "  named in the source facts. Each description must be written for its own product.\n"
                + rubric;
    }

    /** The domain's job head, then the soak's settings, the same for every domain. */
    static String job(Catalog c, String baseUrl, long maxCalls) throws IOException {
        String model = """
                    model:
                      base-url: %s
                      model: %%s
                      api-key-env: %s
                      timeout: 1s
                      price-input-per-million: 1.0
                      price-output-per-million: 2.0
                """.formatted(baseUrl, KEY_ENV);
        return c.domain().head().write(c)
                + "sampling:\n  seed: 7\n"
                // the server judges the catalog's planted defects, not the canaries' (whose texts it never
                // saw): their sensitivity is 0 here, and a fit limit would end every run panel-does-not-fit
                // before a clean sample. The canaries still run (their calls are soaked with the rest); the
                // panel's fit is measured by the canary benchmarks, not this one
                + "santa:\n  min-panel-sensitivity: 0\n"
                + "reviewers:\n  - id: B\n    type: llm\n" + model.formatted("model-b")
                + "  - id: C\n    type: llm\n" + model.formatted("model-c")
                + "fixer:\n  type: llm\n" + model.formatted("model-fix").replace("    ", "  ")
                + "matcher:\n" + model.formatted("model-match").replace("    ", "  ")
                + "run:\n  chunk-size: 100\n  concurrency: " + CONCURRENCY + "\n"
                + "budget:\n  max-calls: " + maxCalls + "\n"
                // short retries (LlmFaultFunctionalTests.FAST_RETRIES): Retry-After is then exact
                + "governor:\n  max-attempts: 4\n  initial-backoff: 20ms\n  max-backoff: 100ms\n  jitter: 0\n"
                + "  max-in-flight-per-endpoint: " + MAX_IN_FLIGHT + "\n";
    }

    // ------------------------------------------------------------------ reading

    static String url(Path dir) {
        return "jdbc:h2:file:" + dir.toAbsolutePath().resolve("db/santa") + ";AUTO_SERVER=TRUE;WRITE_DELAY=0";
    }

    static List<String> ids(Path csv) throws IOException {
        return BenchDomain.records(csv).stream().map(r -> r.get("id")).toList();
    }

    /** Answers the run's call ledger keeps ({@code sb_answer}); 0 before the table exists, -1 when the store cannot be read. */
    static long keptAnswers(Path dir) {
        return count(dir, "SELECT COUNT(*) FROM sb_answer");
    }

    /**
     * A count from the run's store: 0 before the store or the table exists; -1 when it cannot be read
     * (tried 5 times, 0.2 s apart: right after a kill, the dead process's {@code AUTO_SERVER} lock
     * can refuse a connection for a moment). A failed read is never taken for 0.
     */
    static long count(Path dir, String sql) {
        if (!Files.exists(dir.resolve("db/santa.mv.db"))) {
            return 0;
        }
        for (int attempt = 1; ; attempt++) {
            try (Connection c = DriverManager.getConnection(url(dir) + ";IFEXISTS=TRUE", "sa", "");
                    ResultSet rs = c.createStatement().executeQuery(sql)) {
                return rs.next() ? rs.getLong(1) : 0;
            } catch (java.sql.SQLException e) {
                if (e.getErrorCode() == org.h2.api.ErrorCode.TABLE_OR_VIEW_NOT_FOUND_1
                        || e.getErrorCode() == org.h2.api.ErrorCode.TABLE_OR_VIEW_NOT_FOUND_DATABASE_EMPTY_1) {
                    return 0;
                }
                if (attempt == 5) {
                    System.out.println("    (store unreadable: " + e.getMessage().lines().findFirst().orElse("") + ")");
                    return -1;
                }
            }
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return -1;
            }
        }
    }

    /** The questions the run's call ledger keeps answers to ({@code sb_answer}), with their ordinals. */
    static Map<String, Set<Integer>> keptQuestions(Path dir) {
        Map<String, Set<Integer>> out = new HashMap<>();
        if (!Files.exists(dir.resolve("db/santa.mv.db"))) {
            return out;
        }
        try (Connection c = DriverManager.getConnection(url(dir) + ";IFEXISTS=TRUE", "sa", "");
                ResultSet rs = c.createStatement().executeQuery("SELECT question, ordinal FROM sb_answer")) {
            while (rs.next()) {
                out.computeIfAbsent(rs.getString(1), k -> new TreeSet<>()).add(rs.getInt(2));
            }
        } catch (Exception e) {
            // no table yet
        }
        return out;
    }

    /** The model steps of a round; the governor keeps an answer for its round and step ("round 2 review"). */
    static final List<String> MODEL_STEPS = List.of("review", "canaries", "batch-fix");

    /**
     * The ordinals the ledger kept for call {@code c}'s question in the unit of work it was asked in
     * ({@link Run#unitOf}), keyed as {@code CallGovernor} keys them: a digest of the unit and the
     * question's digest.
     */
    static Set<Integer> kept(Execution e, Run r, Call c) {
        return e.keptAfter().getOrDefault(inUnit(r.unitOf(c), digest(r, c)), Set.of());
    }

    /** {@code CallGovernor}'s key of a question within a unit of work: SHA-256 of the unit, a 0 byte and the question's digest. */
    static String inUnit(String unit, String question) {
        try {
            java.security.MessageDigest d = java.security.MessageDigest.getInstance("SHA-256");
            d.update(unit.getBytes(StandardCharsets.UTF_8));
            d.update((byte) 0);
            d.update(question.getBytes(StandardCharsets.UTF_8));
            return java.util.HexFormat.of().formatHex(d.digest());
        } catch (java.security.NoSuchAlgorithmException ex) {
            throw new IllegalStateException(ex);
        }
    }

    /** The digest the client's {@code LlmClient} keeps a call's answer under (role, endpoint, model, format, messages). */
    static String digest(Run r, Call c) {
        String role = switch (c.kind()) {
            case REVIEW -> "reviewer:" + c.model().substring("model-".length()).toUpperCase(java.util.Locale.ROOT);
            case FIX -> "fixer";
            case MATCH -> "matcher";
            case OTHER -> "other";
        };
        String shape = switch (c.kind()) {
            case REVIEW -> "JSON santa_review";
            case MATCH -> "JSON santa_match";
            default -> "text";
        };
        try {
            java.security.MessageDigest d = java.security.MessageDigest.getInstance("SHA-256");
            for (String part : new String[] {role, r.baseUrl(), c.model(), shape, c.system(), c.user()}) {
                d.update(part.getBytes(StandardCharsets.UTF_8));
                d.update((byte) 0);
            }
            return java.util.HexFormat.of().formatHex(d.digest());
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * The client's ordinal of each call (by server seq), as {@code CallGovernor} counts asks of a
     * question in its unit of work: 1 + the 200 answers (not held past the timeout, faults included:
     * an invalid answer is asked again under the next ordinal) to it before the call in its
     * execution (a transport retry asks under the same ordinal), after the answers the ledger handed
     * back to the execution without a call (those kept, from ordinal 1 on, when the execution
     * before it was gone).
     */
    static Map<Integer, Integer> ordinals(Run r) {
        Map<Integer, Answer> bySeq = new HashMap<>();
        r.answers().forEach(a -> bySeq.put(a.seq(), a));
        List<Execution> ex = r.executions();
        List<Call> calls = new ArrayList<>(r.calls());
        calls.sort(java.util.Comparator.comparingInt(Call::seq));
        Map<Integer, Integer> ordinal = new HashMap<>();
        Map<String, Integer> answeredIn = new HashMap<>();
        for (Call c : calls) {
            int j = executionOf(ex, c.seq());
            String key = j + "\n" + question(r, c);
            int handedBack = 0;
            if (j > 0) {
                Set<Integer> before = kept(ex.get(j - 1), r, c);
                while (before.contains(handedBack + 1)) {
                    handedBack++;
                }
            }
            ordinal.put(c.seq(), handedBack + answeredIn.getOrDefault(key, 0) + 1);
            Answer a = bySeq.get(c.seq());
            if (a != null && a.status() == 200 && !a.fault().startsWith("Hang")) {
                answeredIn.merge(key, 1, Integer::sum);
            }
        }
        return ordinal;
    }

    /** Extra calls over every killed run: asked again although the ledger had kept their answer (journal misses), and the others. */
    static final List<String> KEPT_YET_ASKED = new ArrayList<>();
    static long notKeptRepeats;

    /**
     * Explains the extra calls of a killed run, with the same charging as {@link #extraPerKill}: for
     * each repeat of a question answered without a fault in execution i and asked again in execution
     * j, whether the ledger had kept an answer to it (the client's digest of the question, at the
     * ordinal the client gave the first call) once i's process was gone, and when the server had
     * written the first answer out against the kill signal. A repeat whose answer was not kept was in
     * flight at the kill; one whose answer was kept is a miss of the journal, printed with the
     * ordinals and any answer kept for the same item and role under another digest (with the lines
     * that differ). Also checks the benchmark's digest against the client's: every answer of the round
     * in progress written out 0.2 s or more before a kill should be kept under it.
     */
    static void explainRepeats(Run r) {
        Map<Integer, Answer> bySeq = new HashMap<>();
        r.answers().forEach(a -> bySeq.put(a.seq(), a));
        List<Execution> ex = r.executions();
        List<Call> calls = new ArrayList<>(r.calls());
        calls.sort(java.util.Comparator.comparingInt(Call::seq));
        Map<Integer, Integer> ordinal = ordinals(r);
        int keptEarly = 0;
        int writtenEarly = 0;
        for (Call c : calls) {
            int j = executionOf(ex, c.seq());
            Answer a = bySeq.get(c.seq());
            if (a != null && a.status() == 200 && a.fault().isEmpty()) {
                Long sent = r.sentNanos().get(c.seq());
                // (answers of a round the execution finished were forgotten when the next one started)
                if (ex.get(j).killed() && sent != null && sent < ex.get(j).endNanos() - DURABLE_NANOS
                        && r.roundOf(c) == r.roundAtEnd(ex.get(j))) {
                    writtenEarly++;
                    if (kept(ex.get(j), r, c).contains(ordinal.get(c.seq()))) {
                        keptEarly++;
                    }
                }
            }
        }
        Map<String, Integer> lastAnswered = new HashMap<>();
        Map<String, Call> lastAnsweredCall = new HashMap<>();
        Set<String> charged = new HashSet<>();
        int notKept = 0;
        int keptAgain = 0;
        double earliest = Double.NaN;
        double latest = Double.NaN;
        int neverWritten = 0;
        for (Call c : calls) {
            int j = executionOf(ex, c.seq());
            String key = question(r, c) + "\n#" + ordinal.get(c.seq());
            Integer i = lastAnswered.get(key);
            if (i != null && i < j && charged.add(i + "\n" + key)) {
                Call first = lastAnsweredCall.get(key);
                Execution earlier = ex.get(i);
                Set<Integer> kept = kept(earlier, r, first);
                Long sent = r.sentNanos().get(first.seq());
                if (!kept.contains(ordinal.get(first.seq()))) {
                    notKept++;
                    if (sent == null) {
                        neverWritten++;
                    } else {
                        double ms = (sent - earlier.endNanos()) / 1e6; // negative: before the kill signal
                        earliest = Double.isNaN(earliest) ? ms : Math.min(earliest, ms);
                        latest = Double.isNaN(latest) ? ms : Math.max(latest, ms);
                    }
                } else {
                    keptAgain++;
                    String line = String.format("%s: %s %s, item %s: answered in execution %d (seq %d, ordinal %d, kept at ordinals %s),"
                                    + " asked again in execution %d (seq %d, ordinal %d)", r.name(), c.kind(), c.model(),
                            c.source().getOrDefault("name", "?"), i + 1, first.seq(), ordinal.get(first.seq()), kept, j + 1, c.seq(),
                            ordinal.get(c.seq()));
                    KEPT_YET_ASKED.add(line);
                    System.out.println("    kept yet asked again: " + line);
                    for (Call o : calls) {
                        String od = digest(r, o);
                        if (executionOf(ex, o.seq()) == i && o.kind() == c.kind() && o.model().equals(c.model())
                                && o.source().equals(c.source()) && !od.equals(digest(r, c)) && !kept(earlier, r, o).isEmpty()) {
                            System.out.printf("      kept for the same item and role under another question (seq %d): %s%n", o.seq(),
                                    lineDiff(o.system() + "\n" + o.user(), c.system() + "\n" + c.user()));
                        }
                    }
                }
            }
            Answer a = bySeq.get(c.seq());
            if (a != null && a.status() == 200 && a.fault().isEmpty()) {
                lastAnswered.put(key, j);
                lastAnsweredCall.put(key, c);
            }
        }
        notKeptRepeats += notKept;
        System.out.printf("    extra calls explained: %d whose answer the ledger had not kept when the process was gone (in flight at"
                        + " the kill%s), %d whose answer it had kept; digest check: %d of %d answers written out 0.2 s or more"
                        + " before a kill kept under the benchmark's digest%n", notKept,
                notKept == 0 ? "" : Double.isNaN(earliest) ? "; no answer written out"
                        : String.format("; answers written out %.0f to %.0f ms from the kill signal%s", earliest, latest,
                                neverWritten == 0 ? "" : ", " + neverWritten + " never written out"),
                keptAgain, keptEarly, writtenEarly);
    }

    /** The lines only in {@code a} (-) and only in {@code b} (+), at most 6 of each. */
    static String lineDiff(String a, String b) {
        List<String> la = List.of(a.split("\n", -1));
        List<String> lb = List.of(b.split("\n", -1));
        List<String> minus = la.stream().filter(l -> !lb.contains(l)).limit(6).map(l -> "- " + l).toList();
        List<String> plus = lb.stream().filter(l -> !la.contains(l)).limit(6).map(l -> "+ " + l).toList();
        return minus.isEmpty() && plus.isEmpty() ? "same lines, other order" : String.join(" | ", minus) + " || " + String.join(" | ", plus);
    }

    /**
     * The attempts the run's call ledger has reserved in round {@code round} ({@code sb_call_ledger});
     * 0 before the table exists, -1 when unreadable.
     */
    static long reservedCalls(Path dir, long round) {
        return round < 0 ? -1 : count(dir, "SELECT COALESCE(SUM(calls), 0) FROM sb_call_ledger WHERE round_no = " + round);
    }

    /** The run's stored spend (the calls of {@code sb_spend}'s snapshot), -1 when there is none or it cannot be read. */
    static long storedSpendCalls(Path dir) {
        if (!Files.exists(dir.resolve("db/santa.mv.db"))) {
            return -1;
        }
        try (Connection c = DriverManager.getConnection(url(dir) + ";IFEXISTS=TRUE", "sa", "");
                ResultSet rs = c.createStatement().executeQuery("SELECT snapshot FROM sb_spend")) {
            if (!rs.next()) {
                return 0;
            }
            var node = new com.fasterxml.jackson.databind.ObjectMapper().readTree(rs.getString(1));
            // SpendSnapshot: {"run": {"total": {"calls": n, ...}, ...}, ...}; a plainer shape if it changes
            var run = node.path("run");
            return run.path("total").has("calls") ? run.path("total").path("calls").asLong() : run.path("calls").asLong(-1);
        } catch (Exception e) {
            return -1;
        }
    }

    /** The step a killed execution left STARTED (the latest), or where it was before any step. */
    static String runningStep(Path dir) {
        if (!Files.exists(dir.resolve("db/santa.mv.db"))) {
            return "startup (no store yet)";
        }
        try (Connection c = DriverManager.getConnection(url(dir) + ";IFEXISTS=TRUE", "sa", "");
                ResultSet rs = c.createStatement().executeQuery("SELECT STEP_NAME FROM BATCH_STEP_EXECUTION WHERE STATUS = 'STARTED'"
                        + " ORDER BY STEP_EXECUTION_ID DESC")) {
            return rs.next() ? rs.getString(1) : "between steps";
        } catch (Exception e) {
            return "startup (" + e.getClass().getSimpleName() + ")";
        }
    }

    /**
     * Items whose current revision has a FAIL from any reviewer in the store: a review 0 of the
     * revision ({@code sb_review}), a flag on it ({@code sb_flag}: a FAIL seen outside the item's own
     * review, by the offline batch fix, a clean canary or a learned rule's fresh review or review
     * check), or a learned rule's review check that failed the fix the rule wrote as that revision
     * ({@code sb_learned_review}). A table not created yet holds none. Empty (unmeasured, never taken
     * for none) when the store cannot be read: tried 5 times, 0.2 s apart, as {@link #count}.
     */
    static Optional<Set<String>> storeFailedCurrent(Path dir) {
        for (int attempt = 1; ; attempt++) {
            Set<String> out = new TreeSet<>();
            try (Connection c = DriverManager.getConnection(url(dir) + ";IFEXISTS=TRUE", "sa", "")) {
                // review 0 only: later iterations' rows of an attempt whose fix was not kept carry
                // revision numbers of texts that never became revisions
                addIds(c, "SELECT i.item_id FROM sb_item i JOIN sb_review r ON r.run_pk = i.run_pk AND r.item_id = i.item_id"
                        + " AND r.rev = i.current_rev WHERE r.verdict = 'FAIL' AND r.iteration = 0", out);
                addIds(c, "SELECT i.item_id FROM sb_item i JOIN sb_flag f ON f.run_pk = i.run_pk AND f.item_id = i.item_id"
                        + " AND f.rev = i.current_rev", out);
                addIds(c, "SELECT i.item_id FROM sb_item i JOIN sb_revision v ON v.run_pk = i.run_pk AND v.item_id = i.item_id"
                        + " AND v.rev = i.current_rev JOIN sb_learned_review l ON l.run_pk = i.run_pk AND l.item_id = i.item_id"
                        + " AND l.kind = 'CHECK' AND v.pattern LIKE '%(learned rule ' || l.rule_id || ')'"
                        + " WHERE l.failed OR l.fail_issues IS NOT NULL", out);
                return Optional.of(out);
            } catch (Exception e) {
                if (attempt == 5) {
                    System.out.println("    (store unreadable, its FAILs on current revisions unmeasured: "
                            + String.valueOf(e.getMessage()).lines().findFirst().orElse("") + ")");
                    return Optional.empty();
                }
            }
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return Optional.empty();
            }
        }
    }

    private static void addIds(Connection c, String sql, Set<String> out) throws java.sql.SQLException {
        try (ResultSet rs = c.createStatement().executeQuery(sql)) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        } catch (java.sql.SQLException e) {
            if (e.getErrorCode() != org.h2.api.ErrorCode.TABLE_OR_VIEW_NOT_FOUND_1
                    && e.getErrorCode() != org.h2.api.ErrorCode.TABLE_OR_VIEW_NOT_FOUND_DATABASE_EMPTY_1
                    && e.getErrorCode() != org.h2.api.ErrorCode.COLUMN_NOT_FOUND_1) {
                throw e;
            }
        }
    }

    @SuppressWarnings("unchecked")
    static long reportCalls(Map<String, Object> report) {
        if (report.get("run") instanceof Map<?, ?> run && run.get("model_calls") instanceof Map<?, ?> mc
                && mc.get("run") instanceof Map<?, ?> total && total.get("calls") instanceof Number n) {
            return n.longValue();
        }
        return -1;
    }

    // ------------------------------------------------------------------ figures

    /** Input ids in no item file, and ids in more than one place (or twice in one file). */
    record Accounting(List<String> lost, List<String> doubled) {}

    static Accounting accounting(Run r, List<String> inputIds) {
        Map<String, Integer> seen = new HashMap<>();
        r.idsByFile().values().forEach(ids -> ids.forEach(id -> seen.merge(id, 1, Integer::sum)));
        List<String> lost = inputIds.stream().filter(id -> !seen.containsKey(id)).toList();
        List<String> doubled = seen.entrySet().stream().filter(e -> e.getValue() > 1).map(Map.Entry::getKey).sorted().toList();
        return new Accounting(lost, doubled);
    }

    /** Shipped items whose exact shipped text got a fault-free FAIL answer from the server. */
    static List<String> shippedWithServerFail(Run r) {
        Set<String> failed = r.answers().stream().filter(Answer::faultFreeFail).map(Answer::content).collect(Collectors.toSet());
        return r.shippedText().entrySet().stream().filter(e -> failed.contains(e.getValue())).map(Map.Entry::getKey).sorted().toList();
    }

    /**
     * Shipped items the store has a FAIL on the current revision of; empty (unmeasured) when items
     * were shipped and the store could not be read.
     */
    static Optional<List<String>> shippedWithStoreFail(Run r) {
        if (r.shippedText().isEmpty()) {
            return Optional.of(List.of());
        }
        return r.storeFailedCurrent().map(failed -> r.shippedText().keySet().stream().filter(failed::contains).sorted().toList());
    }

    /** The extra calls' kinds and models, over every kill charged so far (what the kills cost, by role). */
    static final Map<String, Integer> REPEAT_KINDS = new java.util.TreeMap<>();
    private static final Set<String> REPEATS_SEEN = new HashSet<>();

    /**
     * Per kill: the extra calls it cost, that is the requests of a later execution that repeat one
     * (the same {@link #question}, asked the same how-many-th time: {@link #ordinals}) the server had
     * answered without a fault in the killed execution:
     * the answer was received or on its way and was lost with the process. A repeat is charged to the
     * execution that last had the key answered (so an answer lost at one kill and re-asked two
     * executions later is still that kill's), each key once per kill.
     */
    static List<Long> extraPerKill(Run r) {
        Map<Integer, Answer> bySeq = new HashMap<>();
        r.answers().forEach(a -> bySeq.put(a.seq(), a));
        List<Execution> ex = r.executions();
        Map<String, Integer> lastAnswered = new HashMap<>();
        Set<String> charged = new HashSet<>();
        long[] perExecution = new long[ex.size()];
        List<Call> calls = new ArrayList<>(r.calls());
        calls.sort(java.util.Comparator.comparingInt(Call::seq));
        Map<Integer, Integer> ordinal = ordinals(r);
        for (Call c : calls) {
            int j = executionOf(ex, c.seq());
            String key = question(r, c) + "\n#" + ordinal.get(c.seq());
            Integer i = lastAnswered.get(key);
            if (i != null && i < j && charged.add(i + "\n" + key)) {
                perExecution[i]++;
                if (REPEATS_SEEN.add(r.name() + "\n" + i + "\n" + key)) {
                    REPEAT_KINDS.merge(c.kind() + " " + c.model(), 1, Integer::sum);
                }
            }
            Answer a = bySeq.get(c.seq());
            if (a != null && a.status() == 200 && a.fault().isEmpty()) {
                lastAnswered.put(key, j);
            }
        }
        List<Long> out = new ArrayList<>();
        for (int i = 0; i < ex.size(); i++) {
            if (ex.get(i).killed()) {
                out.add(perExecution[i]);
            }
        }
        return out;
    }

    /** An answer written out this long before a kill signal had time to be made durable by the client. */
    static final long DURABLE_NANOS = 200_000_000L;

    /**
     * Per kill, the server's own count of the calls in flight at it, independent of the client's
     * ledger: the killed execution's requests (those that arrived after the signal, before the process
     * was gone, included) that the server had not answered in full, without a fault, {@link
     * #DURABLE_NANOS 0.2 s} or more before the signal. A request answered with an error or a fault
     * costs no extra call (it is retried, not repeated), so it is left out.
     */
    static List<Long> serverInFlightPerKill(Run r) {
        Map<Integer, Answer> bySeq = new HashMap<>();
        r.answers().forEach(a -> bySeq.put(a.seq(), a));
        List<Long> out = new ArrayList<>();
        for (Execution k : r.kills()) {
            out.add(r.calls().stream().filter(c -> c.seq() > k.firstSeq() && c.seq() <= k.lastSeq()).filter(c -> {
                Answer a = bySeq.get(c.seq());
                if (a == null) {
                    return true; // never answered: held at the kill
                }
                Long sent = r.sentNanos().get(c.seq());
                return a.status() == 200 && a.fault().isEmpty() && (sent == null || sent >= k.endNanos() - DURABLE_NANOS);
            }).count());
        }
        return out;
    }

    /**
     * Texts a judge failed and then passed when asked again (the same model, the same text, both
     * answers without a fault), and of them those shipped. The server's count of items shipped with
     * a FAIL counts a text any fault-free answer failed: a text whose FAIL was lost with a kill and
     * which passed when asked again is counted there, though no reviewer's FAIL reached the run.
     */
    record Flips(Set<String> texts, List<String> shipped) {}

    static Flips flips(Run r) {
        Map<String, String> firstVerdict = new HashMap<>();
        Set<String> flipped = new HashSet<>();
        r.answers().stream().filter(a -> a.kind() == CatalogModelServer.Kind.REVIEW && a.status() == 200 && a.fault().isEmpty())
                .sorted(java.util.Comparator.comparingInt(Answer::seq)).forEach(a -> {
                    String key = a.model() + "\n" + a.content();
                    String before = firstVerdict.get(key);
                    if (before == null) {
                        firstVerdict.put(key, a.verdict());
                    } else if ("FAIL".equals(before) && "PASS".equals(a.verdict())) {
                        flipped.add(a.content());
                    }
                });
        return new Flips(flipped, r.shippedText().entrySet().stream().filter(e -> flipped.contains(e.getValue()))
                .map(Map.Entry::getKey).sorted().toList());
    }

    /**
     * The question a call asks, in its unit of work ({@link Run#unitOf}: round and step): its model
     * and messages. A retry asks the same question; so does a request an execution sends again
     * because the answer was lost with a killed process. A later round or another step asking it
     * again (a fresh review of an unchanged text, a clean canary asking the item's own review) asks
     * another: that call is no kill's cost, and the client counts and keeps answers per unit. Finer than the server's
     * {@link CatalogModelServer#attemptKey attempt key}: a matcher call about the same text for
     * another pattern is another question.
     */
    static String question(Run r, Call c) {
        return r.unitOf(c) + "\n" + c.model() + "\n" + c.system() + "\n" + c.user();
    }

    /** When each model step ({@link #MODEL_STEPS}) of the series' run started (epoch millis), to its name. */
    static java.util.NavigableMap<Long, String> stepStarts(Path dir) {
        java.util.NavigableMap<Long, String> out = new java.util.TreeMap<>();
        try (Connection c = DriverManager.getConnection(url(dir) + ";IFEXISTS=TRUE", "sa", "");
                ResultSet rs = c.createStatement().executeQuery("SELECT STEP_NAME, START_TIME FROM BATCH_STEP_EXECUTION"
                        + " WHERE START_TIME IS NOT NULL ORDER BY START_TIME")) {
            while (rs.next()) {
                if (MODEL_STEPS.contains(rs.getString(1))) {
                    out.put(rs.getTimestamp(2).getTime(), rs.getString(1));
                }
            }
        } catch (Exception e) {
            System.out.println("    (steps unreadable: " + e.getMessage() + ")");
        }
        return out;
    }

    /** When each round of the series' run started ({@code sb_round.created_at}, epoch millis), to its number. */
    static java.util.NavigableMap<Long, Integer> roundStarts(Path dir) {
        java.util.NavigableMap<Long, Integer> out = new java.util.TreeMap<>();
        try (Connection c = DriverManager.getConnection(url(dir) + ";IFEXISTS=TRUE", "sa", "");
                ResultSet rs = c.createStatement().executeQuery("SELECT round_no, created_at FROM sb_round ORDER BY round_no")) {
            while (rs.next()) {
                out.put(rs.getTimestamp(2).getTime(), rs.getInt(1));
            }
        } catch (Exception e) {
            System.out.println("    (rounds unreadable: " + e.getMessage() + ")");
        }
        return out;
    }

    static int executionOf(List<Execution> ex, int seq) {
        for (int i = 0; i < ex.size(); i++) {
            if (seq > ex.get(i).firstSeq() && seq <= ex.get(i).lastSeq()) {
                return i;
            }
        }
        return ex.size() - 1;
    }

    /** Requests repeating one already answered without a fault in the same execution. */
    static long repeatsWithinExecutions(Run r) {
        Map<Integer, Answer> bySeq = new HashMap<>();
        r.answers().forEach(a -> bySeq.put(a.seq(), a));
        long n = 0;
        for (Execution e : r.executions()) {
            Set<String> answered = new HashSet<>();
            for (Call c : r.calls()) {
                if (c.seq() <= e.firstSeq() || c.seq() > e.lastSeq()) {
                    continue;
                }
                String key = question(r, c);
                if (answered.contains(key)) {
                    n++;
                }
                Answer a = bySeq.get(c.seq());
                if (a != null && a.status() == 200 && a.fault().isEmpty()) {
                    answered.add(key);
                }
            }
        }
        return n;
    }

    static Map<String, Long> faultCounts(Run r) {
        Map<String, Long> out = new java.util.TreeMap<>();
        for (Call c : r.calls()) {
            String f = c.fault();
            String label = f.isEmpty() ? "none"
                    : f.startsWith("Status[code=429") ? "429"
                    : f.startsWith("Status[code=5") ? "5xx"
                    : f.startsWith("Hang") ? "hang"
                    : f.startsWith("MalformedJson") ? "garbage"
                    : f.startsWith("MissingCriterion") ? "missing-criterion"
                    : f.startsWith("PassWithCritical") ? "pass-with-critical"
                    : f.startsWith("PassWithUnprefixedIssue") ? "pass-with-unprefixed-issue"
                    : f.startsWith("FailWithoutFailedCheck") ? "fail-without-failed-check"
                    : f.startsWith(CatalogModelServer.UNREAD_PREFIX) ? "unread (client gone)"
                    : f;
            out.merge(label, 1L, Long::sum);
        }
        return out;
    }

    static void print(Run r, Run reference, List<String> inputIds, long maxCalls) throws IOException {
        if (r.name().startsWith("budget-")) {
            System.out.printf("%s runs under max-calls %d (60 %% of the reference's calls): it is meant to stop for the budget,"
                    + " so its outputs are compared with the reference's for the record only%n", r.name(), maxCalls);
        }
        Accounting acc = accounting(r, inputIds);
        System.out.printf("%s: %d execution(s), %d kill(s), final exit %d, status %s, wall %.1f s%n", r.name(), r.executions().size(),
                r.kills().size(), r.finalExit(), r.report().getOrDefault("status", "(no report.json)"), r.wallSeconds());
        System.out.printf("    files: %s%n", r.idsByFile().entrySet().stream().map(e -> e.getKey() + " " + e.getValue().size())
                .collect(Collectors.joining(", ")));
        System.out.printf("    lost %d, doubled %d%s%n", acc.lost().size(), acc.doubled().size(),
                acc.lost().isEmpty() && acc.doubled().isEmpty() ? "" : " (e.g. lost " + head(acc.lost()) + ", doubled " + head(acc.doubled()) + ")");
        List<String> serverFail = shippedWithServerFail(r);
        Optional<List<String>> storeFail = shippedWithStoreFail(r);
        System.out.printf("    shipped with a FAIL on the current revision: %d by the server's answers%s, %s by the store;"
                        + " shipped with a planted defect: %d of %d shipped%n", serverFail.size(), serverFail.isEmpty() ? "" : " " + head(serverFail),
                storeFail.map(f -> f.size() + (f.isEmpty() ? "" : " " + head(f))).orElse("unmeasured (store unreadable)"),
                r.shippedWithDefect().size(), r.shippedText().size());
        long reportCalls = reportCalls(r.report());
        System.out.printf("    server received %d calls (max-calls %d), report.json calls %s; faults %s%n", r.calls().size(), maxCalls,
                reportCalls < 0 ? "n/a" : Long.toString(reportCalls), faultCounts(r));
        Flips flips = flips(r);
        System.out.printf("    judges flipping FAIL to PASS on re-ask: %d texts, %d of them shipped%s%n", flips.texts().size(),
                flips.shipped().size(), flips.shipped().isEmpty() ? "" : " " + head(flips.shipped()));
        if (!r.kills().isEmpty()) {
            List<Long> extra = extraPerKill(r);
            System.out.printf("    per kill: in flight at the kill %s (by the server's count, answers not written out 0.2 s"
                            + " before it included: %s), extra calls (repeats of answered requests) %s;"
                            + " repeats within one execution %d (reference: %s)%n",
                    r.kills().stream().map(k -> Integer.toString(k.inFlightAtKill())).toList(), serverInFlightPerKill(r), extra,
                    repeatsWithinExecutions(r),
                    reference == null ? "-" : Long.toString(repeatsWithinExecutions(reference)));
            explainRepeats(r);
            System.out.printf("    stored spend after each kill vs received: %s%n", r.kills().stream()
                    .map(k -> (k.storedSpendAfter() < 0 ? "n/a" : Long.toString(k.storedSpendAfter())) + "/" + k.receivedAtKill()).toList());
        } else {
            System.out.printf("    repeats of answered requests within the run: %d%n", repeatsWithinExecutions(r));
        }
        if (reference != null) {
            System.out.printf("    against the reference: %s%n", comparison(r, reference));
        }
    }

    static String comparison(Run r, Run reference) throws IOException {
        List<String> parts = new ArrayList<>();
        Path out = r.dir().resolve("out").resolve(JOB).resolve(RUN_ID);
        Path refOut = reference.dir().resolve("out").resolve(JOB).resolve(RUN_ID);
        Set<String> files = new TreeSet<>(existing(out));
        Set<String> refFiles = new TreeSet<>(existing(refOut));
        parts.add(files.equals(refFiles) ? "same files" : "files differ (" + files + " vs " + refFiles + ")");
        parts.add("status " + (java.util.Objects.equals(r.report().get("status"), reference.report().get("status")) ? "same" : "differs ("
                + r.report().get("status") + " vs " + reference.report().get("status") + ")"));
        for (String f : COMPARED_FILES) {
            if (!files.contains(f) && !refFiles.contains(f)) {
                continue;
            }
            if (!files.contains(f) || !refFiles.contains(f)) {
                parts.add(f + " only in " + (files.contains(f) ? "this run" : "the reference"));
                continue;
            }
            boolean bytes = java.util.Arrays.equals(Files.readAllBytes(out.resolve(f)), Files.readAllBytes(refOut.resolve(f)));
            String items = "";
            if (r.idsByFile().containsKey(f)) {
                Set<String> a = new TreeSet<>(r.idsByFile().get(f));
                Set<String> b = new TreeSet<>(reference.idsByFile().get(f));
                Set<String> onlyA = new TreeSet<>(a);
                onlyA.removeAll(b);
                Set<String> onlyB = new TreeSet<>(b);
                onlyB.removeAll(a);
                items = a.equals(b) ? ", same items" : ", items differ (+" + onlyA.size() + " -" + onlyB.size() + ")";
            }
            parts.add(f + (bytes ? " byte-identical" : " bytes differ") + items);
        }
        return String.join("; ", parts);
    }

    static List<String> existing(Path out) throws IOException {
        if (!Files.isDirectory(out)) {
            return List.of();
        }
        try (var s = Files.list(out)) {
            return s.map(p -> p.getFileName().toString()).filter(n -> COMPARED_FILES.contains(n)).toList();
        }
    }

    static String head(List<String> ids) {
        return ids.size() <= 5 ? ids.toString() : ids.subList(0, 5) + "...";
    }

    static void summary(SoakDomain domain, Run reference, List<Run> killed, List<String> inputIds, long maxCalls, int killsWanted,
            double wall)
            throws IOException {
        List<Run> all = new ArrayList<>();
        all.add(reference);
        all.addAll(killed);
        int totalKills = killed.stream().mapToInt(r -> r.kills().size()).sum();
        long lost = 0;
        long doubled = 0;
        long serverFail = 0;
        long storeFail = 0;
        List<String> storeUnmeasured = new ArrayList<>();
        long overBudget = 0;
        long maxReceived = 0;
        List<String> overBudgetRuns = new ArrayList<>();
        List<String> reportMismatch = new ArrayList<>();
        for (Run r : all) {
            Accounting a = accounting(r, inputIds);
            lost += a.lost().size();
            doubled += a.doubled().size();
            serverFail += shippedWithServerFail(r).size();
            Optional<List<String>> byStore = shippedWithStoreFail(r);
            storeFail += byStore.map(List::size).orElse(0);
            if (byStore.isEmpty()) {
                storeUnmeasured.add(r.name());
            }
            maxReceived = Math.max(maxReceived, r.calls().size());
            if (r.calls().size() > r.maxCalls()) {
                overBudget++;
                overBudgetRuns.add(r.name() + " " + r.calls().size() + " > " + r.maxCalls());
            }
            long rc = reportCalls(r.report());
            long received = r.calls().size();
            long ceiling = received + (long) MAX_IN_FLIGHT * r.kills().size();
            if (rc < received || rc > ceiling) {
                reportMismatch.add(r.name() + ": report " + rc + ", server " + received + (r.kills().isEmpty() ? "" : ", allowed up to " + ceiling));
            }
        }
        List<String> overKill = new ArrayList<>();
        List<String> overServerCount = new ArrayList<>();
        List<Long> allExtra = new ArrayList<>();
        List<Long> allServerInFlight = new ArrayList<>();
        long flippedShipped = 0;
        long flippedTexts = 0;
        for (Run r : all) {
            Flips f = flips(r);
            flippedTexts += f.texts().size();
            flippedShipped += f.shipped().size();
        }
        for (Run r : killed) {
            List<Long> extra = extraPerKill(r);
            List<Long> held = serverInFlightPerKill(r);
            List<Execution> ks = r.kills();
            for (int i = 0; i < extra.size(); i++) {
                allExtra.add(extra.get(i));
                allServerInFlight.add(held.get(i));
                if (extra.get(i) > held.get(i)) {
                    overServerCount.add(r.name() + " kill " + (i + 1) + ": " + extra.get(i) + " > " + held.get(i));
                }
                if (ks.get(i).clientInFlightAtKill() < 0) {
                    overKill.add(r.name() + " kill " + (i + 1) + ": " + extra.get(i) + " extra, in flight unmeasured (store unreadable)");
                } else if (extra.get(i) > ks.get(i).clientInFlightAtKill()) {
                    overKill.add(r.name() + " kill " + (i + 1) + ": " + extra.get(i) + " > " + ks.get(i).clientInFlightAtKill());
                }
            }
        }
        System.out.println();
        System.out.printf("fault soak summary, %s (%s pool): %d runs (1 reference + %d killed), %d of %d kills, wall %.1f s"
                        + " (reference %.1f s)%n", domain.catalog().name(), domain.catalog().pool(), all.size(), killed.size(), totalKills, killsWanted, wall, reference.wallSeconds());
        System.out.printf("  reference: %d calls, status %s; killed runs: calls %s, wall %s s%n", reference.calls().size(),
                reference.report().get("status"), killed.stream().map(r -> Integer.toString(r.calls().size())).toList(),
                killed.stream().map(r -> String.format("%.0f", r.wallSeconds())).toList());
        System.out.printf("  executions that failed (exit 1) and were resumed: %s%n", all.stream()
                .map(r -> r.name() + " " + r.executions().stream().filter(e -> e.exit() == 1).count()).toList());
        System.out.printf("  extra calls per kill %s (mean %.1f), in flight at the kills %s, in-flight limit %d%n", allExtra,
                allExtra.stream().mapToLong(Long::longValue).average().orElse(0),
                killed.stream().flatMap(r -> r.kills().stream()).map(k -> Integer.toString(k.inFlightAtKill())).toList(), MAX_IN_FLIGHT);
        System.out.printf("  extra calls by kind and model: %s%n", REPEAT_KINDS);
        System.out.printf("  in flight at the kills by the server's count (not answered in full without a fault 0.2 s before"
                + " the signal) %s%n", allServerInFlight);
        System.out.printf("  judges flipping FAIL to PASS on re-ask: %d texts, %d of them shipped (counted in the server's"
                + " FAILs below, though no reviewer's FAIL reached the run)%n", flippedTexts, flippedShipped);
        System.out.printf("  in flight at the kills at the client (reserved, not answered with an error, no answer kept, once the"
                + " process was gone) %s%n",
                killed.stream().flatMap(r -> r.kills().stream()).map(k -> Integer.toString(k.clientInFlightAtKill())).toList());
        verdict("0 items lost or doubled", lost + doubled == 0, lost + " lost, " + doubled + " doubled over " + all.size() + " runs");
        // a run whose store could not be read has no store count: the check does not pass on a zero it did not measure
        verdict("0 items shipped with a FAIL on their current revision", serverFail + storeFail == 0 && storeUnmeasured.isEmpty(),
                serverFail + " by the server's answers, " + storeFail + " by the store, over " + all.size() + " runs"
                        + (storeUnmeasured.isEmpty() ? "" : "; by the store unmeasured in " + storeUnmeasured + " (store unreadable)"));
        verdict("the server never receives more than max-calls", overBudget == 0, overBudget == 0
                ? "received/max-calls per run " + all.stream().map(r -> r.calls().size() + "/" + r.maxCalls()).toList()
                : String.join("; ", overBudgetRuns));
        verdict("extra calls per kill at most the calls in flight at the kill (at the client)", overKill.isEmpty(),
                overKill.isEmpty() ? allExtra.size() + " kills checked" : String.join("; ", overKill));
        verdict("extra calls per kill at most the calls in flight at the kill (the server's own count)", overServerCount.isEmpty(),
                overServerCount.isEmpty() ? allExtra.size() + " kills checked" : String.join("; ", overServerCount));
        verdict("no extra call asks a question whose answer the ledger had kept (answers received before a kill are not paid"
                + " again)", KEPT_YET_ASKED.isEmpty(), KEPT_YET_ASKED.isEmpty() ? "all " + notKeptRepeats
                + " extra calls had no answer kept when the killed process was gone" : String.join("; ", KEPT_YET_ASKED));
        verdict("report.json calls between the server's and that plus the in-flight limit per kill", reportMismatch.isEmpty(),
                reportMismatch.isEmpty() ? all.size() + " runs checked" : String.join("; ", reportMismatch));
        List<String> catalogWhenNotClean = all.stream()
                .filter(r -> r.idsByFile().containsKey("catalog.csv")
                        && !List.of(RunReport.CLEAN, RunReport.FULLY_REVIEWED).contains(r.report().get("status")))
                .map(r -> r.name() + " (" + r.report().get("status") + ")").toList();
        verdict("catalog.csv written only when a run ends clean or fully-reviewed (the outputs contract)", catalogWhenNotClean.isEmpty(),
                catalogWhenNotClean.isEmpty() ? all.size() + " runs checked" : "catalog.csv in " + String.join(", ", catalogWhenNotClean));
        // fewer kills than asked measure less than was asked: not a pass
        verdict("the kills asked for landed", totalKills >= killsWanted, totalKills + " of " + killsWanted
                + (totalKills < killsWanted ? " (runs finished before their kill moment)" : ""));
    }

    static void verdict(String requirement, boolean pass, String detail) {
        System.out.printf("  %s  %s: %s%n", pass ? "PASS" : "FAIL", requirement, detail);
    }

    private FaultSoakBenchmark() {}
}
