package dev.santabatch.model;

import static org.assertj.core.api.Assertions.assertThat;

import dev.santabatch.execution.StopSignal;
import dev.santabatch.batch.Extensions;
import dev.santabatch.export.RunReport;
import dev.santabatch.run.Launcher;
import dev.santabatch.run.RunRequest;
import dev.santabatch.run.TestJobsAccess;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The model roles wired into the whole job, against a scripted OpenAI-compatible server on
 * 127.0.0.1: a reached budget stops the run cleanly and a raised budget resumes it with spend
 * counted cumulatively; an authentication failure fails the run at once.
 */
class LlmJobWiringTests {

    static final String MARKER = " Shop now, limited stock!";

    static final ScriptedCatalogModel MODEL = new ScriptedCatalogModel(List.of(new ScriptedCatalogModel.Defect(
            "original", "carries the shop-now boilerplate sentence", t -> t.contains(MARKER.strip()),
            t -> t.replace(MARKER, "").replace(MARKER.strip(), "").strip())));

    @TempDir
    Path dir;

    @BeforeEach
    void reset() {
        StopSignal.reset();
    }

    private Path job(ScriptedServer server, String budget) throws Exception {
        return job(server, budget, 150, 10);
    }

    private Path job(ScriptedServer server, String budget, int items, int every) throws Exception {
        List<List<String>> rows = new ArrayList<>();
        for (List<String> r : TestJobsAccess.rows(items)) {
            List<String> row = new ArrayList<>(r);
            if (Integer.parseInt(row.get(0).substring(1)) % every == 0) {
                row.set(7, row.get(7).strip() + MARKER);
            }
            rows.add(row);
        }
        Path catalog = TestJobsAccess.writeCatalog(dir.resolve("in.csv"), rows);
        Path job = TestJobsAccess.writeJob(dir, "llmjob", catalog, 20);
        String models = """
                  concurrency: 4
                sampling:
                  seed: 11
                reviewers:
                  - id: B
                    type: llm
                    model: {base-url: %1$s, model: family-a-model, api-key-env: SANTA_TEST_KEY, timeout: 5s,
                            price-input-per-million: 1.0, price-output-per-million: 2.0}
                  - id: C
                    type: llm
                    model: {base-url: %1$s, model: family-b-model, api-key-env: SANTA_TEST_KEY, timeout: 5s}
                fixer:
                  type: llm
                  model: {base-url: %1$s, model: family-a-model, api-key-env: SANTA_TEST_KEY, timeout: 5s}
                governor:
                  initial-backoff: 10ms
                  max-backoff: 40ms
                """.formatted(server.baseUrl());
        Files.writeString(job, Files.readString(job) + models + budget);
        return job;
    }

    private record Run(int exit, String out, String err) {
        Run(int exit, String out) {
            this(exit, out, "");
        }
    }

    /** Learned rules off: the matcher wiring is under test, and a learned rule would fix the boilerplate without it. */
    private Run run(Path job) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        java.util.Map<String, Object> props = new java.util.HashMap<>(TestJobsAccess.h2(dir));
        props.put(dev.santabatch.batch.SantaJobConfiguration.LEARNED_RULES_PROPERTY, "false");
        int exit = Extensions.run(new RunRequest(job, null, dir.resolve("out"), "r1", null), props,
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8),
                Extensions.withEnv(LlmFixtures.KEYS));
        System.err.print(err.toString(StandardCharsets.UTF_8));
        return new Run(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object o) {
        return (Map<String, Object>) o;
    }

    @Test
    void aReachedBudgetStopsCleanlyAndARaisedBudgetResumesWithSpendCountedCumulatively() throws Exception {
        try (ScriptedServer server = ScriptedServer.answering(MODEL::answer)) {
            // given a budget of 12 calls, far less than the round's 18 sampled items need (and no
            // isolated failure accepted in a sample, so that the marker carried by every tenth item
            // is batch-fixed, never shipped: what this test checks of the resumed loop)
            Path job = job(server, "budget:\n  max-calls: 12\nsanta:\n  acceptance-number: 0\n");

            // when the run starts
            Run first = run(job);

            // then it stops cleanly: STOPPED, exit 3, outputs exported with status budget-stopped
            assertThat(first.exit()).as(first.out()).isEqualTo(3);
            assertThat(first.out()).contains("STOPPED (budget reached) (exit 3)").contains("status:   BUDGET-STOPPED")
                    .contains("budget.max-calls reached").contains("raise the budget");
            Path out = dir.resolve("out/llmjob/r1");
            // nothing looks shippable: verified.csv and unverified.csv, no catalog.csv
            assertThat(out.resolve("catalog.csv")).doesNotExist();
            assertThat(out.resolve("verified.csv")).exists();
            assertThat(out.resolve("unverified.csv")).exists();
            assertThat(out.resolve("escalations.csv")).exists();
            Map<String, Object> report = RunReport.read(out.resolve("report.json"));
            assertThat(report.get("status")).isEqualTo("budget-stopped");
            Map<String, Object> stop = map(report.get("budget_stop"));
            assertThat(((Number) stop.get("sampled_not_reviewed")).intValue()).isPositive();
            Map<String, Object> calls = map(map(report.get("run")).get("model_calls"));
            assertThat(((Number) map(calls.get("run")).get("calls")).intValue()).isEqualTo(12)
                    .isEqualTo(server.requests().size());
            assertThat(map(map(calls.get("run")).get("by_role"))).containsKeys("reviewer:B", "reviewer:C");
            assertThat(((Number) map(map(map(calls.get("run")).get("by_role")).get("reviewer:B")).get("input_tokens"))
                    .longValue()).isPositive();
            int afterFirst = server.requests().size();

            // when the budget is raised and the same run id runs again
            Files.writeString(job, Files.readString(job).replace("max-calls: 12", "max-calls: 5000"));
            Run second = run(job);

            // then it resumes and finishes, and the stored spend counts both executions
            assertThat(second.exit()).as(second.out()).isZero();
            assertThat(second.out()).contains("resuming run 'r1'");
            report = RunReport.read(out.resolve("report.json"));
            calls = map(map(report.get("run")).get("model_calls"));
            assertThat(((Number) map(calls.get("run")).get("calls")).intValue()).isEqualTo(server.requests().size())
                    .isGreaterThan(afterFirst);
            List<Map<String, Object>> rounds = (List<Map<String, Object>>) calls.get("rounds");
            assertThat(rounds).isNotEmpty();
            assertThat(rounds.stream().mapToLong(r -> ((Number) r.get("calls")).longValue()).sum())
                    .isEqualTo(server.requests().size());
            // nothing defective shipped, and the panel is flagged as two families (no same-model flag)
            assertThat(Files.readString(out.resolve("catalog.csv"))).doesNotContain(MARKER.strip());
            assertThat(map(report.get("panel")).get("same_model_reviewers")).isEqualTo(List.of());
        }
    }

    @Test
    void reviewersOnOneEndpointAndModelAreWarnedAboutAtLoadAndFlaggedInTheReport() throws Exception {
        try (ScriptedServer server = ScriptedServer.answering(MODEL::answer)) {
            // given B and C on the same endpoint with the same model (C's base URL with a trailing slash)
            Path job = job(server, "");
            String text = Files.readString(job);
            String c = "model: {base-url: " + server.baseUrl() + ", model: family-b-model";
            assertThat(text).contains(c);
            Files.writeString(job, text.replace(c, "model: {base-url: " + server.baseUrl() + "/, model: family-a-model"));
            String same = "B and C: model 'family-a-model' at " + server.baseUrl();

            Run run = run(job);

            // then the load warns, the report flags the panel, and the summary says so
            assertThat(run.exit()).as(run.out()).isZero();
            assertThat(run.err()).contains("santa-batch: warning: ").contains("reviewers " + same
                    + " use the same endpoint and model: they share its biases");
            Map<String, Object> report = RunReport.read(dir.resolve("out/llmjob/r1/report.json"));
            Map<String, Object> panel = map(report.get("panel"));
            assertThat(panel.get("same_model_reviewers")).isEqualTo(List.of(same));
            assertThat((String) panel.get("flag")).contains("reviewers share an endpoint and model (" + same + ")")
                    .contains("use different model families");
            assertThat((List<?>) report.get("warnings")).anySatisfy(w -> assertThat((String) w).contains(same));
            assertThat(run.out()).contains("panel:    <-- reviewers share an endpoint and model (" + same + ")");
            // and both reviewers really called that one model
            assertThat(server.requests()).filteredOn(r -> r.body().contains("independent quality reviewer"))
                    .isNotEmpty().allSatisfy(r -> assertThat(r.json().get("model").asText()).isEqualTo("family-a-model"));
        }
    }

    @Test
    void aModelPanelBatchFixesThroughTheMatcherOnNarrowedCandidates() throws Exception {
        try (ScriptedServer server = ScriptedServer.answering(MODEL::answer)) {
            // given 300 items, every eighth carrying the boilerplate; the matcher is the llm fixer's model
            Path job = job(server, "", 300, 8);

            Run run = run(job);

            assertThat(run.exit()).as(run.out()).isZero();
            Path out = dir.resolve("out/llmjob/r1");
            assertThat(Files.readString(out.resolve("changes.csv"))).contains("batch-fix");
            assertThat(Files.readString(out.resolve("catalog.csv"))).doesNotContain(MARKER.strip());
            Map<String, Object> report = RunReport.read(out.resolve("report.json"));
            Map<String, Object> matcher = map(map(map(report.get("run")).get("model_calls")).get("matcher"));
            List<Map<String, Object>> patterns = (List<Map<String, Object>>) matcher.get("patterns");
            assertThat(patterns).isNotEmpty().allSatisfy(p -> {
                assertThat(((Number) p.get("requests")).longValue()).isPositive();
                assertThat(((Number) p.get("share_of_eligible")).doubleValue()).isLessThanOrEqualTo(0.25);
            });
            // the matcher's requests carry the sample's fixes as examples; the batch fix made no review calls
            List<ScriptedServer.Recorded> matches = server.requests().stream()
                    .filter(r -> r.body().contains("You check one text for one known problem")).toList();
            assertThat(matches).isNotEmpty().allSatisfy(r -> assertThat(r.body()).contains("<example>"));
            long reviews = server.requests().stream().filter(r -> r.body().contains("independent quality reviewer")).count();
            Map<String, Object> byRole = map(map(map(map(report.get("run")).get("model_calls")).get("run")).get("by_role"));
            assertThat(((Number) map(byRole.get("matcher")).get("calls")).longValue()).isEqualTo(matches.size());
            // model calls are reported once (run.model_calls); the cost shares count every one of them
            Map<String, Object> cost = map(map(report.get("run")).get("cost"));
            assertThat(cost).doesNotContainKey("model_calls");
            Map<String, Object> model = map(cost.get("model"));
            assertThat(((Number) model.get("calls")).longValue()).isEqualTo(server.requests().size());
            assertThat(((Number) model.get("model_reviewers")).intValue()).isEqualTo(2);
            assertThat(((Number) map(model.get("share_of_full_santa_on_every_item")).get("calls")).doubleValue())
                    .isEqualTo(server.requests().size() / ((Number) map(model.get("baseline_full_santa")).get("calls")).doubleValue());
            assertThat(((Number) map(byRole.get("reviewer:B")).get("calls")).longValue()
                    + ((Number) map(byRole.get("reviewer:C")).get("calls")).longValue()).isEqualTo(reviews);
        }
    }

    @Test
    void anAuthenticationFailureFailsTheRunAtOnce() throws Exception {
        try (ScriptedServer server = ScriptedServer.replying(ScriptedServer.Reply.status(401,
                "{\"error\":{\"message\":\"Incorrect API key provided\",\"type\":\"invalid_request_error\"}}",
                Map.of("Content-Type", "application/json")))) {
            Path job = job(server, "");

            Run run = run(job);

            assertThat(run.exit()).as(run.out()).isEqualTo(1);
            // the failure line says what to do: which model at which endpoint, which environment variable to check
            String failure = run.out().lines().filter(l -> l.strip().startsWith("failure:")).findFirst().orElseThrow();
            assertThat(failure).containsPattern("authentication failed for model 'family-[ab]-model' at "
                            + java.util.regex.Pattern.quote(server.baseUrl()))
                    .contains("check the environment variable " + LlmFixtures.KEY_ENV)
                    .contains("Incorrect API key provided");
            assertThat(run.out()).contains("FAILED (exit 1)").doesNotContain(LlmFixtures.SECRET);
            // no retries of a 401: at most one attempt per call started before the step failed
            assertThat(server.requests().size()).isLessThanOrEqualTo(8);
        }
    }
}
