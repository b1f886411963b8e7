package dev.santabatch.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.santabatch.batch.Extensions;
import dev.santabatch.cli.Cli;
import dev.santabatch.execution.StopSignal;
import dev.santabatch.export.RunReport;
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

        // when the plan is asked for a third night over a catalog regenerated in part again, and that
        // night then runs in another process, held in its review while the plan is asked for again
        writeCatalog(catalog, id -> id % 10 == 3 ? " Regenerated again." + HistoryFunctionalTests.SHOP
                : id % 10 == 7 ? " Regenerated." + HistoryFunctionalTests.SHIPPING
                : id % 5 == 0 ? HistoryFunctionalTests.SHOP : "");
        Result before = cli("plan", job.toString(), "--json");
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
        // and the plan of the third night counts what it then did
        assertThat(before.exit()).as(before.err()).isZero();
        Map<?, ?> plan = new ObjectMapper().readValue(before.out(), Map.class);
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
        assertThat(map(carry.get("judged_afresh")).get("changed")).isEqualTo(20);
        Map<?, ?> rules = map(plan.get("pre_pass"));
        assertThat(rules.get("held_by_rules")).isEqualTo(((Number) map(map(n3.get("run")).get("escalations_by_cause"))
                .get("rules")).intValue());
        assertThat(rules.get("fixed_by_rules")).as("T0033: regenerated, with a claim (T0143 has a banned term too)")
                .isEqualTo(1).isEqualTo(changes("n3", "rules"));
        // per stratum: the changed one by category at the rate, the covered one with its fixed size
        Map<?, ?> roundOne = map(((List<?>) n3.get("rounds")).get(0));
        Map<?, ?> sample = map(plan.get("round_1_sample"));
        assertThat(sample.get("eligible")).isEqualTo(roundOne.get("eligible"));
        assertThat(sample.get("size")).isEqualTo(roundOne.get("sample_size"));
        Map<String, Object> byCategory = new LinkedHashMap<>();
        map(roundOne.get("strata")).forEach((k, v) -> {
            if (!"(covered)".equals(k)) {
                byCategory.put((String) k, Map.of("eligible", map(v).get("eligible"), "sample", map(v).get("sampled")));
            }
        });
        assertThat(sample.get("by_category")).isEqualTo(byCategory);
        List<?> strata = (List<?>) plan.get("strata");
        assertThat(strata).hasSize(2);
        Map<?, ?> changed = map(strata.get(0));
        Map<?, ?> covered = map(strata.get(1));
        Map<?, ?> ranCovered = map(((List<?>) map(n3.get("strata")).get("per_stratum")).get(1));
        assertThat(covered.get("stratum")).isEqualTo("covered");
        assertThat(covered.get("eligible")).isEqualTo(ranCovered.get("items")).isEqualTo(carry.get("covered"));
        assertThat(covered.get("sample")).isEqualTo(ranCovered.get("sampled"));
        assertThat(covered.get("looks")).isEqualTo(ranCovered.get("looks"));
        assertThat(covered.get("last_look")).isEqualTo(ranCovered.get("previous_look")).isEqualTo("n2");
        assertThat((Integer) changed.get("sample") + (Integer) covered.get("sample")).isEqualTo(sample.get("size"));
        int n = (Integer) changed.get("sample");
        // 18 items: fewer than sampling.full-review-below, each reviewed (its bound 0)
        assertThat(changed.get("eligible")).isEqualTo(18).isEqualTo(n);
        assertThat(changed.get("sampling")).isEqualTo("every item (fewer than 100)");
        assertThat(changed.get("bound_if_clean")).isEqualTo(0.0);
        // the covered one: n = min(N, ceil(ln(0.05 / (2 k)) / ln(0.95))), 86 at its second look: all 41
        assertThat(covered.get("looks")).isEqualTo(2);
        assertThat(covered.get("eligible")).isEqualTo(41);
        assertThat(covered.get("sample")).isEqualTo(41);
        assertThat(covered.get("bound_if_clean")).isEqualTo(0.0);
        assertThat(sample.get("bound_if_clean")).isEqualTo(0.0);
        long changedItems = 18;
        long coveredItems = 41;
        // a bound below 5 % (the job's carry-over.target-bound) with 2 strata: the changed stratum at its one
        // look, ln(0.05 / 2) / ln(0.95) = 71.9; the covered one at its second, ln(0.05 / 4) / ln(0.95) = 85.4
        assertThat(plan.get("target")).isEqualTo(Map.of("bound", 0.05, "strata", 2, "per_stratum", List.of(
                Map.of("stratum", "changed", "looks", 1, "clean_sample_size", 72),
                Map.of("stratum", "covered", "looks", 2, "clean_sample_size", 86))));
        // and it expects the median first-pass rate of the exported runs
        Map<?, ?> assumptions = map(plan.get("assumptions"));
        assertThat((Double) assumptions.get("first_pass_rate")).isEqualTo((rate1 + rate2) / 2, within(1e-12));
        assertThat(((List<?>) assumptions.get("runs")).stream().map(r -> map(r).get("run_id")).toList())
                .isEqualTo(List.of("n2", "n1"));
        assertThat(map(plan.get("round_1")).get("calls")).as("an offline panel calls no model").isEqualTo(0);
        // and the run planned itself the same way, beside what it spent
        Map<String, Object> own = new LinkedHashMap<>(castMap(plan));
        own.remove("job");
        assertThat(map(n3.get("plan")).get("estimate")).isEqualTo(own);
        assertThat(map(map(n3.get("plan")).get("spent")).get("round_1")).isEqualTo(
                Map.of("calls", 0, "tokens", 0, "estimated_cost", 0.0));

        // and while it is live, the plan reads the store: the same counts, its look at the covered stratum the last
        assertThat(json.exit()).as(json.err()).isZero();
        Map<?, ?> live = new ObjectMapper().readValue(json.out(), Map.class);
        for (String key : List.of("items", "rejects", "carry_over", "pre_pass", "assumptions")) {
            assertThat(live.get(key)).as(key).isEqualTo(plan.get(key));
        }
        Map<?, ?> liveCovered = map(((List<?>) live.get("strata")).get(1));
        assertThat(liveCovered.get("last_look")).isEqualTo("n3");
        assertThat(liveCovered.get("looks")).isEqualTo((Integer) covered.get("looks") + 1);
        // and the text says the same
        assertThat(text.exit()).as(text.err()).isZero();
        List<String> lines = text.out().lines().toList();
        assertThat(lines.get(0)).isEqualTo("plan of job 'nightly' on " + catalog.toAbsolutePath() + " (no model call)");
        assertThat(lines.get(1)).isEqualTo("input:      " + ITEMS + " items, 2 rejects");
        assertThat(lines.get(2)).isEqualTo("carry-over: from 'n2', 'n1': nice " + carried.get("nice") + ", held "
                + carried.get("held") + " (not reviewed again), covered " + carried.get("covered") + " (eligible)");
        assertThat(lines).contains("pre-pass:   rules fix 1 items, hold " + rules.get("held_by_rules"));
        assertThat(lines).contains("eligible:   " + sample.get("eligible") + ": changed " + changedItems + ", covered "
                + coveredItems);
        assertThat(lines).anyMatch(l -> l.startsWith("round 1:    sample " + liveSize(live) + ": changed " + n + " ("));
        // ln(0.05 / 2) / ln(0.9) = 35.0; the live run's look at the covered stratum the third: ln(0.05 / 6) / ln(0.9) = 45.4
        assertThat(lines).contains("target:     a bound below 10.0 % needs a clean sample of 36 items in the changed stratum"
                + " (look 1) and 46 in the covered one (look 3)");
        assertThat(lines).anyMatch(l -> l.startsWith("expected:   first-pass rate " + pct((rate1 + rate2) / 2)
                + ", the median of 'n2' " + pct(rate2) + ", 'n1' " + pct(rate1) + ";"));
        assertThat(lines).anyMatch(l -> l.matches("round 1 +0 +0 +0 +0 +0 +0 +0\\.0000"));
        assertThat(lines).contains("note:       no model reviewer: reviews are offline checks, not model calls");
    }

    private static Object liveSize(Map<?, ?> plan) {
        return map(plan.get("round_1_sample")).get("size");
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
        Path job = TestJobs.withClaimRules(TestJobs.writeJob(dir, "nightly", catalog, 50));
        Files.writeString(job, Files.readString(job) + "sampling:\n  seed: 7\n");
        return job;
    }

    private int run(Path job, String runId) {
        StopSignal.reset();
        return Extensions.run(new RunRequest(job, null, dir.resolve("out"), runId, null), TestJobs.h2(dir), quiet(),
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
