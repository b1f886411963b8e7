package dev.santabatch.model;

import static org.assertj.core.api.Assertions.assertThat;

import dev.santabatch.execution.StopSignal;
import dev.santabatch.batch.Extensions;
import dev.santabatch.review.step.ReviewerType;
import dev.santabatch.export.RunReport;
import dev.santabatch.review.Check;
import dev.santabatch.review.CheckResult;
import dev.santabatch.review.Review;
import dev.santabatch.review.ReviewOutcome;
import dev.santabatch.review.Reviewer;
import dev.santabatch.review.Verdict;
import dev.santabatch.run.Launcher;
import dev.santabatch.run.RunRequest;
import dev.santabatch.run.TestJobsAccess;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Faults inside the model batch fix, against the scripted server on 127.0.0.1: a matcher outage
 * leaves items eligible and not escalated; a budget reached inside the batch fix, or in the last
 * chunk of a step, stops the run cleanly and the resumed run ends as an uninterrupted one without
 * paying twice for a stored match; a half-written candidate list is not reused; a mixed panel
 * batch-fixes through the matcher instead of a full scan.
 *
 * <p>An uninterrupted calibration run of the same job gives what round 1 costs: R review and fix
 * calls, then M matcher calls; budgets are set from them so that they land inside a given step.
 */
class ModelBatchFixFaultTests {

    static final String MARKER = LlmJobWiringTests.MARKER;
    static final ScriptedCatalogModel MODEL = LlmJobWiringTests.MODEL;
    static final String MATCHER_SYSTEM = "You check one text for one known problem";
    static final String TWO_MODELS = """
            reviewers:
              - id: B
                type: llm
                model: {base-url: %1$s, model: family-a-model, api-key-env: SANTA_TEST_KEY, timeout: 5s}
              - id: C
                type: llm
                model: {base-url: %1$s, model: family-b-model, api-key-env: SANTA_TEST_KEY, timeout: 5s}
            """;

    /** Round 1 of the uninterrupted run: review and fix calls, matcher calls, candidates; the whole run. */
    record Calibration(long reviewCalls, long matcherCalls, long candidates, long totalCalls, String catalog,
            List<String> changes) {}

    @TempDir
    static Path shared;

    static Calibration cal;

    @TempDir
    Path dir;

    @BeforeAll
    static void calibrate() throws Exception {
        StopSignal.reset();
        try (ScriptedServer server = ScriptedServer.answering(MODEL::answer)) {
            Path job = job(shared, server, TWO_MODELS, "");
            Run run = run(shared, job, "cal", Extensions.withEnv(LlmFixtures.KEYS));
            assertThat(run.exit()).as(run.out()).isZero();
            Map<String, Object> calls = modelCalls(shared, "cal");
            Map<String, Object> round1 = rounds(calls).stream().filter(r -> ((Number) r.get("round")).intValue() == 1)
                    .findFirst().orElseThrow();
            long all = num(round1.get("calls"));
            long matcher = num(map(map(round1.get("by_role")).get("matcher")).get("calls"));
            List<Map<String, Object>> patterns = list(map(calls.get("matcher")).get("patterns"));
            long candidates = patterns.stream().filter(p -> num(p.get("round")) == 1).mapToLong(p -> num(p.get("candidates"))).sum();
            cal = new Calibration(all - matcher, matcher, candidates, server.requests().size(),
                    Files.readString(out(shared, "cal").resolve("catalog.csv")), changes(shared, "cal"));
        }
        // the scenario the tests rely on: round 1 batch-fixes a systematic pattern through the matcher
        assertThat(cal.matcherCalls()).as("calibration %s", cal).isGreaterThanOrEqualTo(8).isEqualTo(cal.candidates());
        assertThat(cal.changes()).anyMatch(c -> c.contains(",1,batch-fix,"));
    }

    @BeforeEach
    void reset() {
        StopSignal.reset();
    }

    // ------------------------------------------------------------------ helpers

    static Path job(Path dir, ScriptedServer server, String reviewers, String extra) throws Exception {
        List<List<String>> rows = new ArrayList<>();
        for (List<String> r : TestJobsAccess.rows(300)) {
            List<String> row = new ArrayList<>(r);
            if (Integer.parseInt(row.get(0).substring(1)) % 8 == 0) {
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
                """ + reviewers.formatted(server.baseUrl()) + """
                fixer:
                  type: llm
                  model: {base-url: %1$s, model: family-a-model, api-key-env: SANTA_TEST_KEY, timeout: 5s}
                governor:
                  max-attempts: 2
                  initial-backoff: 10ms
                  max-backoff: 40ms
                """.formatted(server.baseUrl());
        Files.writeString(job, Files.readString(job) + models + extra);
        return job;
    }

    record Run(int exit, String out) {}

    /**
     * Learned rules off: these tests are about the matcher's path, and a rule learned from the
     * sample's fixes would remove the boilerplate with no matcher call (docs/learned-rules.md).
     */
    static Run run(Path dir, Path job, String runId, Extensions extensions) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        java.util.Map<String, Object> props = new java.util.HashMap<>(TestJobsAccess.h2(dir));
        props.put(dev.santabatch.batch.SantaJobConfiguration.LEARNED_RULES_PROPERTY, "false");
        int exit = Extensions.run(new RunRequest(job, null, dir.resolve("out"), runId, null), props,
                new PrintStream(out, true, StandardCharsets.UTF_8), System.err, extensions);
        return new Run(exit, out.toString(StandardCharsets.UTF_8));
    }

    private Run run(Path job) {
        return run(dir, job, "r1", Extensions.withEnv(LlmFixtures.KEYS));
    }

    static Path out(Path dir, String runId) {
        return dir.resolve("out/llmjob/" + runId);
    }

    static Map<String, Object> report(Path dir, String runId) throws Exception {
        return RunReport.read(out(dir, runId).resolve("report.json"));
    }

    static Map<String, Object> modelCalls(Path dir, String runId) throws Exception {
        return map(map(report(dir, runId).get("run")).get("model_calls"));
    }

    static List<Map<String, Object>> rounds(Map<String, Object> calls) {
        return list(calls.get("rounds"));
    }

    /** changes.csv's data lines, sorted. */
    static List<String> changes(Path dir, String runId) throws Exception {
        List<String> lines = new ArrayList<>(Files.readString(out(dir, runId).resolve("changes.csv")).lines().skip(1).toList());
        lines.sort(null);
        return lines;
    }

    static JdbcTemplate jdbc(Path dir) {
        JdbcDataSource ds = new JdbcDataSource();
        ds.setURL(String.valueOf(TestJobsAccess.h2(dir).get("spring.datasource.url")));
        ds.setUser("sa");
        return new JdbcTemplate(ds);
    }

    static long runPk(JdbcTemplate jdbc, String runId) {
        return jdbc.queryForObject("SELECT run_pk FROM sb_run WHERE run_id = ?", Long.class, runId);
    }

    /** Round 1's candidates by state ("pending" for none). */
    static Map<String, Long> candidateStates(JdbcTemplate jdbc, long runPk) {
        Map<String, Long> m = new java.util.TreeMap<>();
        jdbc.query("SELECT COALESCE(state, 'pending'), COUNT(*) FROM sb_match_candidate WHERE run_pk = ? AND round_no = 1"
                + " GROUP BY COALESCE(state, 'pending')", rs -> {
                    m.put(rs.getString(1), rs.getLong(2));
                }, runPk);
        return m;
    }

    static List<String> matcherContents(List<ScriptedServer.Recorded> requests) {
        return requests.stream().filter(r -> r.body().contains(MATCHER_SYSTEM))
                .map(r -> ScriptedCatalogModel.between(r.json().get("messages").get(1).get("content").asText(),
                        "<content>\n", "\n</content>"))
                .toList();
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> map(Object o) {
        return (Map<String, Object>) o;
    }

    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> list(Object o) {
        return (List<Map<String, Object>>) o;
    }

    static long num(Object o) {
        return ((Number) o).longValue();
    }

    // ------------------------------------------------------------------ tests

    @Test
    void aMatcherOutagePastTheRetriesLeavesItemsEligibleAndNotEscalated() throws Exception {
        AtomicBoolean matcherDown = new AtomicBoolean(true);
        try (ScriptedServer server = ScriptedServer.answering(r -> matcherDown.get() && r.body().contains(MATCHER_SYSTEM)
                ? ScriptedServer.Reply.status(500, "{\"error\":{\"message\":\"upstream unavailable\"}}",
                        Map.of("Content-Type", "application/json"))
                : MODEL.answer(r))) {
            // given every matcher call answered 500, past the 2 attempts the governor makes, and one round only
            // (the circuit breaker off: with it, 20 consecutive 500s would fail the step instead, as an outage)
            // (no isolated failure accepted in a sample: the marker items a round samples are batch-fixed
            // in the catalog, not fixed in the sample alone while the rest ship)
            Path job = job(dir, server, TWO_MODELS, "santa:\n  max-rounds: 1\n  acceptance-number: 0\n");
            Files.writeString(job, Files.readString(job).replace("  max-backoff: 40ms\n", "  max-backoff: 40ms\n  circuit-breaker-failures: 0\n"));

            Run first = run(job);

            // then the round ends not clean, with nothing escalated and nothing batch-fixed
            assertThat(first.exit()).as(first.out()).isEqualTo(3);
            assertThat(report(dir, "r1").get("status")).isEqualTo("not-clean");
            assertThat(Files.readString(out(dir, "r1").resolve("escalations.csv")).lines().skip(1)).isEmpty();
            assertThat(changes(dir, "r1")).noneMatch(c -> c.contains("batch-fix"));
            // every candidate was tried with all attempts, and counted as a transport failure, not as the item's fault
            assertThat(matcherContents(server.requests())).hasSize((int) (2 * cal.candidates()));
            JdbcTemplate jdbc = jdbc(dir);
            assertThat(candidateStates(jdbc, runPk(jdbc, "r1"))).containsExactly(Map.entry("transport", cal.candidates()));
            Map<String, Object> calls = modelCalls(dir, "r1");
            assertThat(num(map(map(map(calls.get("run")).get("by_role")).get("matcher")).get("errors")))
                    .isEqualTo(2 * cal.candidates());
            assertThat(num(map(map(calls.get("run")).get("errors_by_kind")).get("5xx"))).isEqualTo(2 * cal.candidates());
            // the defective items the matcher could not reach are not shipped: the run is not clean, so
            // only verified items are written, and the unreached ones are unverified, as they were
            assertThat(out(dir, "r1").resolve("catalog.csv")).doesNotExist();
            assertThat(Files.readString(out(dir, "r1").resolve("verified.csv"))).doesNotContain(MARKER.strip());
            assertThat(Files.readString(out(dir, "r1").resolve("unverified.csv"))).contains(MARKER.strip());

            // when the matcher is back and the run resumes with more rounds
            matcherDown.set(false);
            Files.writeString(job, Files.readString(job).replace("max-rounds: 1", "max-rounds: 5"));
            Run second = run(job);

            // then the items were still eligible: a later round batch-fixes them, and none is escalated
            assertThat(second.exit()).as(second.out()).isZero();
            assertThat(changes(dir, "r1")).anyMatch(c -> c.matches("T\\d+,[2-9],batch-fix,.*"));
            assertThat(Files.readString(out(dir, "r1").resolve("catalog.csv"))).doesNotContain(MARKER.strip());
            assertThat(Files.readString(out(dir, "r1").resolve("escalations.csv")).lines().skip(1)).isEmpty();
        }
    }

    @Test
    void aMatcherThatNeverSaysWhetherThePatternIsShownLeavesItemsEligibleAndNotEscalated() throws Exception {
        // given a matcher that answers malformed JSON, or is cut before shows_pattern, every time
        AtomicBoolean truncate = new AtomicBoolean();
        try (ScriptedServer server = ScriptedServer.answering(r -> !r.body().contains(MATCHER_SYSTEM) ? MODEL.answer(r)
                : truncate.getAndSet(!truncate.get()) ? ScriptedServer.Reply.ok("{\"shows_pa", "length", 100, 4)
                : ScriptedServer.Reply.ok("I think it does."))) {
            Path job = job(dir, server, TWO_MODELS, "santa:\n  max-rounds: 1\n");

            Run first = run(job);

            // then nothing is escalated or batch-fixed: the items stay eligible, the round not clean
            assertThat(first.exit()).as(first.out()).isEqualTo(3);
            assertThat(report(dir, "r1").get("status")).isEqualTo("not-clean");
            assertThat(Files.readString(out(dir, "r1").resolve("escalations.csv")).lines().skip(1)).isEmpty();
            assertThat(changes(dir, "r1")).noneMatch(c -> c.contains("batch-fix"));
            // each candidate was asked twice, left undecided, and every unusable answer is counted by kind
            assertThat(matcherContents(server.requests())).hasSize((int) (2 * cal.candidates()));
            JdbcTemplate jdbc = jdbc(dir);
            assertThat(candidateStates(jdbc, runPk(jdbc, "r1"))).containsExactly(Map.entry("unanswered", cal.candidates()));
            Map<String, Object> errors = map(map(modelCalls(dir, "r1").get("run")).get("errors_by_kind"));
            assertThat(num(errors.get("malformed-json")) + num(errors.get("truncated"))).isEqualTo(2 * cal.candidates());
            assertThat(num(errors.get("malformed-json"))).isPositive();
            assertThat(num(errors.get("truncated"))).isPositive();
        }
    }

    @Test
    void aMatcherThatTwiceSaysThePatternIsShownWithoutUsableTextEscalatesTheItem() throws Exception {
        // given a matcher that says every candidate shows the pattern but returns its text unchanged
        try (ScriptedServer server = ScriptedServer.answering(r -> {
            if (!r.body().contains(MATCHER_SYSTEM)) {
                return MODEL.answer(r);
            }
            String content = ScriptedCatalogModel.between(r.json().get("messages").get(1).get("content").asText(),
                    "<content>\n", "\n</content>");
            try {
                return ScriptedServer.Reply.ok(ScriptedServer.JSON.writeValueAsString(
                        Map.of("shows_pattern", true, "corrected_text", content)));
            } catch (java.io.IOException e) {
                throw new IllegalStateException(e);
            }
        })) {
            Path job = job(dir, server, TWO_MODELS, "santa:\n  max-rounds: 1\n");

            Run first = run(job);

            // then each candidate is held with the pattern: the model said it carries it, twice
            assertThat(first.exit()).as(first.out()).isEqualTo(3);
            List<String> held = Files.readString(out(dir, "r1").resolve("escalations.csv")).lines().skip(1).toList();
            assertThat(held).hasSize((int) cal.candidates()).allMatch(l -> l.contains("batch-fix"));
            JdbcTemplate jdbc = jdbc(dir);
            assertThat(candidateStates(jdbc, runPk(jdbc, "r1"))).containsExactly(Map.entry("escalated", cal.candidates()));
            Map<String, Object> errors = map(map(modelCalls(dir, "r1").get("run")).get("errors_by_kind"));
            assertThat(num(errors.get("unchanged"))).isEqualTo(2 * cal.candidates());
            // and every escalation of the run names its reason: the batch fix's the unchanged corrections
            assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM sb_escalation WHERE reason IS NULL OR reason = ''", Long.class))
                    .as("escalations without a reason: %s", jdbc.queryForList("SELECT item_id || ' ' || cause || ': ' || issues"
                            + " FROM sb_escalation WHERE reason IS NULL OR reason = ''", String.class))
                    .isZero();
            assertThat(jdbc.queryForList("SELECT DISTINCT reason FROM sb_escalation WHERE cause = 'batch-fix'", String.class))
                    .containsExactly("MATCH_FIX_UNCHANGED");
            assertThat(held).allMatch(l -> l.contains("MATCH_FIX_UNCHANGED"));
        }
    }

    @Test
    void aMatchWhoseCorrectionKeepsThePatternsEvidenceIsNotStoredAndTheItemStaysEligible() throws Exception {
        // given a matcher that says every candidate shows the pattern, then only rewords it by a word
        // and keeps the boilerplate sentence the sample's fixes removed
        try (ScriptedServer server = ScriptedServer.answering(r -> {
            if (!r.body().contains(MATCHER_SYSTEM)) {
                return MODEL.answer(r);
            }
            String content = ScriptedCatalogModel.between(r.json().get("messages").get(1).get("content").asText(),
                    "<content>\n", "\n</content>");
            try {
                return ScriptedServer.Reply.ok(ScriptedServer.JSON.writeValueAsString(
                        Map.of("shows_pattern", true, "corrected_text", "Truly, " + content)));
            } catch (java.io.IOException e) {
                throw new IllegalStateException(e);
            }
        })) {
            Path job = job(dir, server, TWO_MODELS, "santa:\n  max-rounds: 1\n");

            Run first = run(job);

            // then no correction is stored as a fix, nothing is escalated by the batch fix, and every
            // candidate is counted as matched but unlike the sample (it stays eligible)
            assertThat(first.exit()).as(first.out()).isEqualTo(3);
            assertThat(changes(dir, "r1")).noneMatch(c -> c.contains("batch-fix"));
            JdbcTemplate jdbc = jdbc(dir);
            assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM sb_escalation WHERE cause = 'batch-fix'", Long.class)).isZero();
            assertThat(candidateStates(jdbc, runPk(jdbc, "r1"))).containsExactly(Map.entry("unlike-sample", cal.candidates()));
            assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM sb_match_candidate c JOIN sb_item i ON i.run_pk = c.run_pk"
                    + " AND i.item_id = c.item_id WHERE c.run_pk = ? AND i.state = 'ACTIVE'", Long.class, runPk(jdbc, "r1")))
                    .isEqualTo(cal.candidates());
            // but the matcher said each shows the pattern: flagged, so that no clean sample covers it;
            // held FAIL_UNRESOLVED with the matcher's word and why its correction was not stored
            List<String> candidates = jdbc.queryForList("SELECT item_id FROM sb_match_candidate WHERE run_pk = ?",
                    String.class, runPk(jdbc, "r1"));
            List<org.apache.commons.csv.CSVRecord> held = LlmJobs.records(out(dir, "r1").resolve("escalations.csv")).stream()
                    .filter(h -> candidates.contains(h.get("item_id"))).toList();
            assertThat(held).hasSize((int) cal.candidates()).allSatisfy(h -> {
                assertThat(h.get("reason")).isEqualTo("FAIL_UNRESOLVED");
                assertThat(h.get("open_issues")).startsWith("matcher: ").doesNotContain("r1-p")
                        .contains("(shows the pattern; its correction keeps");
            });
            assertThat(LlmJobs.records(out(dir, "r1").resolve("unverified.csv")))
                    .noneMatch(u -> candidates.contains(u.get("id")));
        }
    }

    @Test
    void aBudgetReachedInsideTheBatchFixStopsCleanlyAndTheResumeDoesNotRedoStoredMatches() throws Exception {
        try (ScriptedServer server = ScriptedServer.answering(MODEL::answer)) {
            // given a budget that runs out half-way through round 1's matcher calls
            long budget = cal.reviewCalls() + cal.matcherCalls() / 2;
            Path job = job(dir, server, TWO_MODELS, "budget:\n  max-calls: " + budget + "\n");

            Run first = run(job);

            // then the run stops cleanly inside the batch fix
            assertThat(first.exit()).as(first.out()).isEqualTo(3);
            assertThat(first.out()).contains("STOPPED (budget reached) (exit 3)").contains("status:   BUDGET-STOPPED");
            assertThat(report(dir, "r1").get("status")).isEqualTo("budget-stopped");
            assertThat(server.requests()).hasSize((int) budget);
            JdbcTemplate jdbc = jdbc(dir);
            long runPk = runPk(jdbc, "r1");
            Map<String, Long> states = candidateStates(jdbc, runPk);
            assertThat(states.get("pending")).as("%s", states).isPositive();
            assertThat(states.get("fixed")).as("%s", states).isPositive();
            List<String> matchedFirst = matcherContents(server.requests());
            assertThat(matchedFirst).hasSize((int) (cal.matcherCalls() / 2));
            int afterFirst = server.requests().size();

            // when the budget is raised and the run resumes
            Files.writeString(job, Files.readString(job).replace("max-calls: " + budget, "max-calls: 100000"));
            Run second = run(job);

            // then it ends as the uninterrupted run did, and no candidate was sent to the matcher twice
            assertThat(second.exit()).as(second.out()).isZero();
            assertThat(second.out()).contains("resuming run 'r1'");
            List<String> matchedSecond = matcherContents(server.requests().subList(afterFirst, server.requests().size()));
            assertThat(matchedSecond).doesNotContainAnyElementsOf(matchedFirst);
            assertThat(matchedFirst.size() + matchedSecond.size()).isEqualTo(cal.matcherCalls());
            assertThat(server.requests()).hasSize((int) cal.totalCalls());
            assertThat(candidateStates(jdbc, runPk)).doesNotContainKey("pending");
            assertThat(changes(dir, "r1")).isEqualTo(cal.changes());
            assertThat(Files.readString(out(dir, "r1").resolve("catalog.csv"))).isEqualTo(cal.catalog());
            assertThat(num(map(modelCalls(dir, "r1").get("run")).get("calls"))).isEqualTo(cal.totalCalls());
        }
    }

    @Test
    void aKillDuringTheBatchFixUnderACallBudgetNeverLetsTheEndpointReceiveMoreThanTheBudget() throws Exception {
        // given matcher answers slowed (so that a kill lands between two saves of the spend) and a
        // budget that runs out near the end of round 1's matcher calls
        try (ScriptedServer server = ScriptedServer.answering(r -> r.body().contains(MATCHER_SYSTEM)
                ? MODEL.answer(r).after(Duration.ofMillis(300)) : MODEL.answer(r))) {
            long budget = cal.reviewCalls() + cal.matcherCalls() - 2;
            Path job = job(dir, server, TWO_MODELS, "budget:\n  max-calls: " + budget + "\n");

            // when the run is killed (SIGKILL, a child JVM) in the batch fix, with calls sent that the
            // stored spend snapshot does not count yet
            Process first = child(job, "k1");
            // the child's store, opened only once the child created it (else this process would create it first)
            JdbcDataSource ds = new JdbcDataSource();
            ds.setURL(TestJobsAccess.h2(dir).get("spring.datasource.url") + ";IFEXISTS=TRUE");
            ds.setUser("sa");
            JdbcTemplate jdbc = new JdbcTemplate(ds);
            long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(120);
            long saved = -1;
            int sent = 0;
            while (System.nanoTime() < deadline && first.isAlive()) {
                sent = server.requests().size();
                try {
                    saved = Files.exists(dir.resolve("db/santa.mv.db")) && matcherContents(server.requests()).size() >= 2
                            ? savedCalls(jdbc) : -1;
                } catch (org.springframework.dao.DataAccessException notYet) {
                    saved = -1;
                }
                if (saved >= 0 && matcherContents(server.requests()).size() >= 2 && sent - saved >= 2 && sent < budget - 1) {
                    break;
                }
                Thread.sleep(10);
            }
            first.destroyForcibly();
            assertThat(first.waitFor(30, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
            int atKill = server.requests().size();
            long savedAtKill = savedCalls(jdbc);
            assertThat(atKill - savedAtKill).as("killed with calls sent beyond the saved spend (%s sent, %s saved): %s", atKill,
                    savedAtKill, log(dir)).isPositive();
            assertThat(atKill).isLessThan((int) budget);

            // and resumed with the same budget
            Process again = child(job, "k1");
            assertThat(again.waitFor(180, java.util.concurrent.TimeUnit.SECONDS)).isTrue();

            // then it stops at the budget, and the endpoint never received more than the budget over both
            assertThat(again.exitValue()).as(log(dir)).isEqualTo(3);
            assertThat(report(dir, "k1").get("status")).isEqualTo("budget-stopped");
            assertThat(server.requests().size()).as("calls the server received over the killed run and its resume"
                    + " (%s at the kill, %s of them in the saved spend)", atKill, savedAtKill)
                    .isLessThanOrEqualTo((int) budget);
            // and the report counts at least every call the server received, at most the calls in flight at the kill more
            long reported = num(map(modelCalls(dir, "k1").get("run")).get("calls"));
            int inFlight = 4 * 2; // run.concurrency x reviewers: the batch fix's matcher calls at once
            assertThat(reported).isBetween((long) server.requests().size(), (long) server.requests().size() + inFlight);
            assertThat(log(dir)).contains("reserved by an execution that ended before saving them");
        }
    }

    /** The calls of the spend snapshot stored with run k1 (written with every chunk). */
    static long savedCalls(JdbcTemplate jdbc) throws Exception {
        List<String> rows = jdbc.queryForList("SELECT s.snapshot FROM sb_spend s JOIN sb_run r ON r.run_pk = s.run_pk"
                + " WHERE r.run_id = 'k1'", String.class);
        return rows.isEmpty() ? 0 : ScriptedServer.JSON.readTree(rows.get(0)).path("run").path("total").path("calls").asLong();
    }

    Process child(Path job, String runId) throws Exception {
        List<String> cmd = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx384m", "-cp",
                System.getProperty("java.class.path"), ModelJobMain.class.getName(), job.toString(), dir.toString(), runId,
                "--no-learned-rules");
        return new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("child.log").toFile())).start();
    }

    static String log(Path dir) {
        try {
            return Files.readString(dir.resolve("child.log"));
        } catch (java.io.IOException e) {
            return "";
        }
    }

    @Test
    void aBudgetReachedInTheLastChunkOfTheBatchFixStopsTheRunAndTheResumeFinishesTheStep() throws Exception {
        try (ScriptedServer server = ScriptedServer.answering(MODEL::answer)) {
            // given a budget one call short of round 1's last matcher call
            long budget = cal.reviewCalls() + cal.matcherCalls() - 1;
            Path job = job(dir, server, TWO_MODELS, "budget:\n  max-calls: " + budget + "\n");

            Run first = run(job);

            // then the run stops (not carried on into the next round) with exactly that candidate pending
            assertThat(first.exit()).as(first.out()).isEqualTo(3);
            assertThat(report(dir, "r1").get("status")).isEqualTo("budget-stopped");
            JdbcTemplate jdbc = jdbc(dir);
            long runPk = runPk(jdbc, "r1");
            assertThat(candidateStates(jdbc, runPk)).containsEntry("pending", 1L);
            assertThat(jdbc.queryForObject("SELECT MAX(round_no) FROM sb_round WHERE run_pk = ?", Integer.class, runPk))
                    .isEqualTo(1);

            // when resumed with a raised budget, then the one candidate is matched and the run ends as the uninterrupted one
            Files.writeString(job, Files.readString(job).replace("max-calls: " + budget, "max-calls: 100000"));
            Run second = run(job);
            assertThat(second.exit()).as(second.out()).isZero();
            assertThat(server.requests()).hasSize((int) cal.totalCalls());
            assertThat(changes(dir, "r1")).isEqualTo(cal.changes());
            assertThat(Files.readString(out(dir, "r1").resolve("catalog.csv"))).isEqualTo(cal.catalog());
        }
    }

    @Test
    void aBudgetReachedInTheLastChunkOfTheReviewStopsAndAHalfWrittenCandidateListIsNotReused() throws Exception {
        try (ScriptedServer server = ScriptedServer.answering(MODEL::answer)) {
            // given a budget one call short of round 1's review step
            long budget = cal.reviewCalls() - 1;
            Path job = job(dir, server, TWO_MODELS, "budget:\n  max-calls: " + budget + "\n");

            Run first = run(job);

            // then the run stops in the review step: the item whose call the budget refused (and any item in
            // process beside it that needed one more call: up to run.concurrency 4) left unreviewed, as the
            // report says and the store holds; no batch fix yet
            assertThat(first.exit()).as(first.out()).isEqualTo(3);
            Map<String, Object> report = report(dir, "r1");
            assertThat(report.get("status")).isEqualTo("budget-stopped");
            JdbcTemplate jdbc = jdbc(dir);
            long runPk = runPk(jdbc, "r1");
            long unreviewed = jdbc.queryForObject("SELECT COUNT(*) FROM sb_sample WHERE run_pk = ? AND round_no = 1"
                    + " AND (outcome IS NULL OR outcome = 'UNREVIEWED')", Long.class, runPk);
            assertThat(unreviewed).isBetween(1L, 4L);
            assertThat(num(map(report.get("budget_stop")).get("sampled_not_reviewed"))).isEqualTo(unreviewed);
            assertThat(matcherContents(server.requests())).isEmpty();

            // given what a crash while writing round 1's candidate list would leave: some rows, no completion row
            long index = jdbc.queryForObject("SELECT record_index FROM sb_item WHERE run_pk = ? AND item_id = 'T0001'",
                    Long.class, runPk);
            jdbc.update("INSERT INTO sb_match_candidate (run_pk, round_no, item_id, record_index, patterns)"
                    + " VALUES (?, 1, 'T0001', ?, '1')", runPk, index);

            // when resumed with a raised budget
            Files.writeString(job, Files.readString(job).replace("max-calls: " + budget, "max-calls: 100000"));
            Run second = run(job);

            // then round 1 is narrowed again (the full list, with its completion row) and the run ends as the
            // uninterrupted one did
            assertThat(second.exit()).as(second.out()).isZero();
            assertThat(jdbc.queryForObject("SELECT candidates FROM sb_match_narrowed WHERE run_pk = ? AND round_no = 1",
                    Long.class, runPk)).isEqualTo(cal.candidates());
            assertThat(candidateStates(jdbc, runPk).values().stream().mapToLong(Long::longValue).sum())
                    .isEqualTo(cal.candidates());
            assertThat(matcherContents(server.requests())).hasSize((int) cal.matcherCalls());
            assertThat(changes(dir, "r1")).isEqualTo(cal.changes());
            assertThat(Files.readString(out(dir, "r1").resolve("catalog.csv"))).isEqualTo(cal.catalog());
        }
    }

    @Test
    void aMixedPanelBatchFixesThroughTheMatcherInsteadOfAFullScan() throws Exception {
        // given reviewer B a model, reviewer C offline (scripted: it sees the planted sentence too)
        ConcurrentLinkedQueue<String> offlineReviewed = new ConcurrentLinkedQueue<>();
        ReviewerType offline = spec -> new Reviewer() {
            @Override
            public String id() {
                return spec.id();
            }

            @Override
            public Set<String> criteria() {
                return new LinkedHashSet<>(spec.criteria());
            }

            @Override
            public ReviewOutcome review(dev.santabatch.review.ReviewRequest request) {
                offlineReviewed.add(request.itemId());
                boolean defect = request.content().contains(MARKER.strip());
                List<Check> checks = request.rubric().stream().map(c -> new Check(c.id(),
                        defect && c.id().equals("original") ? CheckResult.FAIL : CheckResult.PASS, "offline")).toList();
                return new ReviewOutcome.Reviewed(new Review(defect ? Verdict.FAIL : Verdict.PASS, checks,
                        defect ? List.of("original: carries the shop-now boilerplate sentence") : List.of(), List.of()),
                        Duration.ZERO);
            }
        };
        String mixed = """
                reviewers:
                  - id: B
                    type: llm
                    model: {base-url: %1$s, model: family-a-model, api-key-env: SANTA_TEST_KEY, timeout: 5s}
                  - id: C
                    type: lexical
                """;
        try (ScriptedServer server = ScriptedServer.answering(MODEL::answer)) {
            Path job = job(dir, server, mixed, "");

            Run run = run(dir, job, "r1", new Extensions(Map.of("lexical", offline), null, LlmFixtures.KEYS));

            // then the pattern is batch-fixed through the model matcher on narrowed candidates
            assertThat(run.exit()).as(run.out()).isZero();
            assertThat(changes(dir, "r1")).anyMatch(c -> c.contains(",batch-fix,"));
            assertThat(Files.readString(out(dir, "r1").resolve("catalog.csv"))).doesNotContain(MARKER.strip());
            Map<String, Object> report = report(dir, "r1");
            Map<String, Object> matcher = map(map(map(report.get("run")).get("model_calls")).get("matcher"));
            assertThat(list(matcher.get("patterns"))).isNotEmpty().allSatisfy(
                    p -> assertThat(((Number) p.get("share_of_eligible")).doubleValue()).isLessThanOrEqualTo(0.25));
            assertThat(matcherContents(server.requests())).isNotEmpty();
            // and the panel reviewed only the sampled items: no full scan, so the model reviewer was not called
            // on every eligible item
            long sampled = list(report.get("rounds")).stream().mapToLong(r -> num(r.get("sample_size"))).sum();
            assertThat(new HashSet<>(offlineReviewed)).hasSize((int) sampled);
            assertThat(sampled).isLessThan(100);
            long modelReviews = server.requests().stream().filter(r -> r.body().contains("independent quality reviewer")).count();
            assertThat(modelReviews).isEqualTo(offlineReviewed.size());
            // the cost shares count the one model reviewer
            Map<String, Object> cost = map(map(map(report.get("run")).get("cost")).get("model"));
            assertThat(num(cost.get("model_reviewers"))).isEqualTo(1);
            assertThat(num(cost.get("calls"))).isEqualTo(server.requests().size());
            // per round: that round's calls against the same baseline; the rounds add up to the run
            List<Map<String, Object>> rounds = list(report.get("rounds"));
            assertThat(rounds.stream().mapToLong(r -> num(map(r.get("cost")).get("calls"))).sum()).isEqualTo(num(cost.get("calls")));
            assertThat(rounds).allSatisfy(r -> assertThat(num(map(r.get("cost")).get("model_reviewers"))).isEqualTo(1));
            // the run's taxonomy by pattern lists every round's patterns
            long patterns = rounds.stream().mapToLong(r -> list(r.get("patterns")).size()).sum();
            assertThat(list(map(report.get("run")).get("issue_taxonomy_by_pattern"))).hasSize((int) patterns)
                    .allSatisfy(p -> assertThat(p).containsKeys("id", "criterion", "label", "sampled_items"));
        }
    }

    @org.junit.jupiter.params.ParameterizedTest(name = "first correction like the sample's: {0}")
    @org.junit.jupiter.params.provider.ValueSource(booleans = {false, true})
    void aPatternTheMatcherSaidTheItemShowsStaysFlaggedWhenALaterPatternsMatcherCallFails(boolean likeSample)
            throws Exception {
        // given two systematic patterns on the same items (the shop-now sentence and a phone sentence),
        // and a matcher that, per item, says the first pattern it is asked about is shown, with a
        // correction that rewords the text only (unlike the sample's, not stored) or one that removes
        // the planted sentences as the sample's fixes do, and answers 500 for the other
        String phone = " Call 555-0100 to order today.";
        ScriptedCatalogModel two = new ScriptedCatalogModel(List.of(
                new ScriptedCatalogModel.Defect("original", "carries the shop-now boilerplate sentence",
                        t -> t.contains(MARKER.strip()), t -> t.replace(MARKER, "").replace(MARKER.strip(), "").strip()),
                new ScriptedCatalogModel.Defect("on-specification", "carries a phone number to call",
                        t -> t.contains(phone.strip()), t -> t.replace(phone, "").replace(phone.strip(), "").strip())));
        Map<String, String> firstAsked = new java.util.concurrent.ConcurrentHashMap<>();
        try (ScriptedServer server = ScriptedServer.answering(r -> {
            if (!r.body().contains(MATCHER_SYSTEM)) {
                return two.answer(r);
            }
            String user = r.json().get("messages").get(1).get("content").asText();
            String content = ScriptedCatalogModel.between(user, "<content>\n", "\n</content>");
            String issue = ScriptedCatalogModel.between(user, "<issues>\n", "\n</issues>");
            // per item: its text without the planted sentences, which a correction like the sample's removes
            String clean = content.replace(MARKER, "").replace(MARKER.strip(), "").replace(phone, "").replace(phone.strip(), "")
                    .strip();
            if (!firstAsked.computeIfAbsent(clean, k -> issue).equals(issue)) {
                return ScriptedServer.Reply.status(500, "{\"error\":{\"message\":\"upstream unavailable\"}}",
                        Map.of("Content-Type", "application/json"));
            }
            try {
                // (the sample's fixes removed both sentences: a correction like theirs does too)
                String corrected = likeSample ? clean : "Truly, " + content;
                return ScriptedServer.Reply.ok(ScriptedServer.JSON.writeValueAsString(
                        Map.of("shows_pattern", true, "corrected_text", corrected)));
            } catch (java.io.IOException e) {
                throw new IllegalStateException(e);
            }
        })) {
            Path job = job(dir, server, TWO_MODELS, "santa:\n  max-rounds: 1\n");
            Files.writeString(job, Files.readString(job).replace("  max-backoff: 40ms\n", "  max-backoff: 40ms\n  circuit-breaker-failures: 0\n"));
            Path catalog = dir.resolve("in.csv");
            Files.writeString(catalog, Files.readString(catalog).replace(MARKER.strip(), MARKER.strip() + phone));

            Run first = run(job);

            // then the batch fix asked about both patterns for some items and the second call failed
            assertThat(first.exit()).as(first.out()).isEqualTo(3);
            JdbcTemplate jdbc = jdbc(dir);
            long runPk = runPk(jdbc, "r1");
            List<String> transport = jdbc.queryForList("SELECT item_id FROM sb_match_candidate WHERE run_pk = ? AND state = 'transport'",
                    String.class, runPk);
            assertThat(transport).as("candidates left undecided by a failed matcher call: %s", candidateStates(jdbc, runPk))
                    .isNotEmpty();
            // and each of them, which the matcher had said shows the first pattern, is held
            // FAIL_UNRESOLVED with the matcher's word, not left eligible for a clean sample to cover
            // (a usable correction is not stored without the other pattern's answer either)
            Map<String, org.apache.commons.csv.CSVRecord> held = new java.util.HashMap<>();
            LlmJobs.records(out(dir, "r1").resolve("escalations.csv")).forEach(h -> held.put(h.get("item_id"), h));
            assertThat(transport).allSatisfy(id -> {
                assertThat(held).containsKey(id);
                assertThat(held.get(id).get("reason")).isEqualTo("FAIL_UNRESOLVED");
                assertThat(held.get(id).get("open_issues")).contains("matcher: ").contains("(shows the pattern; its correction");
            });
            assertThat(LlmJobs.records(out(dir, "r1").resolve("unverified.csv"))).noneMatch(u -> transport.contains(u.get("id")));
        }
    }
}
