package dev.santabatch.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.santabatch.export.RunReport;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code santa-batch plan} against what a model-backed run then makes, at a {@link CatalogModelServer}
 * that sees every call: two nights of the job on regenerated catalogs give the plan its history; the
 * plan of a third night, whose catalog fails more of round 1's sample than that history predicts,
 * expects round 1's calls within 10 % of those the run makes, and the run records the same estimate
 * beside what it spent.
 */
class PlanModelFunctionalTests {

    @TempDir
    Path dir;

    @Test
    void roundOnesCallEstimateIsWithinTenPercentOfTheCallsTheRunMadeOnANightOfAnotherDefectRate() throws Exception {
        // given two nights on regenerated catalogs
        night("n1", 11);
        night("n2", 12);

        // when a third night is planned, then run
        LlmJobs.Catalog catalog = LlmJobs.catalog(dir.resolve("n3"), 13, 250);
        Map<?, ?> plan;
        Map<String, Object> report;
        int serverCalls;
        try (CatalogModelServer server = CatalogModelServer.start(CatalogModelServer.reviewerDefects(catalog.truth()))) {
            Path job = LlmJobs.writeJob(dir, "llm", catalog, server.baseUrl(), 4, "");
            LlmJobs.Result planned = LlmJobs.cli(LlmJobs.props(dir), "plan", job.toString(), "--json");
            assertThat(planned.exit()).as(planned.all()).isZero();
            assertThat(server.calls()).as("a plan calls no model").isEmpty();
            plan = new ObjectMapper().readValue(planned.out(), Map.class);
            LlmJobs.Result run = LlmJobs.run(dir, job, "n3");
            assertThat(run.exit()).as(run.all()).isZero();
            report = RunReport.read(dir.resolve("out/llm/n3/report.json"));
            serverCalls = server.calls().size();
        }

        // then the night's round 1 failed another share of its sample than the plan assumed
        Map<?, ?> assumptions = map(plan.get("assumptions"));
        double assumedFailures = 1 - number(assumptions.get("first_pass_rate"));
        assertThat((List<?>) assumptions.get("runs")).as("the plan's history").hasSize(2);
        Map<?, ?> roundOne = map(((List<?>) report.get("rounds")).get(0));
        double failures = number(roundOne.get("failures")) / number(roundOne.get("sample_size"));
        assertThat(Math.abs(failures - assumedFailures)).as("round 1's failure share against the plan's")
                .isGreaterThan(0.3 * assumedFailures);
        // and yet the plan's round-1 calls are within 10 % of those the run made
        Map<?, ?> modelCalls = map(map(report.get("run")).get("model_calls"));
        assertThat(number(map(modelCalls.get("run")).get("calls"))).as("the run counts every call the server had")
                .isEqualTo(serverCalls);
        double made = number(map(((List<?>) modelCalls.get("rounds")).get(0)).get("calls"));
        double expected = number(map(plan.get("round_1")).get("calls"));
        assertThat(map(map(plan.get("round_1")).get("by_kind")).get("matcher")).as("the batch fix's matcher calls")
                .isNotEqualTo(0);
        assertThat(expected).isCloseTo(made, within(0.10 * made));
        // and the plan counted round 1's population and sample as the run then drew them
        assertThat(number(plan.get("items"))).isEqualTo(number(map(report.get("input")).get("items")));
        assertThat(number(map(plan.get("round_1_sample")).get("eligible"))).isEqualTo(number(roundOne.get("eligible")));
        assertThat(number(map(plan.get("round_1_sample")).get("size"))).isEqualTo(number(roundOne.get("sample_size")));
        // and the run recorded the same estimate beside what it spent
        Map<?, ?> recorded = map(report.get("plan"));
        assertThat(map(map(recorded.get("estimate")).get("round_1"))).isEqualTo(map(plan.get("round_1")));
        assertThat(number(map(map(recorded.get("spent")).get("round_1")).get("calls"))).isEqualTo(made);
        assertThat(number(recorded.get("round_1_calls_spent_per_estimated"))).isCloseTo(made / expected, within(1e-9));
    }

    /** A night of the job on a catalog generated from {@code seed}, at a server that knows its defects. */
    private void night(String id, long seed) throws Exception {
        LlmJobs.Catalog catalog = LlmJobs.catalog(dir.resolve(id), seed, 250);
        try (CatalogModelServer server = CatalogModelServer.start(CatalogModelServer.reviewerDefects(catalog.truth()))) {
            Path job = LlmJobs.writeJob(dir, "llm", catalog, server.baseUrl(), 4, "");
            LlmJobs.Result r = LlmJobs.run(dir, job, id);
            assertThat(r.exit()).as(r.all()).isZero();
        }
    }

    private static Map<?, ?> map(Object o) {
        return o instanceof Map<?, ?> m ? m : Map.of();
    }

    private static double number(Object o) {
        return ((Number) o).doubleValue();
    }
}
