package dev.santabatch.export;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** report.json's shape as the typed records write it, and what they read back. */
class ReportJsonTests {

    @TempDir
    Path dir;

    static Report.Round round(Double firstPassRate, Integer acceptanceNumber) {
        return new Report.Round(1, 7, 100, 15, false, Map.of("a", new Report.Quota(15, 100)), "clean", acceptanceNumber,
                acceptanceNumber == null ? null : 0, firstPassRate, null, 15, 15, 0, 0, Map.of(), 0, 0, Map.of(),
                new Report.Agreement(0, 0, 0, null, null, null, null, null, null, null, "undefined",
                        "no item reviewed by the whole panel", null, null),
                List.of(), SpendReport.modelCost(dev.santabatch.model.SpendSnapshot.NONE, 100, 0, 1.0, 0));
    }

    static Report report(Report.Round round) {
        Report.Run run = new Report.Run(1, null, null, 15, 0, Map.of(), Map.of(), 0, 0, Map.of(), List.of(),
                round.agreement(), Report.Bound.notStated("no clean sample: no bound can be stated", null),
                List.of(RunReport.escapeTarget(null, null, null)), null, new Report.Cost(round.cost(), null));
        return new Report("clean", null, "job", "r1", new Report.Input(100, 100, 0),
                new Report.Outputs("catalog.csv", 100, 0L, 0L, 0L, null), null, null,
                new Report.PrePass(List.of()), List.of(), null, List.of(round), null, run, null, null, List.of(), null,
                null, null, null, null, null);
    }

    @Test
    void keysAreSnakeCaseInTheirOrderWithAbsentSectionsLeftOutAndUnmeasuredFiguresWrittenAsNull() throws Exception {
        Path file = dir.resolve("report.json");
        RunReport.write(file, report(round(null, null)));

        Map<String, Object> tree = RunReport.read(file);
        assertThat(tree.keySet()).containsExactly("status", "job", "run_id", "input", "outputs", "pre_pass",
                "learned_rules", "rounds", "run", "warnings");
        @SuppressWarnings("unchecked")
        Map<String, Object> r = ((List<Map<String, Object>>) tree.get("rounds")).get(0);
        // a round without an acceptance number has no such key; its first-pass rate is there, null
        assertThat(r).doesNotContainKeys("acceptance_number", "failures").containsEntry("first_pass_rate", null)
                .containsEntry("mean_reviews_to_nice", null).containsEntry("strata", Map.of("a",
                        Map.of("sampled", 15, "eligible", 100)));
        // without a model reviewer the cost's shares are there, null
        @SuppressWarnings("unchecked")
        Map<String, Object> cost = (Map<String, Object>) r.get("cost");
        assertThat(cost).containsEntry("shares", null).containsKey("why")
                .doesNotContainKey("share_of_full_santa_on_every_item");
        assertThat(cost.get("by_kind")).isEqualTo(Map.of("reviewers", Map.of("calls", 0, "tokens", 0),
                "fixer", Map.of("calls", 0, "tokens", 0), "matcher_and_other", Map.of("calls", 0, "tokens", 0)));
        assertThat(List.copyOf(r.keySet()).subList(0, 8)).containsExactly("round", "seed", "eligible", "sample_size",
                "full_review", "strata", "decision", "first_pass_rate");
        @SuppressWarnings("unchecked")
        Map<String, Object> target = ((List<Map<String, Object>>) ((Map<String, Object>) tree.get("run"))
                .get("seed_targets")).get(0);
        assertThat(target).containsEntry("measured", null).doesNotContainKeys("audited", "interval_95")
                .containsKey("how_to_measure");
        assertThat(Files.readString(file)).contains("\"outputs\" : {\n    \"shipped_file\" : \"catalog.csv\"");
        // and what is written reads back as the same report
        assertThat(RunReport.load(file)).isEqualTo(report(round(null, null)));
    }

    @Test
    void anEarlierVersionsReportWithKeysTheRecordsDoNotKnowIsRead() throws Exception {
        Path file = dir.resolve("report.json");
        Files.writeString(file, """
                {"status": "clean", "job": "j", "run_id": "old", "retired_key": {"x": 1},
                 "input": {"records": 3, "items": 3, "rejects": 0, "encoding": "UTF-8"},
                 "outputs": {"shipped": 3, "held": 0},
                 "run": {"rounds": 1, "first_pass_rate": 0.9, "old_figure": 2,
                         "model_calls": {"run": {"calls": 4, "estimated_cost": 0.5}}},
                 "escape_rate_audit": {"audited": 2, "defective": 0, "escape_rate": 0.0}}
                """);

        Report r = (Report) RunReport.load(file);

        assertThat(r.runId()).isEqualTo("old");
        assertThat(r.run().firstPassRate()).isEqualTo(0.9);
        RunTrend.Point p = RunTrend.withCurrent(List.of(), r).get(0);
        assertThat(p.estimatedCost()).isEqualTo(0.5);
        assertThat(p.escapeRate()).isEqualTo(0.0);
        assertThat(SummaryEvent.fields(r, 0)).containsEntry("santa.model_calls", 4L).containsEntry("santa.shipped", 3L);
    }

    @Test
    void aFailedRunsReportIsReadAsOne() throws Exception {
        Path file = dir.resolve("report.json");
        RunReport.write(file, FailedRunReport.withoutStore("j", "r1", 5, "FAILED", "a step failed", List.of("boom"),
                "santa-batch run j.yml --run-id r1", "connection refused"));

        assertThat(RunReport.read(file).keySet()).containsExactly("status", "job", "run_id", "execution", "failures",
                "restart", "outputs", "store");
        FailedReport r = (FailedReport) RunReport.load(file);
        assertThat(r.execution().batchStatus()).isEqualTo("FAILED");
        assertThat(r.outputs().shipped()).isZero();
        assertThat(r.store().readable()).isFalse();
    }
}
