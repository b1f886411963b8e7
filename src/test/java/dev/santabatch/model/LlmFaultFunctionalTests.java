package dev.santabatch.model;

import static org.assertj.core.api.Assertions.assertThat;

import dev.santabatch.model.CatalogModelServer.Call;
import dev.santabatch.model.CatalogModelServer.Fault;
import dev.santabatch.model.CatalogModelServer.Kind;
import dev.santabatch.export.RunReport;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Faults of the model endpoint, injected per call by the scripted server, in whole-job runs: the job
 * completes, fails or stops as specified; nothing is lost (every item shipped or held, or left
 * unreviewed and reported); no item is escalated because of a transport fault; and every fault is
 * counted in {@code report.json}. Backoffs are short (20 ms doubling, no jitter) and timeouts 1 s,
 * so the tests wait only where a wait is the point.
 */
class LlmFaultFunctionalTests {

    /** Short retries: 4 attempts, 20 ms doubling to 100 ms, no jitter (Retry-After is then exact). */
    static final String FAST_RETRIES = """
            governor:
              max-attempts: 4
              initial-backoff: 20ms
              max-backoff: 100ms
              jitter: 0
            """;

    @TempDir
    Path dir;

    LlmJobs.Catalog catalog;
    List<String> inputIds;

    CatalogModelServer server() throws Exception {
        catalog = LlmJobs.catalog(dir, 11, 150);
        inputIds = LlmJobs.ids(catalog.csv(), "id");
        return CatalogModelServer.start(CatalogModelServer.reviewerDefects(catalog.truth()));
    }

    Path job(CatalogModelServer server, String extra) throws Exception {
        return LlmJobs.faultJob(dir, "faults", catalog, server.baseUrl(), extra);
    }

    @Test
    void a429IsRetriedAfterTheRetryAfterItAsks() throws Exception {
        try (CatalogModelServer server = server()) {
            server.inject(c -> c.kind() == Kind.REVIEW, 1, Fault.status(429, Map.of("Retry-After", "1")));

            LlmJobs.Result r = LlmJobs.run(dir, job(server, ""), "r1");

            assertCompleted(r);
            Call limited = only(server, "429");
            Call retry = nextWithSameBody(server, limited);
            assertThat(Duration.ofNanos(retry.arrivalNanos() - limited.arrivalNanos()))
                    .as("the retry waited for Retry-After").isGreaterThanOrEqualTo(Duration.ofSeconds(1));
            Map<String, Object> report = report("r1");
            assertThat(errors(report).get("429")).isEqualTo(1);
            assertThat(((Number) modelCalls(report).get("retries")).intValue()).isGreaterThanOrEqualTo(1);
            assertNothingLostNoneHeld("r1", report);
        }
    }

    @Test
    void serverErrorsAreRetriedAndCounted() throws Exception {
        try (CatalogModelServer server = server()) {
            server.inject(c -> c.kind() == Kind.REVIEW, 3, Fault.status(500, Map.of()));
            server.inject(c -> c.kind() == Kind.FIX, 1, Fault.status(502, Map.of()));

            LlmJobs.Result r = LlmJobs.run(dir, job(server, ""), "r1");

            assertCompleted(r);
            List<Call> failed = server.calls().stream().filter(c -> c.fault().contains("Status")).toList();
            assertThat(failed).hasSize(4);
            failed.forEach(c -> nextWithSameBody(server, c));
            Map<String, Object> report = report("r1");
            assertThat(errors(report).get("5xx")).isEqualTo(4);
            assertNothingLostNoneHeld("r1", report);
        }
    }

    @Test
    void anAnswerHungPastTheTimeoutIsRetried() throws Exception {
        try (CatalogModelServer server = server()) {
            server.inject(c -> c.kind() == Kind.REVIEW, 2, new Fault.Hang(Duration.ofMillis(2500)));

            LlmJobs.Result r = LlmJobs.run(dir, job(server, ""), "r1");

            assertCompleted(r);
            List<Call> hung = server.calls().stream().filter(c -> c.fault().contains("Hang")).toList();
            assertThat(hung).hasSize(2);
            for (Call h : hung) {
                // retried after the 1 s timeout (measured from the server's arrival time, which lags
                // the client's send by a little: a lower bound a little under the timeout)
                Call retry = nextWithSameBody(server, h);
                assertThat(Duration.ofNanos(retry.arrivalNanos() - h.arrivalNanos())).isGreaterThanOrEqualTo(Duration.ofMillis(900));
            }
            Map<String, Object> report = report("r1");
            assertThat(errors(report).get("timeout")).isEqualTo(2);
            assertNothingLostNoneHeld("r1", report);
        }
    }

    @Test
    void malformedJsonIsRetriedFreshAndTwiceLeavesTheItemUnreviewedNotPassedNorHeld() throws Exception {
        try (CatalogModelServer server = server()) {
            // reviewer B answers one clean item's review badly twice (the retry too): B failed to review
            // it, and C passes it, so it is unreviewed (were C to fail it, it would be fixed instead)
            AtomicReference<String> victim = new AtomicReference<>();
            server.inject(c -> c.kind() == Kind.REVIEW && c.model().equals("model-b")
                    && (c.content().equals(victim.get())
                            || server.defectsIn(c.content()).isEmpty() && victim.compareAndSet(null, c.content())),
                    2, new Fault.MalformedJson());
            // and two other reviews once each: their fresh retries succeed (a review already faulted is
            // not faulted again: without this, a retry that reached the server before any other item's
            // first call took the second fault and failed a second item: a flaky 2 of 18 unreviewed)
            java.util.Set<String> faulted = java.util.concurrent.ConcurrentHashMap.newKeySet();
            server.inject(c -> c.kind() == Kind.REVIEW && !c.content().equals(victim.get()) && faulted.add(c.model() + "\n" + c.content()),
                    2, new Fault.MalformedJson());

            LlmJobs.Result r = LlmJobs.run(dir, job(server, ""), "r1");

            assertCompleted(r);
            Map<String, Object> report = report("r1");
            assertThat(errors(report).get("malformed-json")).isEqualTo(4);
            List<Map<String, Object>> rounds = LlmJobFunctionalTests.list(report.get("rounds"));
            assertThat(rounds.get(0).get("unreviewed")).isEqualTo(1);
            // the unreviewed item was neither fixed nor held in round 1
            JdbcTemplate store = LlmJobs.store(dir);
            try {
                List<Map<String, Object>> row = store.queryForList(
                        "SELECT s.item_id, s.outcome FROM sb_sample s WHERE s.round_no = 1 AND s.outcome = 'UNREVIEWED'");
                assertThat(row).hasSize(1);
                String id = (String) row.get(0).get("ITEM_ID");
                assertThat(store.queryForObject("SELECT COUNT(*) FROM sb_revision WHERE item_id = ? AND round_no = 1 AND cause = 'santa-fix'",
                        Integer.class, id)).isZero();
            } finally {
                LlmJobs.close(store);
            }
            assertNothingLostNoneHeld("r1", report);
        }
    }

    @Test
    void aReviewMissingACriterionIsRetriedFreshAndCounted() throws Exception {
        answerFault(new Fault.MissingCriterion(), "missing-criterion");
    }

    @Test
    void aPassWithCriticalIssuesIsRetriedFreshAndCounted() throws Exception {
        answerFault(new Fault.PassWithCritical(), "contradiction");
    }

    @Test
    void anUnknownVerdictIsRetriedFreshAndCountedAsItsOwnKind() throws Exception {
        answerFault(new Fault.UnknownVerdict(), "unknown-verdict");
    }

    void answerFault(Fault fault, String label) throws Exception {
        try (CatalogModelServer server = server()) {
            // three first requests get the fault, never a retry of one (calls arrive concurrently, so
            // "the next three review calls" could include the fresh retry of a faulted one)
            java.util.Set<String> seen = java.util.concurrent.ConcurrentHashMap.newKeySet();
            server.inject(c -> c.kind() == Kind.REVIEW && seen.add(c.body()), 3, fault);

            LlmJobs.Result r = LlmJobs.run(dir, job(server, ""), "r1");

            assertCompleted(r);
            List<Call> bad = server.calls().stream().filter(c -> !c.fault().isEmpty()).toList();
            assertThat(bad).hasSize(3);
            bad.forEach(c -> nextWithSameBody(server, c));
            Map<String, Object> report = report("r1");
            assertThat(errors(report).get(label)).isEqualTo(3);
            assertThat(LlmJobFunctionalTests.list(report.get("rounds")).get(0).get("unreviewed")).isEqualTo(0);
            assertNothingLostNoneHeld("r1", report);
        }
    }

    @Test
    void a401FailsTheRunAtOnceWithExit1() throws Exception {
        try (CatalogModelServer server = server()) {
            server.inject(c -> true, Integer.MAX_VALUE, Fault.status(401, Map.of()));

            LlmJobs.Result r = LlmJobs.run(dir, job(server, ""), "r1");

            assertThat(r.exit()).as(r.all()).isEqualTo(1);
            assertThat(r.out()).contains("FAILED (exit 1)").contains("scripted 401");
            // at once: no request was retried, and no more were sent than were in flight together
            List<Call> calls = server.calls();
            assertThat(calls).isNotEmpty();
            assertThat(calls.stream().map(Call::body).distinct().count()).isEqualTo(calls.size());
            assertThat(calls.size()).isLessThanOrEqualTo(2 * 4 + 2);
            assertThat(dir.resolve("out/faults/r1/catalog.csv")).doesNotExist();
            assertNoEscalations();
            // the failed run's report counts its calls and the 401s among its errors
            Map<String, Object> report = report("r1");
            assertThat(report.get("status")).isEqualTo("failed");
            assertThat(((Number) modelCalls(report).get("calls")).intValue()).isEqualTo(calls.size());
            assertThat(((Number) errors(report).get("auth")).intValue()).isGreaterThanOrEqualTo(1);
            assertThat(r.out()).containsPattern("model: +" + calls.size() + " calls");
        }
    }

    @Test
    void anOutageOfTheWholeEndpointFailsTheStepAndARestartAfterItCompletes() throws Exception {
        try (CatalogModelServer server = server()) {
            server.outage(true);
            Path job = job(server, "");

            LlmJobs.Result down = LlmJobs.run(dir, job, "r1");

            // the circuit breaker stops calling it after 20 consecutive 503s (and the calls in flight beside them)
            assertThat(down.exit()).as(down.all()).isEqualTo(1);
            assertThat(down.out()).contains("FAILED").contains("endpoint " + server.baseUrl() + ": 20 consecutive failures (503 x20)");
            int outageCalls = server.calls().size();
            assertThat(outageCalls).isBetween(20, 20 + 2 * 4);
            assertThat(server.calls()).allSatisfy(c -> assertThat(c.fault()).contains("503"));
            assertNoEscalations();
            // the failed run's own report counts the outage's 503s
            Map<String, Object> failed = report("r1");
            assertThat(failed.get("status")).isEqualTo("failed");
            assertThat(errors(failed).get("5xx")).as("the outage's errors, in the failed run's report").isEqualTo(outageCalls);
            assertThat(((Number) modelCalls(failed).get("calls")).intValue()).isEqualTo(outageCalls);

            server.outage(false);
            LlmJobs.Result up = LlmJobs.run(dir, job, "r1");

            assertCompleted(up);
            assertThat(up.out()).contains("resuming run 'r1'");
            Map<String, Object> report = report("r1");
            assertThat(errors(report).get("5xx")).as("the outage's errors, counted cumulatively").isEqualTo(outageCalls);
            assertThat(((Number) modelCalls(report).get("calls")).intValue()).isEqualTo(server.calls().size());
            assertNothingLostNoneHeld("r1", report);
        }
    }

    @Test
    void aBudgetReachedMidRoundStopsWithExit3AndResumesAfterItIsRaisedCountingSpendCumulatively() throws Exception {
        try (CatalogModelServer server = server()) {
            Path job = job(server, "budget:\n  max-calls: 30\n");

            LlmJobs.Result stopped = LlmJobs.run(dir, job, "r1");

            // 18 items sampled, two reviewers each: 30 calls stop the run inside round 1's review
            assertThat(stopped.exit()).as(stopped.all()).isEqualTo(3);
            assertThat(server.calls()).as("the call budget is exact").hasSize(30);
            Map<String, Object> first = report("r1");
            assertThat(first.get("status")).isEqualTo("budget-stopped");
            assertThat(((Number) modelCalls(first).get("calls")).intValue()).isEqualTo(30);
            // held at the stop only for a FAIL one reviewer gave before the budget stopped the other
            // (the resumed run resolves them), never for the stop itself
            assertNothingLost("r1");
            assertThat(LlmJobs.records(dir.resolve("out/faults/r1/escalations.csv")))
                    .allSatisfy(e -> assertThat(e.get("reason")).isEqualTo("FAIL_UNRESOLVED"));
            List<String> storedAtStop = storedReviews();
            assertThat(storedAtStop).as("some reviews were stored before the stop").isNotEmpty();

            Files.writeString(job, Files.readString(job).replace("max-calls: 30", "max-calls: 100000"));
            LlmJobs.Result resumed = LlmJobs.run(dir, job, "r1");

            assertCompleted(resumed);
            assertThat(resumed.out()).contains("resuming run 'r1'");
            Map<String, Object> report = report("r1");
            assertThat(report.get("status")).isEqualTo("clean");
            // spend counted over both executions: every call the server answered, once
            assertThat(((Number) modelCalls(report).get("calls")).intValue()).isEqualTo(server.calls().size());
            assertThat(server.calls().size()).isGreaterThan(30);
            // a review stored before the stop is not paid for again: no later request asks the same
            // model about the same text
            List<Call> afterStop = server.calls().subList(30, server.calls().size());
            List<String> beforeStop = server.calls().subList(0, 30).stream()
                    .map(c -> c.kind() + "\n" + c.model() + "\n" + c.content()).toList();
            assertThat(beforeStop).as("each stored review is a call before the stop").containsAll(storedAtStop);
            for (String stored : storedAtStop) {
                assertThat(afterStop).noneSatisfy(c -> assertThat(c.kind() + "\n" + c.model() + "\n" + c.content()).isEqualTo(stored));
            }
            assertNothingLostNoneHeld("r1", report);
        }
    }

    @Test
    void aStopSendsNoFurtherCallAndTheStoppedRunsReportCountsEveryCallTheServerReceived() throws Exception {
        try (CatalogModelServer server = server()) {
            // given answers that take 250 ms, every question's first attempt a 500 (retried 20 ms
            // after it), and a stop requested when the fourth review call arrives: the step ends at
            // once, and the 500s of the calls in flight come back while the run writes its report
            server.delay(Duration.ofMillis(250));
            Set<String> asked = java.util.concurrent.ConcurrentHashMap.newKeySet();
            java.util.concurrent.atomic.AtomicInteger reviews = new java.util.concurrent.atomic.AtomicInteger();
            server.inject(c -> {
                if (c.kind() == Kind.REVIEW && reviews.incrementAndGet() == 4) {
                    dev.santabatch.execution.StopSignal.request("test SIGTERM");
                }
                return asked.add(c.body());
            }, Integer.MAX_VALUE, Fault.status(500, Map.of()));

            // when the run stops, and the calls in flight at the stop have all been answered
            LlmJobs.Result stopped = LlmJobs.run(dir, job(server, ""), "r1");
            assertThat(stopped.exit()).as(stopped.all()).isEqualTo(1);
            assertThat(server.settle(Duration.ofSeconds(2), Duration.ofSeconds(30))).isTrue();

            // then report.json counts every call the server received: their 500s were not retried
            // after the stop
            assertThat(server.received()).as("calls in flight at the stop").isGreaterThanOrEqualTo(4);
            Map<String, Object> report = report("r1");
            assertThat(((Number) modelCalls(report).get("calls")).intValue()).isGreaterThanOrEqualTo(server.received());
            assertThat(server.calls()).as("no retry sent after the stop").allSatisfy(c -> assertThat(c.fault()).contains("Status"));
        }
    }

    @Test
    void aBudgetStopWhoseExportFailsIsReportedAsTheBudgetStop() throws Exception {
        try (CatalogModelServer server = server()) {
            // given a ground truth the export cannot read (no id column), and a budget the review reaches
            Files.writeString(catalog.truth(), "item,kind\nx,y\n");
            Path job = job(server, "budget:\n  max-calls: 30\n");

            LlmJobs.Result stopped = LlmJobs.run(dir, job, "r1");

            // then the run ends as the budget stop it was (exit 3), and its report says so, with the
            // export's failure, shipping nothing
            assertThat(stopped.exit()).as(stopped.all()).isEqualTo(3);
            Map<String, Object> report = report("r1");
            assertThat(report.get("status")).isEqualTo(RunReport.FAILED);
            Map<String, Object> execution = LlmJobFunctionalTests.map(report.get("execution"));
            assertThat(String.valueOf(execution.get("why"))).startsWith("budget reached (").doesNotContain("signal");
            assertThat(report.get("failures")).asString().contains("the export after the budget stop failed");
            assertThat(dir.resolve("out/faults/r1/verified.csv")).doesNotExist();
        }
    }

    @Test
    void aRunFailedOnInvalidAnswersIsRestartedWithFreshCallsNotTheKeptAnswers() throws Exception {
        try (CatalogModelServer server = server()) {
            // given reviewer B answers four items' reviews with garbage, retries included, in the first
            // execution: 4 of 18 sampled items unreviewed, over the 10 % failed-review threshold
            java.util.concurrent.atomic.AtomicBoolean broken = new java.util.concurrent.atomic.AtomicBoolean(true);
            Set<String> victims = java.util.concurrent.ConcurrentHashMap.newKeySet();
            server.inject(c -> broken.get() && c.kind() == Kind.REVIEW && c.model().equals("model-b")
                    && (victims.contains(c.content()) || victims.size() < 4 && victims.add(c.content())),
                    Integer.MAX_VALUE, new Fault.MalformedJson());
            Path job = job(server, "");
            LlmJobs.Result failed = LlmJobs.run(dir, job, "r1");
            assertThat(failed.exit()).as(failed.all()).isEqualTo(1);

            // when the model answers well again and the run is restarted
            broken.set(false);
            int before = server.calls().size();
            LlmJobs.Result restarted = LlmJobs.run(dir, job, "r1");

            // then the restart asked the failed items afresh (it was not handed the garbage it had kept)
            // and completed
            assertCompleted(restarted);
            assertThat(server.calls().subList(before, server.calls().size()))
                    .anySatisfy(c -> assertThat(victims).contains(c.content()));
            assertNothingLost("r1");
        }
    }

    // ------------------------------------------------------------------ helpers

    static void assertCompleted(LlmJobs.Result r) {
        assertThat(r.exit()).as(r.all()).isZero();
    }

    /** The one call that got a fault whose description contains {@code what}. */
    static Call only(CatalogModelServer server, String what) {
        List<Call> hit = server.calls().stream().filter(c -> c.fault().contains(what)).toList();
        assertThat(hit).hasSize(1);
        return hit.get(0);
    }

    /** The first later call with the same body: the retry of a failed call. */
    static Call nextWithSameBody(CatalogModelServer server, Call failed) {
        return server.calls().stream()
                .filter(c -> c.seq() > failed.seq() && c.body().equals(failed.body()))
                .findFirst()
                .orElseThrow(() -> new AssertionError("call " + failed.seq() + " (" + failed.fault() + ") was never retried"));
    }

    Map<String, Object> report(String runId) throws Exception {
        return RunReport.read(dir.resolve("out/faults/" + runId + "/report.json"));
    }

    /** The run's model-call totals in report.json ({@code run.model_calls.run}). */
    static Map<String, Object> modelCalls(Map<String, Object> report) {
        Map<String, Object> run = LlmJobFunctionalTests.map(report.get("run"));
        return LlmJobFunctionalTests.map(LlmJobFunctionalTests.map(run.get("model_calls")).get("run"));
    }

    /** The run's model-call errors by kind label in report.json. */
    static Map<String, Object> errors(Map<String, Object> report) {
        return LlmJobFunctionalTests.map(modelCalls(report).get("errors_by_kind"));
    }

    /**
     * Every input item is in exactly one of the shipped file (catalog.csv, or verified.csv when the
     * run did not end clean), unverified.csv and escalations.csv; none is held.
     */
    void assertNothingLostNoneHeld(String runId, Map<String, Object> report) throws Exception {
        List<String> held = assertNothingLost(runId);
        assertThat(held).as("no item escalated (a transport fault never escalates)").isEmpty();
        assertThat(LlmJobFunctionalTests.map(report.get("outputs")).get("held")).isEqualTo(0);
    }

    /** Every input item is in exactly one output file; returns the held ones. */
    List<String> assertNothingLost(String runId) throws Exception {
        Path run = dir.resolve("out/faults/" + runId);
        List<String> shipped = new ArrayList<>(LlmJobs.ids(run.resolve(
                Files.exists(run.resolve("catalog.csv")) ? "catalog.csv" : "verified.csv"), "id"));
        shipped.addAll(LlmJobs.ids(run.resolve("unverified.csv"), "id"));
        List<String> held = LlmJobs.ids(run.resolve("escalations.csv"), "item_id");
        List<String> all = new ArrayList<>(shipped);
        all.addAll(held);
        assertThat(all).containsExactlyInAnyOrderElementsOf(inputIds);
        Set<String> unique = new HashSet<>(all);
        assertThat(unique).hasSameSizeAs(all);
        return held;
    }

    /** The stored reviews as "REVIEW, model, reviewed text" keys (reviewer B is model-b, C model-c). */
    List<String> storedReviews() throws Exception {
        Map<String, String> original = LlmJobs.contents(catalog.csv(), "id", "description");
        JdbcTemplate store = LlmJobs.store(dir);
        try {
            List<String> out = new ArrayList<>();
            for (Map<String, Object> r : store.queryForList("SELECT item_id, rev, reviewer FROM sb_review WHERE outcome = 'REVIEWED'")) {
                String id = (String) r.get("ITEM_ID");
                int rev = ((Number) r.get("REV")).intValue();
                String text = rev == 0 ? original.get(id)
                        : store.queryForObject("SELECT content FROM sb_revision WHERE item_id = ? AND rev = ?", String.class, id, rev);
                out.add(Kind.REVIEW + "\n" + "model-" + ((String) r.get("REVIEWER")).toLowerCase(java.util.Locale.ROOT) + "\n" + text);
            }
            return out;
        } finally {
            LlmJobs.close(store);
        }
    }

    void assertNoEscalations() {
        JdbcTemplate store = LlmJobs.store(dir);
        try {
            assertThat(store.queryForObject("SELECT COUNT(*) FROM sb_escalation", Integer.class)).isZero();
        } finally {
            LlmJobs.close(store);
        }
    }
}
