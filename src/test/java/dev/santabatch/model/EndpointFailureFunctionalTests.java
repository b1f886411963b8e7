package dev.santabatch.model;

import static org.assertj.core.api.Assertions.assertThat;

import dev.santabatch.model.CatalogModelServer.Fault;
import dev.santabatch.export.RunReport;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An endpoint that is down or refuses the key, in whole-job runs against the scripted server: an
 * outage opens the governor's circuit breaker after {@code governor.circuit-breaker-failures}
 * consecutive failures and fails the step in one line naming the endpoint, without a stack trace;
 * a 401 whose body echoes the key shows no fragment of it, and attempts never sent after it are
 * counted {@code cancelled}, not {@code connection}.
 */
class EndpointFailureFunctionalTests {

    @TempDir
    Path dir;

    private final ByteArrayOutputStream console = new ByteArrayOutputStream();
    private PrintStream originalOut;
    private PrintStream originalErr;

    @BeforeEach
    void captureConsole() {
        originalOut = System.out;
        originalErr = System.err;
        PrintStream tee = new PrintStream(console, true, StandardCharsets.UTF_8);
        System.setOut(tee);
        System.setErr(tee);
    }

    @AfterEach
    void restoreConsole() {
        System.setOut(originalOut);
        System.setErr(originalErr);
    }

    String console() {
        return console.toString(StandardCharsets.UTF_8);
    }

    Map<String, Object> report(String runId) throws Exception {
        return RunReport.read(dir.resolve("out/faults/" + runId + "/report.json"));
    }

    @Test
    void anOutageOpensTheCircuitBreakerAndFailsTheStepInOneLineNamingTheEndpoint() throws Exception {
        LlmJobs.Catalog catalog = LlmJobs.catalog(dir, 11, 150);
        try (CatalogModelServer server = CatalogModelServer.start(CatalogModelServer.reviewerDefects(catalog.truth()))) {
            // given an endpoint that answers every request with 503, and the default breaker (20 consecutive failures)
            server.outage(true);
            Path job = LlmJobs.writeJob(dir, "faults", catalog, server.baseUrl(), 4, LlmFaultFunctionalTests.FAST_RETRIES);

            LlmJobs.Result r = LlmJobs.run(dir, job, "r1");

            // then the step fails after the breaker's count (plus what was in flight beside the last one:
            // 4 items x 2 reviewers), not after every item's retries (18 items x 2 reviewers x 4 attempts)
            assertThat(r.exit()).as(r.all()).isEqualTo(1);
            int calls = server.calls().size();
            assertThat(calls).isBetween(20, 20 + 8);
            // in one line naming the endpoint and what it answered
            String failure = r.out().lines().filter(l -> l.contains("failure:")).findFirst().orElseThrow();
            assertThat(failure).contains("endpoint " + server.baseUrl() + ": 20 consecutive failures (503 x20)")
                    .contains("stopped calling it");
            @SuppressWarnings("unchecked")
            List<String> failures = (List<String>) report("r1").get("failures");
            assertThat(failures).singleElement().asString().contains("endpoint " + server.baseUrl());
            // without a stack trace: an outage is an expected failure
            assertThat(console() + r.all()).doesNotContain("\tat ").doesNotContain("Encountered an error executing step");
            // and the report counts every call the server received
            Map<String, Object> total = LlmFaultFunctionalTests.modelCalls(report("r1"));
            assertThat(((Number) total.get("calls")).intValue()).isEqualTo(calls);
            assertThat(((Number) LlmFaultFunctionalTests.errors(report("r1")).get("5xx")).intValue()).isEqualTo(calls);
        }
    }

    @Test
    void aRunOverTheFailedReviewThresholdFailsInOneLineWithoutAStackTrace() throws Exception {
        LlmJobs.Catalog catalog = LlmJobs.catalog(dir, 11, 150);
        try (CatalogModelServer server = CatalogModelServer.start(CatalogModelServer.reviewerDefects(catalog.truth()))) {
            // given reviewer B answers four items' reviews with garbage, retries included: over the 10 % threshold
            java.util.Set<String> victims = java.util.concurrent.ConcurrentHashMap.newKeySet();
            server.inject(c -> c.kind() == CatalogModelServer.Kind.REVIEW && c.model().equals("model-b")
                    && (victims.contains(c.content()) || victims.size() < 4 && victims.add(c.content())),
                    Integer.MAX_VALUE, new Fault.MalformedJson());
            Path job = LlmJobs.writeJob(dir, "faults", catalog, server.baseUrl(), 4, LlmFaultFunctionalTests.FAST_RETRIES);

            LlmJobs.Result r = LlmJobs.run(dir, job, "r1");

            // then the run fails, in one line naming the threshold, without a stack trace: an expected failure
            assertThat(r.exit()).as(r.all()).isEqualTo(1);
            String failure = r.out().lines().filter(l -> l.contains("failure:")).findFirst().orElseThrow();
            assertThat(failure).contains("above the failed-review threshold of 10.0 %");
            assertThat(console() + r.all()).doesNotContain("\tat ").doesNotContain("Encountered an error executing step");
        }
    }

    @Test
    void a401WhoseBodyEchoesTheKeyShowsNoFragmentOfItInTheFailureLineLogOrReport() throws Exception {
        LlmJobs.Catalog catalog = LlmJobs.catalog(dir, 11, 150);
        String key = LlmJobs.KEY;
        // a server that echoes the key shortened (as OpenAI does), a fragment from its middle, and another key
        String echo = "{\"error\":{\"message\":\"Incorrect API key provided: " + key.substring(0, 12) + "****"
                + key.substring(key.length() - 4) + "; fragment " + key.substring(14, 26)
                + "; also tried sk-other-0123456789abcdef\",\"code\":\"invalid_api_key\"}}";
        try (CatalogModelServer server = CatalogModelServer.start(CatalogModelServer.reviewerDefects(catalog.truth()))) {
            server.inject(c -> true, Integer.MAX_VALUE, new Fault.Status(401, Map.of("Content-Type", "application/json"), echo));
            Path job = LlmJobs.writeJob(dir, "faults", catalog, server.baseUrl(), 4, LlmFaultFunctionalTests.FAST_RETRIES);

            LlmJobs.Result r = LlmJobs.run(dir, job, "r1");

            // then the failure line still says what the server said, without the key
            assertThat(r.exit()).as(r.all()).isEqualTo(1);
            String failure = r.out().lines().filter(l -> l.contains("failure:")).findFirst().orElseThrow();
            assertThat(failure).contains("authentication failed").contains("Incorrect API key provided").contains("***");
            // no 8-character fragment of the key, and nothing shaped like a key, anywhere
            String everything = console() + r.all() + Files.readString(dir.resolve("out/faults/r1/report.json"));
            for (int i = 0; i + 8 <= key.length(); i++) {
                assertThat(everything).as("fragment %s", key.substring(i, i + 8)).doesNotContain(key.substring(i, i + 8));
            }
            assertThat(everything).doesNotContainPattern("sk-[A-Za-z0-9_-]{8,}");
        }
    }

    @Test
    void afterA401NothingMoreIsSentToTheEndpointAndTheAttemptsNotSentAreCountedCancelled() throws Exception {
        LlmJobs.Catalog catalog = LlmJobs.catalog(dir, 11, 150);
        try (CatalogModelServer server = CatalogModelServer.start(CatalogModelServer.reviewerDefects(catalog.truth()))) {
            // given reviewer C's model answering 503 (retried after 400 ms) and reviewer B's 401, on one endpoint
            // that takes two calls at a time (the other attempts wait for a slot)
            server.inject(c -> c.model().equals("model-c"), Integer.MAX_VALUE, Fault.status(503, Map.of()));
            server.inject(c -> c.model().equals("model-b"), Integer.MAX_VALUE, Fault.status(401, Map.of()));
            server.delay(Duration.ofMillis(50));
            Path job = LlmJobs.writeJob(dir, "faults", catalog, server.baseUrl(), 4, "governor:\n  max-attempts: 4\n"
                    + "  initial-backoff: 400ms\n  max-backoff: 400ms\n  jitter: 0\n  max-in-flight-per-endpoint: 2\n");

            LlmJobs.Result r = LlmJobs.run(dir, job, "r1");
            // (a retry the step's failure did not stop would arrive within the backoff)
            Thread.sleep(1000);

            // then the step fails on the 401, and C's retries waiting in their backoff are never sent
            assertThat(r.exit()).as(r.all()).isEqualTo(1);
            assertThat(r.out()).contains("authentication failed");
            List<CatalogModelServer.Call> calls = server.calls();
            assertThat(calls.stream().map(CatalogModelServer.Call::body).distinct().count())
                    .as("no request was sent twice (no retry after the abort)").isEqualTo(calls.size());
            // and the report counts them cancelled, never as connection errors; every counted call reached the server
            Map<String, Object> report = report("r1");
            Map<String, Object> errors = LlmFaultFunctionalTests.errors(report);
            assertThat(errors).doesNotContainKey("connection");
            assertThat(((Number) errors.get("cancelled")).intValue()).isPositive();
            assertThat(((Number) LlmFaultFunctionalTests.modelCalls(report).get("calls")).intValue()).isEqualTo(calls.size());
        }
    }
}
