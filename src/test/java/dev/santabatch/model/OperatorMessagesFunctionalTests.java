package dev.santabatch.model;

import dev.santabatch.review.llm.LlmReviewer;
import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.santabatch.model.CatalogModelServer.Fault;
import dev.santabatch.model.ScriptedServer.Reply;
import dev.santabatch.model.http.GovernedHttpClient;
import dev.santabatch.export.RunReport;
import dev.santabatch.review.ReviewOutcome;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * What the operator is told when a model endpoint or its configuration is wrong: the cause (the
 * endpoint, the error kind, the attempts, the HTTP status) in the step's failure line and the
 * report; every missing API-key variable at once, before anything runs, without a trace; one
 * line, not Spring Batch's stack traces, for a 401; request logging visible with the flag alone.
 */
class OperatorMessagesFunctionalTests {

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

    Path job(LlmJobs.Catalog catalog, String baseUrl) throws Exception {
        return LlmJobs.writeJob(dir, "ops", catalog, baseUrl, 4, LlmFaultFunctionalTests.FAST_RETRIES);
    }

    @SuppressWarnings("unchecked")
    List<String> reportFailures(String runId) throws Exception {
        return (List<String>) RunReport.read(dir.resolve("out/ops/" + runId + "/report.json")).get("failures");
    }

    @Test
    void anEndpointThatRefusesConnectionsIsNamedWithTheErrorKindAndTheAttempts() throws Exception {
        int closed;
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            closed = s.getLocalPort();
        }
        String endpoint = "http://127.0.0.1:" + closed + "/v1";
        LlmJobs.Catalog catalog = LlmJobs.catalog(dir, 11, 150);

        // (the circuit breaker off: every item's call is tried, so the step fails on the failed-review share)
        Path job = job(catalog, endpoint);
        java.nio.file.Files.writeString(job, java.nio.file.Files.readString(job) + "  circuit-breaker-failures: 0\n");
        LlmJobs.Result r = LlmJobs.run(dir, job, "r1");

        assertThat(r.exit()).as(r.all()).isEqualTo(1);
        String failure = r.out().lines().filter(l -> l.contains("failure:")).findFirst().orElseThrow();
        assertThat(failure).contains("could not be reviewed").contains(endpoint).contains("4 attempt(s) failed")
                .contains("last: connection").containsIgnoringCase("connection refused");
        assertThat(reportFailures("r1")).singleElement().asString().contains(endpoint).contains("last: connection");
        // each item's warning says why, not only who
        assertThat(console().lines().filter(l -> l.contains("not reviewed this round")))
                .isNotEmpty()
                .allSatisfy(l -> assertThat(l).contains(endpoint).contains("attempt(s) failed"));
    }

    @Test
    void aRejectedRequestIsNamedWithItsHttpStatusAndTheServersMessage() throws Exception {
        LlmJobs.Catalog catalog = LlmJobs.catalog(dir, 11, 150);
        try (CatalogModelServer server = CatalogModelServer.start(CatalogModelServer.reviewerDefects(catalog.truth()))) {
            server.inject(c -> true, Integer.MAX_VALUE, Fault.status(400, Map.of()));

            LlmJobs.Result r = LlmJobs.run(dir, job(catalog, server.baseUrl()), "r1");

            assertThat(r.exit()).as(r.all()).isEqualTo(1);
            String failure = r.out().lines().filter(l -> l.contains("failure:")).findFirst().orElseThrow();
            assertThat(failure).contains("could not be reviewed").contains(server.baseUrl()).contains("HTTP 400")
                    .contains("scripted 400").contains("not retried");
            assertThat(reportFailures("r1")).singleElement().asString().contains("HTTP 400");
        }
    }

    @Test
    void everyMissingApiKeyVariableIsNamedWithItsRolesBeforeAnythingRuns() throws Exception {
        LlmJobs.Catalog catalog = LlmJobs.catalog(dir, 11, 150);
        Path job = job(catalog, "http://127.0.0.1:9/v1");
        String yaml = Files.readString(job);
        // reviewer C names a second variable
        int c = yaml.indexOf("- id: C");
        Files.writeString(job, yaml.substring(0, c)
                + yaml.substring(c).replaceFirst(LlmJobs.KEY_ENV, "SANTA_TEST_OTHER_KEY"));
        Map<String, Object> props = LlmJobs.props(dir);
        props.remove(dev.santabatch.run.Launcher.ENV_PROPERTY_PREFIX + LlmJobs.KEY_ENV);

        LlmJobs.Result none = LlmJobs.cli(props, "run", job.toString(), "--out", dir.resolve("out").toString());

        assertThat(none.exit()).as(none.all()).isEqualTo(2);
        assertThat(none.err().lines().filter(l -> l.contains("not set")).toList()).singleElement().asString()
                .contains("SANTA_TEST_MODEL_KEY (reviewer:B, fixer, matcher)")
                .contains("SANTA_TEST_OTHER_KEY (reviewer:C)");
        assertThat(none.all() + console()).doesNotContain("\tat ").doesNotContain("Exception");
        assertThat(dir.resolve("db")).as("no store, no run was created").doesNotExist();

        // one set, one missing: only the missing one is named, and no value is printed
        props.put(dev.santabatch.run.Launcher.ENV_PROPERTY_PREFIX + "SANTA_TEST_OTHER_KEY", LlmJobs.KEY);
        LlmJobs.Result one = LlmJobs.cli(props, "run", job.toString(), "--out", dir.resolve("out").toString());

        assertThat(one.exit()).isEqualTo(2);
        assertThat(one.err()).contains("SANTA_TEST_MODEL_KEY (reviewer:B, fixer, matcher)").doesNotContain("SANTA_TEST_OTHER_KEY");
        assertThat(one.all() + console()).doesNotContain(LlmJobs.KEY);
    }

    @Test
    void a401IsOneErrorLineNotSpringBatchStackTraces() throws Exception {
        LlmJobs.Catalog catalog = LlmJobs.catalog(dir, 11, 150);
        try (CatalogModelServer server = CatalogModelServer.start(CatalogModelServer.reviewerDefects(catalog.truth()))) {
            server.inject(c -> true, Integer.MAX_VALUE, Fault.status(401, Map.of()));

            LlmJobs.Result r = LlmJobs.run(dir, job(catalog, server.baseUrl()), "r1");

            assertThat(r.exit()).as(r.all()).isEqualTo(1);
            assertThat(r.out()).contains("failure:").contains("authentication failed");
            String log = console();
            assertThat(log).doesNotContain("Rolling back chunk transaction")
                    .doesNotContain("Encountered an error executing step")
                    .doesNotContain("\tat ");
            assertThat(log.lines().filter(l -> l.contains(" ERROR ")).toList()).as(log).singleElement().asString()
                    .contains("authentication failed").contains(server.baseUrl());
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void theReportCountsAnswerRetriesLabelsMatcherRequestsAndNoOfflineChecksForAModelPanel() throws Exception {
        LlmJobs.Catalog catalog = LlmJobs.catalog(dir, 11, 150);
        try (CatalogModelServer server = CatalogModelServer.start(CatalogModelServer.reviewerDefects(catalog.truth()))) {
            // one review answered with malformed JSON: its fresh retry succeeds
            server.inject(c -> c.kind() == CatalogModelServer.Kind.REVIEW && c.model().equals("model-b"), 1,
                    new Fault.MalformedJson());

            LlmJobs.Result r = LlmJobs.run(dir, job(catalog, server.baseUrl()), "r1");

            assertThat(r.exit()).as(r.all()).isZero();
            Map<String, Object> report = RunReport.read(dir.resolve("out/ops/r1/report.json"));
            Map<String, Object> run = (Map<String, Object>) report.get("run");
            Map<String, Object> calls = (Map<String, Object>) run.get("model_calls");
            Map<String, Object> total = (Map<String, Object>) calls.get("run");
            assertThat(total).containsEntry("answer_retries", 1).containsEntry("retries", 0);
            Map<String, Object> byRole = (Map<String, Object>) total.get("by_role");
            assertThat((Map<String, Object>) byRole.get("reviewer:B")).containsEntry("answer_retries", 1);
            assertThat((Map<String, Object>) byRole.get("reviewer:C")).containsEntry("answer_retries", 0);
            // every call the server answered, the answer retry included
            assertThat(((Number) total.get("calls")).intValue()).isEqualTo(server.calls().size());
            // the matcher block counts requests, by_role.matcher.calls HTTP attempts
            Map<String, Object> matcher = (Map<String, Object>) calls.get("matcher");
            assertThat(matcher).containsKey("requests").doesNotContainKey("calls");
            assertThat(String.valueOf(calls.get("note"))).contains("answer_retries").contains("matcher.requests");
            // an all-model panel has no offline checks to count
            Map<String, Object> cost = (Map<String, Object>) run.get("cost");
            assertThat(cost).containsKey("model").doesNotContainKey("offline_checks");
        }
    }

    @Test
    void requestLoggingNeedsOnlyTheFlagAndMasksTheKey() throws Exception {
        Logger logger = (Logger) LoggerFactory.getLogger(GovernedHttpClient.class);
        Level before = logger.getLevel();
        ListAppender<ILoggingEvent> appender = new ListAppender<>();
        appender.start();
        // as in production (application.properties: dev.santabatch at INFO)
        logger.setLevel(Level.INFO);
        logger.addAppender(appender);
        try (ScriptedServer server = ScriptedServer.replying(Reply.ok(LlmFixtures.passJson()))) {
            CallGovernor governor = new CallGovernor(LlmFixtures.FAST.withLogRequests(true));
            LlmClient client = LlmClient.create(LlmFixtures.model(server.baseUrl()), LlmRoles.reviewer("B"), governor,
                    LlmFixtures.ENV);
            ReviewOutcome outcome = new LlmReviewer("B", Set.copyOf(LlmFixtures.IDS), client)
                    .review(LlmFixtures.request("A kettle."));

            assertThat(outcome).isInstanceOf(ReviewOutcome.Reviewed.class);
            List<String> lines = appender.list.stream().map(ILoggingEvent::getFormattedMessage).toList();
            assertThat(lines).anySatisfy(l -> assertThat(l).contains("HTTP POST").contains("Authorization: ***"));
            assertThat(lines).anySatisfy(l -> assertThat(l).startsWith("HTTP 200 from"));
            assertThat(String.join("\n", lines)).doesNotContain(LlmFixtures.SECRET);
        } finally {
            logger.detachAppender(appender);
            logger.setLevel(before);
        }
    }
}
