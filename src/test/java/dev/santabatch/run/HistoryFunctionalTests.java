package dev.santabatch.run;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.santabatch.cli.Cli;
import dev.santabatch.execution.StopSignal;
import dev.santabatch.batch.Extensions;
import dev.santabatch.review.step.ReviewerType;
import dev.santabatch.review.step.ScriptedReviewer;
import dev.santabatch.export.RunReport;
import dev.santabatch.review.Check;
import dev.santabatch.review.CheckResult;
import dev.santabatch.review.FixOutcome;
import dev.santabatch.review.Review;
import dev.santabatch.review.ReviewOutcome;
import dev.santabatch.review.Reviewer;
import dev.santabatch.review.Verdict;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code santa-batch history} on one H2 file store holding several runs of a job: whole runs with
 * scripted reviewers that fail the items carrying a marker sentence (each marker its own issue,
 * so its own pattern) and a fixer that removes it. The listing's figures are each exported run's
 * {@code report.json}'s; a run held mid-review (in this process) or live in another process lists
 * as {@code running} without figures, one killed as {@code dead}; runs an earlier version exported
 * without the figures still list.
 */
class HistoryFunctionalTests {

    static final String SHOP = " Shop now, limited stock!";
    static final String SHIPPING = " Free shipping worldwide, order today!";
    static final int ITEMS = 200;

    @TempDir
    Path dir;

    @BeforeEach
    void reset() {
        StopSignal.reset();
    }

    // ---------------------------------------------------------------- tests

    @Test
    void historyListsEachRunWithItsExportedFiguresAndTheTrendWhileARunIsLive() throws Exception {
        // given a first night: every fifth item carries the shop-now sentence
        Path catalog = dir.resolve("in.csv");
        writeCatalog(catalog, id -> id % 5 == 0 ? SHOP : "");
        Path job = job(catalog);
        assertThat(run(job, "n1", panel("carries the shop-now boilerplate sentence", null))).isZero();
        // and a second night over a catalog regenerated in part: some items carry the shop-now
        // sentence again (reported in other case and spacing), some a new free-shipping one
        writeCatalog(catalog, id -> id % 10 == 3 ? " Regenerated." + SHOP : id % 10 == 7 ? " Regenerated." + SHIPPING
                : id % 5 == 0 ? SHOP : "");
        assertThat(run(job, "n2", panel("Carries the  SHOP-NOW boilerplate   sentence", null))).isZero();
        Map<String, Object> n1 = report("n1");
        Map<String, Object> n2 = report("n2");

        // when a third night is live, held in its first review, and history is asked for
        CountDownLatch reviewing = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        ExecutorService thread = Executors.newSingleThreadExecutor();
        Future<Integer> third = thread.submit(() -> run(job, "n3", panel("carries the shop-now boilerplate sentence",
                new CountDownLatch[] {reviewing, release})));
        Result text;
        Result json;
        try {
            assertThat(reviewing.await(120, TimeUnit.SECONDS)).as("the third run reached its review").isTrue();
            text = cli("history", job.toString());
            json = cli("history", job.toString(), "--json");
        } finally {
            release.countDown();
        }
        assertThat(third.get(180, TimeUnit.SECONDS)).isZero();
        thread.shutdown();

        // then each exported run shows its report's figures, the live one its status alone
        assertThat(text.exit()).as(text.err()).isZero();
        List<String> lines = text.out().lines().toList();
        assertThat(lines.get(0)).isEqualTo("history of job 'nightly': 3 runs, oldest first");
        assertThat(columns(lines.get(1))).containsExactly("STARTED", "RUN", "ID", "STATUS", "ITEMS", "CHANGED", "CARRIED",
                "SHIPPED", "HELD", "1ST", "PASS", "NEW", "PATTERNS", "SEEN", "AGAIN", "CALLS", "COST", "BOUND", "ESCAPE");
        assertThat(columns(lines.get(2))).containsExactlyElementsOf(expectedColumns("n1", n1, "1", "0"));
        long changed = n(map(map(n2.get("carry_over")).get("judged_afresh")).get("changed"));
        assertThat(changed).as("items regenerated for the second night").isEqualTo(40L);
        assertThat(columns(lines.get(3))).containsExactlyElementsOf(expectedColumns("n2", n2, "1", "1"));
        assertThat(columns(lines.get(4)).subList(2, columns(lines.get(4)).size()))
                .containsExactly("n3", "running", "-", "-", "-", "-", "-", "-", "-", "-", "-", "-", "-", "-");
        assertThat(lines.get(5)).isEqualTo("trend over 2 exported runs, 'n1' to 'n2': first-pass rate "
                + pct(rate(n1)) + " -> " + pct(rate(n2)) + ", cost 0.0000 -> 0.0000");
        assertThat(lines).hasSize(6);

        // and the same as JSON
        assertThat(json.exit()).as(json.err()).isZero();
        Map<?, ?> listing = new ObjectMapper().readValue(json.out(), Map.class);
        assertThat(listing.get("job")).isEqualTo("nightly");
        assertThat(listing.get("runs_in_store")).isEqualTo(3);
        List<?> runs = (List<?>) listing.get("runs");
        assertThat(runs.stream().map(r -> ((Map<?, ?>) r).get("run_id")).toList()).isEqualTo(List.of("n1", "n2", "n3"));
        Map<?, ?> first = (Map<?, ?>) runs.get(0);
        assertThat(first.get("status")).isEqualTo("clean");
        assertThat(n(first.get("items"))).isEqualTo((long) ITEMS);
        assertThat(first.get("changed")).isNull();
        assertThat(n(first.get("carried_over"))).isZero();
        assertThat(n(first.get("shipped"))).isEqualTo(n(map(n1.get("outputs")).get("shipped")));
        assertThat(first.get("first_pass_rate")).isEqualTo(rate(n1));
        assertThat(n(first.get("patterns_new"))).isEqualTo(1L);
        assertThat(n(first.get("patterns_seen_again"))).isZero();
        assertThat(n(first.get("model_calls"))).isZero();
        assertThat(first.get("bound")).isEqualTo(map(map(n1.get("run")).get("bound")).get("defect_rate_below"));
        assertThat(first.get("started_at").toString()).matches("\\d{4}-\\d\\d-\\d\\dT.*Z");
        Map<?, ?> second = (Map<?, ?>) runs.get(1);
        assertThat(n(second.get("changed"))).isEqualTo(40L);
        assertThat(n(second.get("carried_over"))).isEqualTo(n(map(n2.get("carry_over")).get("carried"))).isPositive();
        assertThat(n(second.get("patterns_new"))).isEqualTo(1L);
        assertThat(n(second.get("patterns_seen_again"))).isEqualTo(1L);
        @SuppressWarnings("unchecked")
        Map<String, Object> live = (Map<String, Object>) runs.get(2);
        assertThat(live.get("status")).isEqualTo("running");
        assertThat(live.get("exported_at")).isNull();
        for (String figure : List.of("items", "changed", "carried_over", "shipped", "held", "first_pass_rate", "patterns_new",
                "patterns_seen_again", "model_calls", "estimated_cost", "bound", "audited", "escape_rate")) {
            assertThat(live).containsEntry(figure, null);
        }
        Map<?, ?> trend = (Map<?, ?>) listing.get("trend");
        assertThat(trend.get("exported_runs")).isEqualTo(2);
        @SuppressWarnings("unchecked")
        Map<String, Object> rateTrend = (Map<String, Object>) trend.get("first_pass_rate");
        assertThat(rateTrend).containsEntry("from_run_id", "n1").containsEntry("to_run_id", "n2")
                .containsEntry("from", rate(n1)).containsEntry("to", rate(n2));

        // and once the third night has ended, it lists as exported, and --limit keeps the latest
        Result ended = cli("history", job.toString(), "--limit", "2");
        assertThat(ended.exit()).as(ended.err()).isZero();
        List<String> two = ended.out().lines().toList();
        assertThat(two.get(0)).isEqualTo("history of job 'nightly': the latest 2 of 3 runs, oldest first");
        assertThat(columns(two.get(2))).containsExactlyElementsOf(expectedColumns("n2", n2, "1", "1"));
        assertThat(columns(two.get(3)).subList(2, 5)).containsExactly("n3", "clean", String.valueOf(ITEMS));
        assertThat(two.get(4)).startsWith("trend over 2 exported runs, 'n2' to 'n3': first-pass rate " + pct(rate(n2)));
    }

    @Test
    void theAuditsEscapeRateIsListedOnceHandedBack() throws Exception {
        // given a run whose audit.csv comes back with one defective item of 20
        Path catalog = dir.resolve("in.csv");
        writeCatalog(catalog, id -> id % 5 == 0 ? SHOP : "");
        Path job = job(catalog);
        assertThat(run(job, "n1", panel("carries the shop-now boilerplate sentence", null))).isZero();
        assertThat(columns(cli("history", job.toString()).out().lines().toList().get(2))).last().isEqualTo("-");
        Path runDir = dir.resolve("out/nightly/n1");
        List<String> sample = new ArrayList<>();
        try (var parser = org.apache.commons.csv.CSVFormat.RFC4180.builder().setHeader().setSkipHeaderRecord(true).get()
                .parse(Files.newBufferedReader(runDir.resolve("audit.csv"), StandardCharsets.UTF_8))) {
            parser.forEach(r -> sample.add(r.get("item_id")));
        }
        assertThat(sample).hasSize(20);
        StringBuilder filled = new StringBuilder("item_id,content,verdict,note\n");
        for (int i = 0; i < sample.size(); i++) {
            filled.append(sample.get(i)).append(",x,").append(i == 0 ? "defective" : "ok").append(",\n");
        }
        Files.writeString(dir.resolve("filled.csv"), filled);

        // when it is handed back
        assertThat(cli("audit", runDir.toString(), dir.resolve("filled.csv").toString()).exit()).isZero();

        // then history lists its escape rate
        assertThat(columns(cli("history", job.toString()).out().lines().toList().get(2))).endsWith("5.0", "%");
        Map<?, ?> run = (Map<?, ?>) ((List<?>) new ObjectMapper().readValue(cli("history", job.toString(), "--json").out(),
                Map.class).get("runs")).get(0);
        assertThat(run.get("escape_rate")).isEqualTo(0.05);
        assertThat(run.get("audited")).isEqualTo(20);
    }

    @Test
    void aRunLiveInAnotherProcessListsAsRunningAndOnceKilledAsDead() throws Exception {
        // given a run in another process, held in its review step until the test ends it
        Path catalog = TestJobs.writeCatalog(dir.resolve("in.csv"), TestJobs.rows(ITEMS));
        Path job = TestJobs.writeJob(dir, "nightly", catalog, 10);
        java.nio.file.Files.createFile(ChildRun.holdFile(dir));
        ChildRun child = ChildRun.start(dir, 0, "run", job.toString(), "--run-id", "k1");
        ChildRun.pollUntil(dir, "SELECT COUNT(*) FROM sb_item", n -> n == ITEMS, 120, child.process);

        // when history reads the store while it is live, then after a kill -9
        Result live = cli("history", job.toString());
        child.process.destroyForcibly();
        child.await(30);
        Result killed = cli("history", job.toString(), "--json");

        // then it is running, then dead, without figures either way
        assertThat(live.exit()).as(live.err()).isZero();
        assertThat(columns(live.out().lines().toList().get(2)).subList(2, 6)).containsExactly("k1", "running", "-", "-");
        assertThat(live.out().lines().toList().get(3)).isEqualTo("trend: needs two exported runs (0 listed)");
        assertThat(killed.exit()).as(killed.err()).isZero();
        Map<?, ?> run = (Map<?, ?>) ((List<?>) new ObjectMapper().readValue(killed.out(), Map.class).get("runs")).get(0);
        assertThat(run.get("status")).isEqualTo("dead");
        assertThat(run.get("items")).isNull();
    }

    @Test
    void runsExportedByAnEarlierVersionWithoutTheirFiguresStillList() throws Exception {
        // given two runs, the first as a version without the figures (and one without the export's status) left it
        Path catalog = TestJobs.writeCatalog(dir.resolve("in.csv"), TestJobs.rows(ITEMS));
        Path job = TestJobs.writeJob(dir, "nightly", catalog, 50);
        for (String id : List.of("old1", "old2", "new1")) {
            assertThat(PassAll.run(TestJobs.h2(dir), quiet(), System.err, "run", job.toString(), "--out",
                    dir.resolve("out").toString(), "--run-id", id)).isZero();
        }
        update("DELETE FROM sb_run_summary WHERE run_pk IN (SELECT run_pk FROM sb_run WHERE run_id IN ('old1', 'old2'))");
        update("UPDATE sb_run SET exported_at = NULL, exported_status = NULL WHERE run_id = 'old1'");

        // when history is asked for
        Result r = cli("history", job.toString());

        // then they list with their status and no figures
        assertThat(r.exit()).as(r.err()).isZero();
        List<String> lines = r.out().lines().toList();
        assertThat(columns(lines.get(2)).subList(2, 6)).containsExactly("old1", "completed", "-", "-");
        assertThat(columns(lines.get(3)).subList(2, 6)).containsExactly("old2", "clean", "-", "-");
        assertThat(columns(lines.get(4)).subList(2, 6)).containsExactly("new1", "clean", String.valueOf(ITEMS), "0");
        assertThat(lines.get(5)).isEqualTo("trend: needs two exported runs (1 listed)");
    }

    @Test
    void aJobWithNoRunsSaysSoAndExitsZero() throws Exception {
        Path job = TestJobs.writeJob(dir, "never-run", TestJobs.writeCatalog(dir.resolve("in.csv"), TestJobs.rows(5)), 50);

        Result text = cli("history", job.toString());
        Result json = cli("history", job.toString(), "--json");

        assertThat(text.exit()).as(text.err()).isZero();
        assertThat(text.out()).isEqualTo("no runs yet of job 'never-run' in this store\n");
        assertThat(json.exit()).as(json.err()).isZero();
        Map<?, ?> listing = new ObjectMapper().readValue(json.out(), Map.class);
        assertThat(listing.get("runs")).isEqualTo(List.of());
        assertThat(listing.get("runs_in_store")).isEqualTo(0);
    }

    @Test
    void aBadJobFileIsExit2NamingFileLineAndKey() throws Exception {
        Path job = TestJobs.writeJob(dir, "nightly", TestJobs.writeCatalog(dir.resolve("in.csv"), TestJobs.rows(5)), 50);
        Files.writeString(job, Files.readString(job).replace("task-spec:", "task-spek:"));

        Result r = cli("history", job.toString());

        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.out()).isEmpty();
        int line = Files.readAllLines(job).indexOf(Files.readAllLines(job).stream().filter(l -> l.startsWith("task-spek"))
                .findFirst().orElseThrow()) + 1;
        assertThat(r.err()).startsWith("santa-batch: invalid job file: " + job + ":" + line + ":").contains("task-spek");
    }

    // ---------------------------------------------------------------- the scripted panel

    /**
     * Fails an item on on-specification for each marker it carries: the shop-now one with
     * {@code shopWording}, the free-shipping one with its own issue. With {@code hold} (reached,
     * release), the first review counts {@code reached} down and waits for {@code release}.
     */
    static Extensions panel(String shopWording, CountDownLatch @Nullable [] hold) {
        ReviewerType marker = ScriptedReviewer.answering(request -> {
            if (hold != null) {
                hold[0].countDown();
                try {
                    hold[1].await(120, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            List<String> issues = new ArrayList<>();
            if (request.content().contains(SHOP.strip())) {
                issues.add("on-specification: " + shopWording);
            }
            if (request.content().contains(SHIPPING.strip())) {
                issues.add("on-specification: promises free shipping, which the facts do not give");
            }
            return issues;
        });
        return new Extensions(Map.of("lexical", marker, "semantic", marker),
                request -> new FixOutcome.Fixed(request.content().replace(SHOP, "").replace(SHIPPING, "")));
    }

    // ---------------------------------------------------------------- fixtures

    /** {@value #ITEMS} items; item i's description gets {@code extra.apply(i)} appended. */
    static void writeCatalog(Path file, java.util.function.IntFunction<String> extra) throws Exception {
        List<List<String>> rows = new ArrayList<>();
        for (List<String> r : TestJobs.rows(ITEMS)) {
            List<String> row = new ArrayList<>(r);
            row.set(7, row.get(7) + extra.apply(Integer.parseInt(row.get(0).substring(1))));
            rows.add(row);
        }
        TestJobs.writeCatalog(file, rows);
    }

    private Path job(Path catalog) throws Exception {
        Path job = TestJobs.writeJob(dir, "nightly", catalog, 50);
        Files.writeString(job, Files.readString(job) + "sampling:\n  seed: 7\n");
        return job;
    }

    private int run(Path job, String runId, Extensions panel) {
        StopSignal.reset();
        return Extensions.run(new RunRequest(job, null, dir.resolve("out"), runId, null), TestJobs.h2(dir), quiet(), System.err,
                panel);
    }

    private Map<String, Object> report(String runId) throws Exception {
        return RunReport.read(dir.resolve("out/nightly").resolve(runId).resolve("report.json"));
    }

    record Result(int exit, String out, String err) {}

    private Result cli(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = Cli.run(args, TestJobs.h2(dir), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Result(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /** A run's line as history prints it from its report, split on spaces, after the date and time. */
    private static List<String> expectedColumns(String runId, Map<String, Object> report, String patternsNew,
            String patternsAgain) {
        Map<?, ?> run = map(report.get("run"));
        Map<?, ?> outputs = map(report.get("outputs"));
        Map<?, ?> carry = map(report.get("carry_over"));
        Map<?, ?> bound = map(run.get("bound"));
        List<String> cells = new ArrayList<>(List.of(runId, String.valueOf(report.get("status")),
                String.valueOf(map(report.get("input")).get("items")),
                carry.isEmpty() ? "-" : String.valueOf(map(carry.get("judged_afresh")).get("changed")),
                carry.isEmpty() ? "0" : String.valueOf(carry.get("carried")),
                String.valueOf(outputs.get("shipped")), String.valueOf(outputs.get("held"))));
        cells.addAll(List.of(pct(rate(report)).split(" ")));
        cells.addAll(List.of(patternsNew, patternsAgain, "0", "0.0000"));
        cells.addAll(Boolean.TRUE.equals(bound.get("stated"))
                ? List.of(pct(((Number) bound.get("defect_rate_below")).doubleValue()).split(" ")) : List.of("-"));
        cells.add("-");
        List<String> withDate = new ArrayList<>(List.of("DATE", "TIME"));
        withDate.addAll(cells);
        return withDate;
    }

    /** A printed line's cells, split on spaces; the start's date and time replaced by DATE and TIME after checking them. */
    private static List<String> columns(String line) {
        List<String> cells = new ArrayList<>(List.of(line.trim().split("\\s+")));
        if (cells.get(0).matches("\\d{4}-\\d\\d-\\d\\d") && cells.get(1).matches("\\d\\d:\\d\\d")) {
            cells.set(0, "DATE");
            cells.set(1, "TIME");
        }
        return cells;
    }

    private static double rate(Map<String, Object> report) {
        return ((Number) map(report.get("run")).get("first_pass_rate")).doubleValue();
    }

    private static String pct(double d) {
        return String.format(java.util.Locale.ROOT, "%.1f %%", d * 100);
    }

    private static Map<?, ?> map(@Nullable Object o) {
        return o instanceof Map<?, ?> m ? m : Map.of();
    }

    private static long n(@Nullable Object o) {
        return ((Number) o).longValue();
    }

    private static PrintStream quiet() {
        return new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
    }

    private void update(String sql) throws Exception {
        try (Connection c = DriverManager.getConnection(TestJobs.h2Url(dir), "sa", "")) {
            c.createStatement().executeUpdate(sql);
        }
    }
}
