package dev.santabatch.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.santabatch.cli.Cli;
import dev.santabatch.report.RunReport;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code santa-batch plan} on one H2 file store holding several runs of a job, one of them live in
 * another process: what it counts (items, rejects, carry-over, the rules' fixes and holds, the
 * eligible items, round 1's sample) is what the run then does, its expectation is the median of the
 * job's exported runs, and the run records the same plan of itself in {@code report.json}.
 */
class PlanFunctionalTests {

    static final int ITEMS = HistoryFunctionalTests.ITEMS;

    @TempDir
    Path dir;

    @BeforeEach
    void reset() {
        StopSignal.reset();
    }

    @Test
    void planCountsWhatTheNextRunDoesAndExpectsTheMedianOfTheJobsRunsWhileARunIsLive() throws Exception {
        // given a job with rules that fix and hold, and a first night whose catalog has two rows a run rejects
        Path catalog = dir.resolve("in.csv");
        writeCatalog(catalog, id -> id % 5 == 0 ? HistoryFunctionalTests.SHOP : "");
        Path job = job(catalog);
        Result none = cli("plan", job.toString());
        assertThat(run(job, "n1")).isZero();
        // and a second night over a catalog regenerated in part
        writeCatalog(catalog, id -> id % 10 == 3 ? " Regenerated." + HistoryFunctionalTests.SHOP
                : id % 10 == 7 ? " Regenerated." + HistoryFunctionalTests.SHIPPING
                : id % 5 == 0 ? HistoryFunctionalTests.SHOP : "");
        assertThat(run(job, "n2")).isZero();
        double rate1 = rate(report("n1"));
        double rate2 = rate(report("n2"));

        // when a third night, over a catalog regenerated in part again, is live in another process,
        // held in its review, and the plan is asked for
        writeCatalog(catalog, id -> id % 10 == 3 ? " Regenerated again." + HistoryFunctionalTests.SHOP
                : id % 10 == 7 ? " Regenerated." + HistoryFunctionalTests.SHIPPING
                : id % 5 == 0 ? HistoryFunctionalTests.SHOP : "");
        Files.createFile(ChildRun.holdFile(dir));
        ChildRun child = ChildRun.start(dir, 0, "run", job.toString(), "--run-id", "n3", "--out",
                dir.resolve("out").toString());
        Result text;
        Result json;
        try {
            child.awaitOutput("starting run 'n3'", 120);
            ChildRun.pollUntil(dir, "SELECT COUNT(*) FROM sb_plan", n -> n == 3, 120, child.process);
            text = cli("plan", job.toString(), "--target-bound", "0.1");
            json = cli("plan", job.toString(), "--json");
        } finally {
            Files.deleteIfExists(ChildRun.holdFile(dir));
        }
        assertThat(child.await(180)).as(child.output()).isZero();

        // then with no run yet, the plan expects the Santa Method's target and carries nothing
        assertThat(none.exit()).as(none.err()).isZero();
        assertThat(none.out()).contains("carry-over: none (no exported run of the job to carry from)")
                .contains("expected:   first-pass rate 70.0 %, the Santa Method's target (no exported run of the job yet)");
        // and while the third night is live, the plan counts what it then did
        assertThat(json.exit()).as(json.err()).isZero();
        Map<?, ?> plan = new ObjectMapper().readValue(json.out(), Map.class);
        Map<String, Object> n3 = report("n3");
        Map<?, ?> carried = map(n3.get("carry_over"));
        assertThat(plan.get("items")).isEqualTo(ITEMS);
        assertThat(plan.get("rejects")).isEqualTo(2);
        assertThat(map(n3.get("input")).get("rejects")).isEqualTo(2);
        Map<?, ?> carry = map(plan.get("carry_over"));
        assertThat(carry.get("looked_at")).isEqualTo(List.of("n2", "n1"));
        for (String kind : List.of("carried", "nice", "held", "covered")) {
            assertThat(carry.get(kind)).as(kind).isEqualTo(carried.get(kind));
        }
        assertThat(carry.get("carried")).isNotEqualTo(0);
        assertThat(carry.get("covered")).isNotEqualTo(0);
        assertThat(carry.get("judged_afresh")).isEqualTo(carried.get("judged_afresh"));
        assertThat(map(carry.get("judged_afresh")).get("rules")).as("held by a rule, so judged afresh").isNotEqualTo(0);
        Map<?, ?> rules = map(plan.get("pre_pass"));
        assertThat(rules.get("held_by_rules")).isEqualTo(((Number) map(map(n3.get("run")).get("escalations_by_cause"))
                .get("rules")).intValue());
        assertThat(rules.get("fixed_by_rules")).as("T0033: regenerated, with a claim (T0143 has a banned term too)").isEqualTo(1)
                .isEqualTo(changes("n3", "rules"));
        assertThat(map(carry.get("judged_afresh")).get("changed")).isEqualTo(20);
        Map<?, ?> roundOne = map(((List<?>) n3.get("rounds")).get(0));
        Map<?, ?> sample = map(plan.get("round_1_sample"));
        assertThat(sample.get("eligible")).isEqualTo(roundOne.get("eligible"));
        assertThat(sample.get("size")).isEqualTo(roundOne.get("sample_size"));
        Map<String, Object> byCategory = new LinkedHashMap<>();
        map(roundOne.get("strata")).forEach((k, v) -> byCategory.put((String) k,
                Map.of("eligible", map(v).get("eligible"), "sample", map(v).get("sampled"))));
        assertThat(sample.get("by_category")).isEqualTo(byCategory);
        int n = (Integer) sample.get("size");
        assertThat((Double) sample.get("bound_if_clean")).isEqualTo(1 - Math.pow(0.05, 1.0 / n), within(1e-12));
        assertThat(plan.get("target")).isEqualTo(Map.of("bound", 0.05, "clean_sample_size", 59));
        // and it expects the median first-pass rate of the exported runs (the live one is not one)
        Map<?, ?> assumptions = map(plan.get("assumptions"));
        assertThat((Double) assumptions.get("first_pass_rate")).isEqualTo((rate1 + rate2) / 2,
                within(1e-12));
        assertThat(((List<?>) assumptions.get("runs")).stream().map(r -> map(r).get("run_id")).toList())
                .isEqualTo(List.of("n2", "n1"));
        assertThat(map(plan.get("round_1")).get("calls")).as("an offline panel calls no model").isEqualTo(0);
        // and the live run planned itself the same way, beside what it spent
        Map<String, Object> own = new LinkedHashMap<>(castMap(plan));
        own.remove("job");
        assertThat(map(n3.get("plan")).get("estimate")).isEqualTo(own);
        assertThat(map(map(n3.get("plan")).get("spent")).get("round_1")).isEqualTo(
                Map.of("calls", 0, "tokens", 0, "estimated_cost", 0.0));
        // and the text says the same
        assertThat(text.exit()).as(text.err()).isZero();
        List<String> lines = text.out().lines().toList();
        assertThat(lines.get(0)).isEqualTo("plan of job 'nightly' on " + catalog.toAbsolutePath() + " (no model call)");
        assertThat(lines.get(1)).isEqualTo("input:      " + ITEMS + " items, 2 rejects");
        assertThat(lines.get(2)).isEqualTo("carry-over: from 'n2', 'n1': nice " + carried.get("nice") + ", held "
                + carried.get("held") + " (not reviewed again), covered " + carried.get("covered") + " (eligible)");
        assertThat(lines).contains("pre-pass:   rules fix " + rules.get("fixed_by_rules") + " items, hold "
                + rules.get("held_by_rules"));
        assertThat(lines).anyMatch(l -> l.startsWith("round 1:    sample " + n + " of " + sample.get("eligible") + " ("));
        assertThat(lines).contains("target:     a bound below 10.0 % needs a clean sample of 29 items");
        assertThat(lines).anyMatch(l -> l.startsWith("expected:   first-pass rate " + pct((rate1 + rate2) / 2)
                + ", the median of 'n2' " + pct(rate2) + ", 'n1' " + pct(rate1) + ";"));
        assertThat(lines).anyMatch(l -> l.matches("round 1 +0 +0 +0 +0 +0 +0 +0\\.0000"));
        assertThat(lines).contains("note:       no model reviewer: reviews are offline checks, not model calls");
    }

    @Test
    void aBadJobFileOrAMissingCatalogIsExit2() throws Exception {
        Path job = TestJobs.writeJob(dir, "nightly", TestJobs.writeCatalog(dir.resolve("in.csv"), TestJobs.rows(5)), 50);
        Files.writeString(job, Files.readString(job).replace("task-spec:", "task-spek:"));

        Result bad = cli("plan", job.toString());
        Path good = TestJobs.writeJob(dir, "other", dir.resolve("in.csv"), 50);
        Result missing = cli("plan", good.toString(), "--input", dir.resolve("absent.csv").toString());
        Result target = cli("plan", good.toString(), "--target-bound", "5");

        assertThat(bad.exit()).isEqualTo(2);
        assertThat(bad.out()).isEmpty();
        int line = Files.readAllLines(job).indexOf(Files.readAllLines(job).stream().filter(l -> l.startsWith("task-spek"))
                .findFirst().orElseThrow()) + 1;
        assertThat(bad.err()).startsWith("santa-batch: invalid job file: " + job + ":" + line + ":").contains("task-spek");
        assertThat(missing.exit()).isEqualTo(2);
        assertThat(missing.err()).contains("absent.csv does not exist or is not a readable file");
        assertThat(target.exit()).isEqualTo(2);
        assertThat(target.err()).contains("--target-bound: must be between 0 and 1");
    }

    // ---------------------------------------------------------------- fixtures

    /**
     * {@link HistoryFunctionalTests#writeCatalog}, with a substitutable claim in every eleventh item and
     * a banned term no rule can fix in every thirteenth, then a row of too few fields and a second row
     * of the first item's id.
     */
    private static void writeCatalog(Path file, java.util.function.IntFunction<String> extra) throws Exception {
        HistoryFunctionalTests.writeCatalog(file, id -> extra.apply(id) + (id % 11 == 0 ? " A miracle." : "")
                + (id % 13 == 0 ? " No scam." : ""));
        Files.writeString(file, "T9998,too,few\n"
                + org.apache.commons.csv.CSVFormat.RFC4180.format(TestJobs.rows(1).get(0).toArray()) + "\r\n",
                StandardOpenOption.APPEND);
    }

    private Path job(Path catalog) throws Exception {
        Path job = TestJobs.writeJob(dir, "nightly", catalog, 50);
        String rules = """
                  - id: compliance
                    pass: No claims.
                    fail-signal: A claim.
                    checked-by: rules
                    rules:
                      - id: claims
                        type: forbidden-terms
                        terms: [miracle]
                        replacements:
                          miracle: remarkable
                        fix: substitute
                      - id: banned
                        type: forbidden-terms
                        terms: [scam]
                run:
                """;
        Files.writeString(job, Files.readString(job).replace("run:\n", rules) + "sampling:\n  seed: 7\n");
        return job;
    }

    private int run(Path job, String runId) {
        StopSignal.reset();
        return Launcher.run(new RunRequest(job, null, dir.resolve("out"), runId, null), TestJobs.h2(dir), quiet(),
                System.err, HistoryFunctionalTests.panel("carries the shop-now boilerplate sentence", null));
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

    /** The rows of a run's {@code changes.csv} of the given cause. */
    private int changes(String runId, String cause) throws Exception {
        List<List<String>> rows = TestJobs.readCsv(dir.resolve("out/nightly").resolve(runId).resolve("changes.csv"));
        int column = rows.get(0).indexOf("cause");
        return (int) rows.stream().skip(1).filter(r -> r.get(column).equals(cause)).count();
    }

    private static double rate(Map<String, Object> report) {
        return ((Number) map(report.get("run")).get("first_pass_rate")).doubleValue();
    }

    private static String pct(double d) {
        return String.format(Locale.ROOT, "%.1f %%", d * 100);
    }

    private static Map<?, ?> map(@Nullable Object o) {
        return o instanceof Map<?, ?> m ? m : Map.of();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> castMap(Map<?, ?> m) {
        return (Map<String, Object>) m;
    }

    private static PrintStream quiet() {
        return new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
    }
}
