package dev.santabatch.model;

import dev.santabatch.review.llm.LlmFixer;
import dev.santabatch.review.llm.LlmReviewer;
import static dev.santabatch.model.LlmFixtures.ENV;
import static dev.santabatch.model.LlmFixtures.FAST;
import static dev.santabatch.model.LlmFixtures.IDS;
import static dev.santabatch.model.LlmFixtures.NO_BUDGET;
import static dev.santabatch.model.LlmFixtures.model;
import static dev.santabatch.model.LlmFixtures.request;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.santabatch.config.BudgetSpec;
import dev.santabatch.config.ModelSpec;
import dev.santabatch.model.ScriptedServer.Reply;
import dev.santabatch.review.ConfigurationException;
import dev.santabatch.review.ReviewOutcome;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CallGovernorTests {

    private static final String ROLE = LlmRoles.reviewer("B");

    private static LlmReviewer reviewer(CallGovernor governor, ModelSpec spec) {
        return new LlmReviewer("B", Set.copyOf(IDS), LlmClient.create(spec, ROLE, governor, ENV));
    }

    private static Reply status(int code, String body) {
        return Reply.status(code, body, Map.of("Content-Type", "application/json"));
    }

    @ParameterizedTest(name = "HTTP {0} -> {1}")
    @CsvSource({
        "429, RATE_LIMITED, RETRIABLE",
        "500, SERVER_ERROR, RETRIABLE",
        "502, SERVER_ERROR, RETRIABLE",
        "503, SERVER_ERROR, RETRIABLE",
        "408, TIMEOUT, RETRIABLE",
        "401, AUTH, CONFIGURATION",
        "403, AUTH, CONFIGURATION",
        "404, MODEL_NOT_FOUND, CONFIGURATION",
        "400, BAD_REQUEST, REJECTED",
        "422, BAD_REQUEST, REJECTED"
    })
    void statusCodesMapToKindsAndCategories(int status, ErrorKind kind, ErrorKind.Category category) {
        assertThat(Failures.kindOf(status)).isEqualTo(kind);
        assertThat(kind.category()).isEqualTo(category);
    }

    @Test
    void a429WithRetryAfterIsHonouredThenSucceeds() throws Exception {
        try (ScriptedServer server = ScriptedServer.replying(
                Reply.status(429, "{\"error\":{\"message\":\"slow down\",\"code\":\"rate_limit_exceeded\"}}", Map.of("Retry-After", "1")),
                Reply.ok(LlmFixtures.passJson()))) {
            CallGovernor governor = new CallGovernor(FAST);

            ReviewOutcome outcome = reviewer(governor, model(server.baseUrl())).review(request("A kettle."));

            assertThat(outcome).isInstanceOf(ReviewOutcome.Reviewed.class);
            List<Long> at = server.arrivalNanos();
            assertThat(at).hasSize(2);
            // the server asked for 1 s; the initial backoff alone would be 10 ms
            assertThat(Duration.ofNanos(at.get(1) - at.get(0))).isGreaterThanOrEqualTo(Duration.ofMillis(980));
            Tally run = governor.snapshot().run();
            assertThat(run.errors(ErrorKind.RATE_LIMITED)).isEqualTo(1);
            assertThat(run.total().calls()).isEqualTo(2);
            assertThat(run.total().retries()).isEqualTo(1);
        }
    }

    @Test
    void serverErrorsAreRetriedWithBackoffThenSucceed() throws Exception {
        try (ScriptedServer server = ScriptedServer.replying(status(500, "{}"), status(503, "busy"), Reply.ok(LlmFixtures.passJson()))) {
            CallGovernor governor = new CallGovernor(FAST);

            ReviewOutcome outcome = reviewer(governor, model(server.baseUrl())).review(request("A kettle."));

            assertThat(outcome).isInstanceOf(ReviewOutcome.Reviewed.class);
            assertThat(server.requests()).hasSize(3);
            Tally run = governor.snapshot().run();
            assertThat(run.errors(ErrorKind.SERVER_ERROR)).isEqualTo(2);
            assertThat(run.role(ROLE).retries()).isEqualTo(2);
        }
    }

    @Test
    void aResponseHungPastTheTimeoutIsRetriedThenFailsToReviewAsTransport() throws Exception {
        try (ScriptedServer server = ScriptedServer.replying(Reply.ok(LlmFixtures.passJson()).after(Duration.ofSeconds(3)))) {
            CallGovernor governor = new CallGovernor(FAST.withRetries(2, Duration.ofMillis(10), Duration.ofMillis(10)));
            ModelSpec spec = model(server.baseUrl(), ModelSpec.StructuredOutput.JSON_SCHEMA, Duration.ofMillis(300));

            long start = System.nanoTime();
            ReviewOutcome outcome = reviewer(governor, spec).review(request("A kettle."));
            Duration took = Duration.ofNanos(System.nanoTime() - start);

            assertThat(outcome).isInstanceOfSatisfying(ReviewOutcome.FailedToReview.class, f -> {
                assertThat(f.kind()).isEqualTo(ReviewOutcome.FailureKind.TRANSPORT);
                assertThat(f.message()).contains("timeout");
            });
            assertThat(server.requests()).hasSize(2);
            assertThat(governor.snapshot().run().errors(ErrorKind.TIMEOUT)).isEqualTo(2);
            assertThat(took).isLessThan(Duration.ofMillis(2500));
        }
    }

    @Test
    void anEndpointOutageFailsToReviewAsTransportAfterRetries() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        CallGovernor governor = new CallGovernor(FAST.withRetries(3, Duration.ofMillis(5), Duration.ofMillis(5)));

        ReviewOutcome outcome = reviewer(governor, model("http://127.0.0.1:" + port + "/v1")).review(request("A kettle."));

        assertThat(outcome).isInstanceOfSatisfying(ReviewOutcome.FailedToReview.class,
                f -> assertThat(f.kind()).isEqualTo(ReviewOutcome.FailureKind.TRANSPORT));
        assertThat(governor.snapshot().run().errors(ErrorKind.CONNECTION)).isEqualTo(3);
    }

    @Test
    void a401IsAConfigurationErrorAtOnceWithoutRetry() throws Exception {
        try (ScriptedServer server = ScriptedServer.replying(
                status(401, "{\"error\":{\"message\":\"Incorrect API key provided: sk-test-SECRET123\",\"code\":\"invalid_api_key\"}}"))) {
            CallGovernor governor = new CallGovernor(FAST);

            assertThatThrownBy(() -> reviewer(governor, model(server.baseUrl())).review(request("A kettle.")))
                    .isInstanceOf(ConfigurationException.class)
                    .hasMessageContaining("authentication failed")
                    .hasMessageContaining("model.api-key-env")
                    .satisfies(e -> assertThat(LlmFixturesText.allMessages(e)).doesNotContain(LlmFixtures.SECRET));
            assertThat(server.requests()).hasSize(1);
            assertThat(governor.snapshot().run().errors(ErrorKind.AUTH)).isEqualTo(1);
        }
    }

    @Test
    void anUnknownModelIsAConfigurationErrorAtOnce() throws Exception {
        try (ScriptedServer server = ScriptedServer.replying(
                status(404, "{\"error\":{\"message\":\"The model `nope` does not exist\",\"code\":\"model_not_found\"}}"))) {
            CallGovernor governor = new CallGovernor(FAST);

            assertThatThrownBy(() -> reviewer(governor, model(server.baseUrl())).review(request("A kettle.")))
                    .isInstanceOf(ConfigurationException.class)
                    .hasMessageContaining("model not found")
                    .hasMessageContaining("model.model");
            assertThat(server.requests()).hasSize(1);
        }
    }

    @Test
    void a400WithErrorCodeModelNotFoundIsAnUnknownModelAtOnce() throws Exception {
        try (ScriptedServer server = ScriptedServer.replying(status(400,
                "{\"error\":{\"message\":\"The model `nope` does not exist or you do not have access to it.\","
                        + "\"type\":\"invalid_request_error\",\"param\":null,\"code\":\"model_not_found\"}}"))) {
            CallGovernor governor = new CallGovernor(FAST);

            assertThatThrownBy(() -> reviewer(governor, model(server.baseUrl())).review(request("A kettle.")))
                    .isInstanceOf(ConfigurationException.class)
                    .hasMessageContaining("model not found")
                    .hasMessageContaining("model.model");
            assertThat(server.requests()).hasSize(1);
            assertThat(governor.snapshot().run().errors(ErrorKind.MODEL_NOT_FOUND)).isEqualTo(1);
            assertThat(governor.snapshot().run().errors(ErrorKind.BAD_REQUEST)).isZero();
        }
    }

    @Test
    void aBadRequestFailsTheCallWithoutRetry() throws Exception {
        try (ScriptedServer server = ScriptedServer.replying(status(400, "{\"error\":{\"message\":\"context too long\"}}"))) {
            CallGovernor governor = new CallGovernor(FAST);

            ReviewOutcome outcome = reviewer(governor, model(server.baseUrl())).review(request("A kettle."));

            assertThat(outcome).isInstanceOfSatisfying(ReviewOutcome.FailedToReview.class,
                    f -> assertThat(f.kind()).isEqualTo(ReviewOutcome.FailureKind.TRANSPORT));
            assertThat(server.requests()).hasSize(1);
            assertThat(governor.snapshot().run().errors(ErrorKind.BAD_REQUEST)).isEqualTo(1);
        }
    }

    @Test
    void aMissingApiKeyVariableIsAConfigurationErrorNamingIt() {
        ModelSpec spec = new ModelSpec("http://127.0.0.1:1/v1", "m", "NO_SUCH_KEY_VAR", 0, Duration.ofSeconds(1), 10,
                ModelSpec.StructuredOutput.JSON_SCHEMA, null, null);

        assertThatThrownBy(() -> LlmClient.create(spec, ROLE, new CallGovernor(FAST), ENV))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("NO_SUCH_KEY_VAR");
    }

    @Test
    void theBaseUrlDefaultsToTheEnvironmentThenOpenAi() {
        ModelSpec noUrl = new ModelSpec(null, "m", "K", 0, Duration.ofSeconds(1), 10, ModelSpec.StructuredOutput.JSON_SCHEMA, null, null);

        assertThat(LlmClient.resolveBaseUrl(noUrl, n -> n.equals("OPENAI_BASE_URL") ? "http://localhost:11434/v1/" : null))
                .isEqualTo("http://localhost:11434/v1");
        assertThat(LlmClient.resolveBaseUrl(noUrl, n -> null)).isEqualTo("https://api.openai.com/v1");
    }

    @Test
    void aReachedCallBudgetStopsBeforeTheCall() throws Exception {
        try (ScriptedServer server = ScriptedServer.replying(Reply.ok(LlmFixtures.passJson()))) {
            CallGovernor governor = new CallGovernor(FAST, new BudgetSpec(1L, null, null, null, null, null), SpendSnapshot.NONE);
            LlmReviewer reviewer = reviewer(governor, model(server.baseUrl()));
            reviewer.review(request("A kettle."));

            assertThatThrownBy(() -> reviewer.review(request("Another kettle.")))
                    .isInstanceOfSatisfying(BudgetExceededException.class, e -> {
                        assertThat(e.limit()).isEqualTo(BudgetExceededException.Limit.MAX_CALLS);
                        assertThat(e.getMessage()).contains("budget.max-calls");
                    });
            assertThat(server.requests()).hasSize(1);
        }
    }

    @Test
    void tokenAndRoundBudgetsStopBeforeTheCallAndAResumedRunCountsCumulatively() throws Exception {
        try (ScriptedServer server = ScriptedServer.replying(Reply.ok(LlmFixtures.passJson(), "stop", 100, 20))) {
            // given a per-round call budget of 1
            CallGovernor governor = new CallGovernor(FAST, new BudgetSpec(null, null, null, 1L, null, null), SpendSnapshot.NONE);
            governor.startRound(1);
            reviewer(governor, model(server.baseUrl())).review(request("A kettle."));

            // then a second call in round 1 is refused
            assertThatThrownBy(() -> reviewer(governor, model(server.baseUrl())).review(request("A kettle.")))
                    .isInstanceOfSatisfying(BudgetExceededException.class,
                            e -> assertThat(e.limit()).isEqualTo(BudgetExceededException.Limit.MAX_CALLS_PER_ROUND));
            // and round 2 may call again
            governor.startRound(2);
            reviewer(governor, model(server.baseUrl())).review(request("A kettle."));
            SpendSnapshot stored = governor.snapshot();
            assertThat(stored.run().total().tokens()).isEqualTo(240);

            // when the run resumes in round 3 with the spend restored, under a run token budget of 400:
            // a call reserved at the mean 120 fits once (360), not twice (480)
            CallGovernor resumed = new CallGovernor(FAST, new BudgetSpec(null, 400L, null, 1L, null, null), stored);
            resumed.startRound(3);
            reviewer(resumed, model(server.baseUrl())).review(request("A kettle."));
            resumed.startRound(4);
            assertThatThrownBy(() -> reviewer(resumed, model(server.baseUrl())).review(request("A kettle.")))
                    .isInstanceOfSatisfying(BudgetExceededException.class,
                            e -> assertThat(e.limit()).isEqualTo(BudgetExceededException.Limit.MAX_TOKENS));
            assertThat(server.requests()).hasSize(3);
            SpendSnapshot after = resumed.snapshot();
            assertThat(after.run().total().calls()).isEqualTo(3);
            assertThat(after.rounds()).containsKeys(1, 2, 3);
            assertThat(after.rounds().get(1).total().calls()).isEqualTo(1);

            // and raising the budget lets the resumed run go on, still counting from where it was
            CallGovernor raised = new CallGovernor(FAST, new BudgetSpec(null, 1000L, null, 1L, null, null), after);
            reviewer(raised, model(server.baseUrl())).review(request("A kettle."));
            assertThat(raised.snapshot().run().total().calls()).isEqualTo(4);
            assertThat(raised.snapshot().currentRound().total().calls()).isEqualTo(1);
        }
    }

    @Test
    void aCostBudgetUsesThePrices() throws Exception {
        try (ScriptedServer server = ScriptedServer.replying(Reply.ok(LlmFixtures.passJson(), "stop", 1000, 250))) {
            // 1000 × 2.0/M + 250 × 8.0/M = 0.004 per call: a third call, reserved at that mean, would
            // take 0.008 spent to 0.012, past the budget, and is not sent
            CallGovernor governor = new CallGovernor(FAST, new BudgetSpec(null, null, 0.009, null, null, null), SpendSnapshot.NONE);
            LlmReviewer reviewer = reviewer(governor, model(server.baseUrl()));
            reviewer.review(request("A kettle."));
            reviewer.review(request("A kettle."));

            assertThatThrownBy(() -> reviewer.review(request("A kettle.")))
                    .isInstanceOfSatisfying(BudgetExceededException.class,
                            e -> assertThat(e.limit()).isEqualTo(BudgetExceededException.Limit.MAX_COST));
            assertThat(server.requests()).hasSize(2);
        }
    }

    @Test
    void tokensAndCostAreCountedPerRoleFromTheServersUsage() throws Exception {
        try (ScriptedServer server = ScriptedServer.answering(r -> r.body().contains("Fix ONLY")
                ? Reply.ok("The Trail Kettle has a 2-year warranty.", "stop", 700, 60)
                : Reply.ok(LlmFixtures.passJson(), "stop", 1000, 250))) {
            CallGovernor governor = new CallGovernor(FAST);
            LlmReviewer b = reviewer(governor, model(server.baseUrl()));
            LlmReviewer c = new LlmReviewer("C", Set.copyOf(IDS),
                    LlmClient.create(model(server.baseUrl()), LlmRoles.reviewer("C"), governor, ENV));
            LlmFixer fixer = new LlmFixer(LlmClient.create(model(server.baseUrl()), LlmRoles.FIXER, governor, ENV));

            b.review(request("A kettle."));
            b.review(request("A kettle."));
            c.review(request("A kettle."));
            fixer.fix(LlmFixtures.fixRequest("The Trail Kettle has a 5-year warranty.", List.of("accuracy: 5 years, source says 2")));

            Tally run = governor.snapshot().run();
            assertThat(run.role("reviewer:B")).isEqualTo(new CallCounts(2, 0, 0, 2000, 500, 2 * 0.004));
            assertThat(run.role("reviewer:C").inputTokens()).isEqualTo(1000);
            assertThat(run.role("reviewer:C").outputTokens()).isEqualTo(250);
            assertThat(run.role("fixer").inputTokens()).isEqualTo(700);
            assertThat(run.role("fixer").outputTokens()).isEqualTo(60);
            assertThat(run.role("fixer").cost()).isCloseTo(700 * 2.0 / 1e6 + 60 * 8.0 / 1e6, org.assertj.core.data.Offset.offset(1e-12));
            assertThat(run.total().inputTokens()).isEqualTo(3700);
            assertThat(run.total().outputTokens()).isEqualTo(810);
            assertThat(run.total().cost()).isCloseTo(3 * 0.004 + 0.00188, org.assertj.core.data.Offset.offset(1e-12));
            assertThat(run.total().calls()).isEqualTo(4);
        }
    }

    /** A ledger in memory that records, with each reservation, how many requests the server had then. */
    static final class RecordingLedger implements CallLedger {
        final Map<Integer, Map<String, CallCounts>> rows = new java.util.concurrent.ConcurrentHashMap<>();
        final List<Integer> serverRequestsAtReservation = new java.util.concurrent.CopyOnWriteArrayList<>();
        java.util.function.IntSupplier serverRequests = () -> 0;
        volatile boolean failing;
        /** The process "dies" right after the next answered attempt's record is committed: nothing after it runs. */
        volatile boolean killAfterAnswered;

        @Override
        public Map<Integer, Map<String, CallCounts>> recorded() {
            return rows;
        }

        @Override
        public synchronized void reserve(int round, String role) {
            if (failing) {
                throw new IllegalStateException("store unavailable");
            }
            serverRequestsAtReservation.add(serverRequests.getAsInt());
            rows.computeIfAbsent(round, k -> new java.util.HashMap<>()).merge(role, new CallCounts(1, 0, 0, 0, 0, 0), CallCounts::plus);
        }

        @Override
        public synchronized void answered(int round, String role, long in, long out, double cost, CallLedger.Kept kept) {
            rows.computeIfAbsent(round, k -> new java.util.HashMap<>()).merge(role, new CallCounts(0, 0, 0, in, out, cost), CallCounts::plus);
            if (kept != null) {
                answers.put(kept.key() + "#" + kept.ordinal(), kept.answer());
            }
            if (killAfterAnswered) {
                killAfterAnswered = false;
                throw new Killed();
            }
        }

        final Map<String, ModelAnswer> answers = new java.util.concurrent.ConcurrentHashMap<>();

        @Override
        public java.util.Optional<ModelAnswer> answer(String key, int ordinal) {
            return java.util.Optional.ofNullable(answers.get(key + "#" + ordinal));
        }

        @Override
        public void forgetAnswers() {
            answers.clear();
        }
    }

    @Test
    void aRoundStartedAfterAKillAsksAfreshWhatAnEarlierRoundWasAnsweredAndAResumedRoundIsHandedItsKeptAnswer() throws Exception {
        try (ScriptedServer server = ScriptedServer.replying(Reply.ok("round 1"), Reply.ok("round 2"), Reply.ok("round 2, again"))) {
            // given an execution that asked a question in round 1 (its answer kept), stored that round's
            // work and was killed before its next call
            RecordingLedger ledger = new RecordingLedger();
            CallGovernor first = new CallGovernor(FAST, NO_BUDGET, SpendSnapshot.NONE, ledger);
            first.startRound(1);
            assertThat(client(first, server.baseUrl()).ask("system", "user", null).text()).isEqualTo("round 1");

            // when the resumed execution starts round 2 and asks the same question (a fresh review of an
            // unchanged text), and is killed in turn
            CallGovernor second = new CallGovernor(FAST, NO_BUDGET, SpendSnapshot.NONE, ledger);
            second.startRound(2);
            String inRound2 = client(second, server.baseUrl()).ask("system", "user", null).text();

            // then round 2 asked afresh: round 1's answer, already used, is not handed out again
            assertThat(inRound2).isEqualTo("round 2");
            assertThat(server.requests()).hasSize(2);

            // and an execution resuming round 2 is handed round 2's kept answer, then asks afresh
            CallGovernor third = new CallGovernor(FAST, NO_BUDGET, SpendSnapshot.NONE, ledger);
            third.startRound(2);
            LlmClient resumed = client(third, server.baseUrl());
            assertThat(resumed.ask("system", "user", null).text()).isEqualTo("round 2");
            assertThat(server.requests()).hasSize(2);
            assertThat(resumed.ask("system", "user", null).text()).isEqualTo("round 2, again");
            assertThat(server.requests()).hasSize(3);
        }
    }

    @Test
    void anAnswerAKilledExecutionReceivedIsHandedToTheResumedOneUnpaidAndAQuestionAskedAgainIsFresh() throws Exception {
        try (ScriptedServer server = ScriptedServer.replying(Reply.ok("first"), Reply.ok("second"), Reply.ok("third"))) {
            // given an execution that asked once and was then killed (its answer kept in the ledger)
            RecordingLedger ledger = new RecordingLedger();
            LlmClient before = client(new CallGovernor(FAST, NO_BUDGET, SpendSnapshot.NONE, ledger), server.baseUrl());
            assertThat(before.ask("system", "user", null).text()).isEqualTo("first");

            // when the resumed execution asks the same question twice (an answer retry), and another
            CallGovernor resumed = new CallGovernor(FAST, NO_BUDGET, SpendSnapshot.NONE, ledger);
            LlmClient after = client(resumed, server.baseUrl());
            String again = after.ask("system", "user", null).text();
            String retry = after.ask("system", "user", null).text();
            String other = after.ask("system", "another user", null).text();

            // then the kept answer is handed back without a call; the retry and the new question are called
            assertThat(again).isEqualTo("first");
            assertThat(retry).isEqualTo("second");
            assertThat(other).isEqualTo("third");
            assertThat(server.requests()).hasSize(3);
            // the run counts every call the server received, the killed execution's included, and no more
            assertThat(resumed.snapshot().run().total().calls()).isEqualTo(3);
        }
    }

    @Test
    void aKeptAnswerIsHandedOnlyToAResumeOfTheStepItWasAskedInAndALaterRoundOrAnotherStepAsksAfresh() throws Exception {
        try (ScriptedServer server = ScriptedServer.replying(Reply.ok("first"), Reply.ok("second"), Reply.ok("third"))) {
            // given an execution that asked a question in round 1's review step and was then stopped or killed
            RecordingLedger ledger = new RecordingLedger();
            CallGovernor stopped = new CallGovernor(FAST, NO_BUDGET, SpendSnapshot.NONE, ledger);
            stopped.keepAnswersFor("round 1 review");
            assertThat(client(stopped, server.baseUrl()).ask("system", "user", null).text()).isEqualTo("first");

            // when a resumed execution asks it again in the same step of the same round
            CallGovernor resumed = new CallGovernor(FAST, NO_BUDGET, SpendSnapshot.NONE, ledger);
            resumed.keepAnswersFor("round 1 review");
            String resumedAnswer = client(resumed, server.baseUrl()).ask("system", "user", null).text();
            // and later executions ask it for the first time in round 2's review step and in round 1's batch fix
            CallGovernor later = new CallGovernor(FAST, NO_BUDGET, SpendSnapshot.NONE, ledger);
            later.keepAnswersFor("round 2 review");
            String laterRound = client(later, server.baseUrl()).ask("system", "user", null).text();
            CallGovernor other = new CallGovernor(FAST, NO_BUDGET, SpendSnapshot.NONE, ledger);
            other.keepAnswersFor("round 1 batch-fix");
            String otherStep = client(other, server.baseUrl()).ask("system", "user", null).text();

            // then only the resume is handed the kept answer; the later round's and the other step's asks are real calls
            assertThat(resumedAnswer).isEqualTo("first");
            assertThat(laterRound).isEqualTo("second");
            assertThat(otherStep).isEqualTo("third");
            assertThat(server.requests()).hasSize(3);
        }
    }

    @Test
    void aStepStartedThroughTheRunsModelCallsKeepsAnswersForThatStepOfItsRoundAlone() throws Exception {
        try (ScriptedServer server = ScriptedServer.replying(Reply.ok("review"), Reply.ok("canary"), Reply.ok("unused"))) {
            // given an execution that asked a question in round 1's review step, as the step listener starts it
            RecordingLedger ledger = new RecordingLedger();
            CallGovernor first = new CallGovernor(FAST, NO_BUDGET, SpendSnapshot.NONE, ledger);
            new dev.santabatch.model.ModelCalls(first, null, 0, null).startStep(1, "review");
            assertThat(client(first, server.baseUrl()).ask("system", "user", null).text()).isEqualTo("review");

            // when a resumed execution starts round 1's canary step and asks the same question (a clean
            // canary copies a sampled item), then the review step again
            CallGovernor resumed = new CallGovernor(FAST, NO_BUDGET, SpendSnapshot.NONE, ledger);
            dev.santabatch.model.ModelCalls calls = new dev.santabatch.model.ModelCalls(resumed, null, 0, null);
            calls.startStep(1, "canaries");
            String canary = client(resumed, server.baseUrl()).ask("system", "user", null).text();
            CallGovernor again = new CallGovernor(FAST, NO_BUDGET, SpendSnapshot.NONE, ledger);
            new dev.santabatch.model.ModelCalls(again, null, 0, null).startStep(1, "review");
            String review = client(again, server.baseUrl()).ask("system", "user", null).text();

            // then the canary step asks afresh (not handed the review's answer), the review step's resume is handed it back
            assertThat(canary).isEqualTo("canary");
            assertThat(review).isEqualTo("review");
            assertThat(server.requests()).hasSize(2);
            // and the per-round spend counts round 1
            assertThat(resumed.snapshot().round()).isEqualTo(1);
        }
    }

    /** A process killed at this point: an Error, so that no handler of the code under test runs. */
    static final class Killed extends Error {
        Killed() {
            super("killed", null, false, false);
        }
    }

    @Test
    void aKillRightAfterAnAnswersUsageIsCommittedLosesNoAnswer() throws Exception {
        try (ScriptedServer server = ScriptedServer.replying(Reply.ok("first", "stop", 100, 20), Reply.ok("second"))) {
            // given an execution killed at the first commit after its answer arrived
            RecordingLedger ledger = new RecordingLedger();
            ledger.killAfterAnswered = true;
            LlmClient killed = client(new CallGovernor(FAST, NO_BUDGET, SpendSnapshot.NONE, ledger), server.baseUrl());
            assertThatThrownBy(() -> killed.ask("system", "user", null)).isInstanceOf(Killed.class);

            // when the resumed execution asks the same question
            CallGovernor resumed = new CallGovernor(FAST, NO_BUDGET, SpendSnapshot.NONE, ledger);
            ModelAnswer again = client(resumed, server.baseUrl()).ask("system", "user", null);

            // then the answer whose usage was committed was kept with it: handed back, not paid again
            assertThat(again.text()).isEqualTo("first");
            assertThat(server.requests()).hasSize(1);
            // and its spend counted once: one call, its tokens
            CallCounts total = resumed.snapshot().run().total();
            assertThat(total.calls()).isEqualTo(1);
            assertThat(total.inputTokens()).isEqualTo(100);
            assertThat(total.outputTokens()).isEqualTo(20);
        }
    }

    @Test
    void aReviewAnsweredBeforeAKillIsNotAskedAgainWithItsJsonSchemaFormat() throws Exception {
        try (ScriptedServer server = ScriptedServer.replying(Reply.ok(LlmFixtures.passJson()))) {
            // given a review answered (with the reviewer's structured-output format) by an execution then killed
            RecordingLedger ledger = new RecordingLedger();
            reviewer(new CallGovernor(FAST, NO_BUDGET, SpendSnapshot.NONE, ledger), model(server.baseUrl())).review(request("A kettle."));

            // when the resumed execution's reviewer reviews the same text
            ReviewOutcome again = reviewer(new CallGovernor(FAST, NO_BUDGET, SpendSnapshot.NONE, ledger), model(server.baseUrl()))
                    .review(request("A kettle."));

            // then the kept answer is used: one request in all
            assertThat(again).isInstanceOf(ReviewOutcome.Reviewed.class);
            assertThat(server.requests()).hasSize(1);
        }
    }

    private static LlmClient client(CallGovernor governor, String baseUrl) {
        return LlmClient.create(model(baseUrl), ROLE, governor, k -> "test-key");
    }

    @Test
    void everyAttemptIsReservedInTheLedgerBeforeItIsSentAndItsUsageRecordedWhenAnswered() throws Exception {
        try (ScriptedServer server = ScriptedServer.replying(status(503, "busy"), Reply.ok(LlmFixtures.passJson(), "stop", 100, 20))) {
            RecordingLedger ledger = new RecordingLedger();
            ledger.serverRequests = () -> server.requests().size();
            CallGovernor governor = new CallGovernor(FAST, NO_BUDGET, SpendSnapshot.NONE, ledger);
            governor.startRound(1);

            reviewer(governor, model(server.baseUrl())).review(request("A kettle."));

            // each attempt (the retry included) was reserved while the server had not yet received it
            assertThat(ledger.serverRequestsAtReservation).containsExactly(0, 1);
            assertThat(ledger.rows.get(1).get(ROLE)).isEqualTo(new CallCounts(2, 0, 0, 100, 20, 100 * 2.0 / 1e6 + 20 * 8.0 / 1e6));
        }
    }

    @Test
    void aStopRequestedWhileAnAttemptFailsRefusesItsRetryCountingItCancelled() throws Exception {
        try (ScriptedServer server = ScriptedServer.replying(status(503, "busy"), Reply.ok(LlmFixtures.passJson()))) {
            // given a stop requested once the server has received the first attempt
            CallGovernor governor = new CallGovernor(FAST, NO_BUDGET, SpendSnapshot.NONE, CallLedger.NONE,
                    () -> !server.requests().isEmpty());

            // when that attempt fails, its retry is refused as a stop, not sent
            assertThatThrownBy(() -> reviewer(governor, model(server.baseUrl())).review(request("A kettle.")))
                    .isInstanceOf(CallsStoppedException.class)
                    .hasCauseInstanceOf(org.springframework.batch.core.job.JobInterruptedException.class);
            assertThat(server.requests()).hasSize(1);
            Tally run = governor.snapshot().run();
            assertThat(run.total().calls()).isEqualTo(1);
            assertThat(run.errorsByKind()).containsEntry("5xx", 1L).containsEntry("cancelled", 1L);
        }
    }

    @Test
    void aLedgerThatCannotRecordTheAttemptStopsItBeforeItIsSent() throws Exception {
        try (ScriptedServer server = ScriptedServer.replying(Reply.ok(LlmFixtures.passJson()))) {
            RecordingLedger ledger = new RecordingLedger();
            ledger.failing = true;
            CallGovernor governor = new CallGovernor(FAST, NO_BUDGET, SpendSnapshot.NONE, ledger);

            assertThatThrownBy(() -> reviewer(governor, model(server.baseUrl())).review(request("A kettle.")))
                    .hasMessageContaining("store unavailable");
            assertThat(server.requests()).isEmpty();
            assertThat(governor.snapshot().run().total().calls()).isZero();
        }
    }

    @Test
    void aResumedGovernorCountsTheCallsTheLedgerHoldsBeyondTheStoredSnapshot() throws Exception {
        try (ScriptedServer server = ScriptedServer.replying(Reply.ok(LlmFixtures.passJson(), "stop", 100, 20))) {
            // given a killed execution: 5 calls reserved, its snapshot saved after 3
            RecordingLedger ledger = new RecordingLedger();
            ledger.rows.put(1, new java.util.HashMap<>(Map.of(ROLE, new CallCounts(5, 0, 0, 500, 100, 0))));
            SpendSnapshot saved = new SpendSnapshot(1, new Tally(new CallCounts(3, 0, 0, 300, 60, 0), Map.of(ROLE,
                    new CallCounts(3, 0, 0, 300, 60, 0)), Map.of()), Map.of(1, new Tally(new CallCounts(3, 0, 0, 300, 60, 0),
                    Map.of(ROLE, new CallCounts(3, 0, 0, 300, 60, 0)), Map.of())));

            // when it resumes under max-calls 6
            CallGovernor resumed = new CallGovernor(FAST, new BudgetSpec(6L, null, null, null, null, null), saved, ledger);

            // then it counts the 5 calls (as a report of the run does), may send one more, and refuses
            // the next before sending it
            assertThat(resumed.snapshot().run().total().calls()).isEqualTo(5);
            assertThat(CallGovernor.counted(saved, ledger)).isEqualTo(resumed.snapshot());
            assertThat(resumed.snapshot().run().role(ROLE).tokens()).isEqualTo(600);
            assertThat(resumed.snapshot().currentRound().total().calls()).isEqualTo(5);
            LlmReviewer reviewer = reviewer(resumed, model(server.baseUrl()));
            reviewer.review(request("A kettle."));
            assertThatThrownBy(() -> reviewer.review(request("A kettle.")))
                    .isInstanceOfSatisfying(BudgetExceededException.class, e -> assertThat(e.spent()).isEqualTo(6));
            assertThat(server.requests()).hasSize(1);
        }
    }

    @Test
    void aTokenBudgetCountsTheCallsInFlightAtTheMeanUsageOfTheAnsweredOnes() throws Exception {
        try (ScriptedServer server = ScriptedServer.replying(Reply.ok(LlmFixtures.passJson(), "stop", 500, 100).after(Duration.ofMillis(300)))) {
            // given 600 tokens per call and a budget of 2000 tokens (the first call's own estimate, its
            // prompt and 512 output tokens, is within it)
            CallGovernor governor = new CallGovernor(FAST.withInFlight(16, 16), new BudgetSpec(null, 2000L, null, null, null, null),
                    SpendSnapshot.NONE);
            LlmReviewer reviewer = reviewer(governor, model(server.baseUrl()));
            reviewer.review(request("A kettle."));

            // when 8 calls are started at once
            List<Throwable> refused = new java.util.concurrent.CopyOnWriteArrayList<>();
            runConcurrently(8, () -> {
                try {
                    reviewer.review(request("A kettle."));
                } catch (BudgetExceededException e) {
                    refused.add(e);
                }
            });

            // then only those the budget can pay for at 600 tokens each were sent (2 more: a third would
            // take the 1800 spent and reserved to 2400 > 2000), not all 8 on the strength of 600 spent
            assertThat(server.requests()).hasSize(3);
            assertThat(refused).hasSize(6);
        }
    }

    @Test
    void aFirstCallWhoseOwnEstimateIsPastATokenOrACostBudgetIsNotSent() throws Exception {
        for (BudgetSpec budget : List.of(new BudgetSpec(null, 1L, null, null, null, null),
                new BudgetSpec(null, null, 1e-9, null, null, null))) {
            try (ScriptedServer server = ScriptedServer.replying(Reply.ok(LlmFixtures.passJson(), "stop", 100, 20).after(Duration.ofMillis(300)))) {
                // given a budget of one token (one billionth of a unit of cost), and no call answered yet
                CallGovernor governor = new CallGovernor(FAST.withInFlight(16, 16), budget, SpendSnapshot.NONE);
                LlmReviewer reviewer = reviewer(governor, model(server.baseUrl()));

                // when 8 calls are started at once
                List<Throwable> refused = new java.util.concurrent.CopyOnWriteArrayList<>();
                runConcurrently(8, () -> {
                    try {
                        reviewer.review(request("A kettle."));
                    } catch (BudgetExceededException e) {
                        refused.add(e);
                    }
                });

                // then the first one's own estimate (its prompt, 512 output tokens) is past the budget: none
                // is sent, not all 8 at 0 each
                assertThat(server.requests()).as("%s", budget).isEmpty();
                assertThat(refused).hasSize(8);
            }
        }
    }

    @Test
    void aResumedRunsFirstCallsInFlightHoldTheEarlierExecutionsMeanUsage() throws Exception {
        try (ScriptedServer server = ScriptedServer.replying(Reply.ok(LlmFixtures.passJson(), "stop", 100, 20).after(Duration.ofMillis(300)))) {
            // given an earlier execution's calls, tokens recorded in the ledger: 1 call of 120 tokens,
            // and a budget of 400 tokens
            RecordingLedger ledger = new RecordingLedger();
            ledger.rows.put(1, new java.util.HashMap<>(Map.of(ROLE, new CallCounts(1, 0, 0, 100, 20, 0))));
            CallGovernor governor = new CallGovernor(FAST.withInFlight(16, 16), new BudgetSpec(null, 400L, null, null, null, null),
                    SpendSnapshot.NONE, ledger);
            governor.startRound(1);
            LlmReviewer reviewer = reviewer(governor, model(server.baseUrl()));

            // when the resumed execution starts 8 calls at once, before any of its own is answered
            List<Throwable> refused = new java.util.concurrent.CopyOnWriteArrayList<>();
            runConcurrently(8, () -> {
                try {
                    reviewer.review(request("A kettle."));
                } catch (BudgetExceededException e) {
                    refused.add(e);
                }
            });

            // then each in flight held 120 tokens: 2 were sent (120 + 2 x 120 = 360; a third would take it
            // to 480), not all 8 at 0 each
            assertThat(server.requests()).hasSize(2);
            assertThat(refused).hasSize(6);
        }
    }

    @Test
    void theCircuitBreakerOpensAfterConsecutiveFailuresAndNothingMoreIsSentToTheEndpoint() throws Exception {
        try (ScriptedServer server = ScriptedServer.answering(r -> status(503, "{\"error\":{\"message\":\"down\"}}"))) {
            // given a breaker at 5 and 2 attempts per call
            CallGovernor governor = new CallGovernor(FAST.withRetries(2, Duration.ofMillis(1), Duration.ofMillis(1))
                    .withCircuitBreakerFailures(5));
            LlmReviewer reviewer = reviewer(governor, model(server.baseUrl()));
            reviewer.review(request("A kettle."));
            reviewer.review(request("A kettle."));

            // then the fifth consecutive 503 opens it: the call fails the step in one line naming the endpoint
            assertThatThrownBy(() -> reviewer.review(request("A kettle.")))
                    .isInstanceOf(EndpointDownException.class)
                    .hasMessage("endpoint " + server.baseUrl() + ": 5 consecutive failures (503 x5); stopped calling it"
                            + " (governor.circuit-breaker-failures: 5); run again with the same run id once it answers"
                            + " (what is done is kept)")
                    .hasNoCause();
            // and a later call is refused without being sent, counted cancelled
            assertThatThrownBy(() -> reviewer.review(request("Another kettle."))).isInstanceOf(EndpointDownException.class);
            assertThat(server.requests()).hasSize(5);
            Tally run = governor.snapshot().run();
            assertThat(run.total().calls()).isEqualTo(5);
            assertThat(run.errors(ErrorKind.SERVER_ERROR)).isEqualTo(5);
            assertThat(run.errors(ErrorKind.CANCELLED)).isEqualTo(1);
        }
    }

    @Test
    void rateLimitsDoNotCountForTheBreakerAndASuccessResetsIt() throws Exception {
        // 503, 503, 429, 503, success, then 503 x3: never 4 countable failures in a row
        try (ScriptedServer server = ScriptedServer.replying(status(503, "{}"), status(503, "{}"),
                Reply.status(429, "{}", Map.of("Retry-After", "0")), status(503, "{}"), Reply.ok(LlmFixtures.passJson()),
                status(503, "{}"), status(503, "{}"), status(503, "{}"), Reply.ok(LlmFixtures.passJson()))) {
            CallGovernor governor = new CallGovernor(FAST.withRetries(5, Duration.ofMillis(1), Duration.ofMillis(1))
                    .withCircuitBreakerFailures(4));
            LlmReviewer reviewer = reviewer(governor, model(server.baseUrl()));

            assertThat(reviewer.review(request("A kettle."))).isInstanceOf(ReviewOutcome.Reviewed.class);
            assertThat(reviewer.review(request("A kettle."))).isInstanceOf(ReviewOutcome.Reviewed.class);
            assertThat(server.requests()).hasSize(9);
        }
    }

    @Test
    void connectionFailuresOpenTheBreakerAndItsLineSaysSo() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        String endpoint = "http://127.0.0.1:" + port + "/v1";
        CallGovernor governor = new CallGovernor(FAST.withRetries(3, Duration.ofMillis(1), Duration.ofMillis(1))
                .withCircuitBreakerFailures(3));

        assertThatThrownBy(() -> reviewer(governor, model(endpoint)).review(request("A kettle.")))
                .isInstanceOf(EndpointDownException.class)
                .hasMessageStartingWith("endpoint " + endpoint + ": 3 consecutive failures (connection x3); stopped calling it");
        assertThat(governor.snapshot().run().errors(ErrorKind.CONNECTION)).isEqualTo(3);
    }

    @Test
    void aConfigurationErrorAbortsTheEndpointSoLaterCallsAreCancelledNotSent() throws Exception {
        try (ScriptedServer server = ScriptedServer.replying(status(401, "{\"error\":{\"message\":\"bad key\"}}"))) {
            CallGovernor governor = new CallGovernor(FAST);
            LlmReviewer reviewer = reviewer(governor, model(server.baseUrl()));
            assertThatThrownBy(() -> reviewer.review(request("A kettle."))).isInstanceOf(ConfigurationException.class);

            assertThatThrownBy(() -> reviewer.review(request("A kettle.")))
                    .isInstanceOf(ConfigurationException.class).hasMessageContaining("authentication failed");
            assertThat(server.requests()).hasSize(1);
            assertThat(governor.snapshot().run().errors(ErrorKind.CANCELLED)).isEqualTo(1);
            assertThat(governor.snapshot().run().errors(ErrorKind.CONNECTION)).isZero();
        }
    }

    @Test
    void callsInFlightPerModelNeverExceedTheLimit() throws Exception {
        try (ScriptedServer server = ScriptedServer.replying(Reply.ok(LlmFixtures.passJson()).after(Duration.ofMillis(150)))) {
            CallGovernor governor = new CallGovernor(FAST.withInFlight(16, 3));
            LlmReviewer reviewer = reviewer(governor, model(server.baseUrl()));

            runConcurrently(12, () -> reviewer.review(request("A kettle.")));

            assertThat(server.requests()).hasSize(12);
            assertThat(server.maxInFlight()).isLessThanOrEqualTo(3).isGreaterThanOrEqualTo(2);
        }
    }

    @Test
    void callsInFlightPerEndpointCoverAllModels() throws Exception {
        try (ScriptedServer server = ScriptedServer.replying(Reply.ok(LlmFixtures.passJson()).after(Duration.ofMillis(150)))) {
            CallGovernor governor = new CallGovernor(FAST.withInFlight(2, 8));
            LlmReviewer b = reviewer(governor, model(server.baseUrl()));
            ModelSpec other = new ModelSpec(server.baseUrl(), "other-model", LlmFixtures.KEY_ENV, 0, Duration.ofSeconds(5), 512,
                    ModelSpec.StructuredOutput.JSON_SCHEMA, null, null);
            LlmReviewer c = new LlmReviewer("C", Set.copyOf(IDS), LlmClient.create(other, LlmRoles.reviewer("C"), governor, ENV));

            runConcurrently(8, () -> {
                b.review(request("A kettle."));
                c.review(request("A kettle."));
            });

            assertThat(server.requests()).hasSize(16);
            assertThat(server.maxInFlight()).isLessThanOrEqualTo(2);
        }
    }

    @Test
    void requestsPerMinuteAreSpacedOutAfterTheBurst() {
        // 600 per minute: a burst of 60, then one every 100 ms
        CallGovernor.TokenBucket bucket = new CallGovernor.TokenBucket(600);
        long start = System.nanoTime();
        for (int i = 0; i < 63; i++) {
            bucket.acquire();
        }
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        assertThat(took).isBetween(Duration.ofMillis(250), Duration.ofMillis(1500));
    }

    @Test
    void retryAfterIsReadAsSecondsMillisecondsOrDate() {
        assertThat(dev.santabatch.model.http.HttpStatusExceptionAccess.retryAfter(null, "2")).contains(Duration.ofSeconds(2));
        assertThat(dev.santabatch.model.http.HttpStatusExceptionAccess.retryAfter("1500", "9")).contains(Duration.ofMillis(1500));
        assertThat(dev.santabatch.model.http.HttpStatusExceptionAccess.retryAfter(null, "0.5")).contains(Duration.ofMillis(500));
        assertThat(dev.santabatch.model.http.HttpStatusExceptionAccess.retryAfter(null, "Wed, 21 Oct 2015 07:28:00 GMT")).contains(Duration.ZERO);
        assertThat(dev.santabatch.model.http.HttpStatusExceptionAccess.retryAfter(null, "soon")).isEmpty();
    }

    @Test
    void backoffDoublesUpToTheCapWithJitter() {
        CallGovernor governor = new CallGovernor(GovernorSettings.defaults());
        for (int i = 0; i < 20; i++) {
            assertThat(governor.backoff(1).toMillis()).isBetween(800L, 1200L);
            assertThat(governor.backoff(3).toMillis()).isBetween(3200L, 4800L);
            assertThat(governor.backoff(10).toMillis()).isBetween(24000L, 36000L);
        }
    }

    private static void runConcurrently(int tasks, Runnable task) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(tasks);
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int i = 0; i < tasks; i++) {
                futures.add(pool.submit(task));
            }
            for (Future<?> f : futures) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
