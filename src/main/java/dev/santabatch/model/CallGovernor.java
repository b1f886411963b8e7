package dev.santabatch.model;

import dev.langchain4j.model.output.TokenUsage;
import dev.santabatch.config.BudgetSpec;
import dev.santabatch.review.ConfigurationException;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.Callable;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one place every model call goes through. Thread-safe; one instance per run.
 *
 * <p>Per HTTP attempt, in this order: the model's request-per-minute token bucket (waits); a permit
 * of the endpoint's and of the model's in-flight semaphores (waits); the budgets (throws
 * {@link BudgetExceededException} before anything is sent) and the reservation of the attempt, made
 * durable through the {@link CallLedger} before the request is sent; the attempt; token and cost
 * accounting from the response (recorded in the ledger too, in one commit with the answer of a
 * question asked through {@link #ask}). Permits are released before any backoff wait, so a waiting
 * retry does not hold a slot.
 *
 * <p>Failures by {@link ErrorKind.Category}: retriable (429, 5xx, timeout, connection, malformed
 * response) are retried up to {@link GovernorSettings#maxAttempts()} after {@code Retry-After}
 * (with upward jitter) or an exponential backoff with jitter, then {@link ModelCallFailedException};
 * configuration (401/403, 404) throws {@link ConfigurationException} at once; a rejected request
 * (other 4xx) throws {@link ModelCallFailedException} at once; an unknown exception is rethrown.
 * Every failure is counted by kind; answer-level problems are counted by the caller through
 * {@link #recordAnswerError(String, ErrorKind)}.
 *
 * <p>Circuit breaker, per endpoint: {@link GovernorSettings#circuitBreakerFailures()} consecutive
 * 5xx, connection or timeout failures (429s and other answers do not count; a success resets)
 * open it: the call that saw the last one throws {@link EndpointDownException}, and so does every
 * later call to that endpoint without sending anything. A configuration error (401/403, 404)
 * likewise aborts its endpoint. Attempts refused after an abort, and attempts in flight whose
 * connection fails after it or whose thread is interrupted, are counted {@link ErrorKind#CANCELLED}
 * (not {@code connection}): the server never received them, or we cut them off.
 *
 * <p>A requested stop (SIGTERM, Ctrl-C) aborts every endpoint alike: an attempt not yet reserved
 * when it is seen is not sent, counted {@link ErrorKind#CANCELLED}, and throws
 * {@link CallsStoppedException}; attempts already sent run their course (their answers are kept).
 * So the items in flight at a stop make no further calls while the step ends, and every call the
 * endpoint received was reserved before the stop.
 *
 * <p>Budgets ({@link BudgetSpec}, per run and per round) are checked against reservations: every
 * attempt reserved counts as a call from the moment it is reserved (checked and counted atomically,
 * so the call limit is exact under concurrency; an attempt whose own reservation would go past a
 * limit is refused), and its tokens and cost are reserved at the mean
 * of the calls answered so far (before the first answer: the request's estimate, its prompt
 * characters / 4 plus the model's maximum output tokens, at the model's prices), then settled to
 * what the server reports. The
 * ledger holds every reservation before its request leaves, so a resumed run (which passes the
 * stored {@link SpendSnapshot} and the same ledger to the constructor) counts at least every call a
 * killed execution sent, at most the attempts in flight at the kill more.
 */
public final class CallGovernor {

    private static final Logger log = LoggerFactory.getLogger(CallGovernor.class);

    private final GovernorSettings settings;
    private final BudgetSpec budget;
    private final Map<String, Semaphore> endpointPermits = new ConcurrentHashMap<>();
    private final Map<String, Semaphore> modelPermits = new ConcurrentHashMap<>();
    private final Map<String, TokenBucket> rateLimiters = new ConcurrentHashMap<>();

    private final Map<String, Breaker> breakers = new ConcurrentHashMap<>();
    /** Endpoints whose calls are aborted (open breaker, configuration error). */
    private final Map<String, Abort> aborted = new ConcurrentHashMap<>();

    /**
     * Why an endpoint's calls are aborted and the exception every later call throws.
     *
     * @param configuration a configuration error (401/403, 404): an attempt in flight whose
     *     connection then fails was cut off, not failed by the endpoint
     */
    private record Abort(boolean configuration, Supplier<RuntimeException> exception) {}
    private final CallLedger ledger;
    /** Whether a stop was requested: no attempt is sent after it. */
    private final BooleanSupplier stopRequested;
    /** How many times this execution asked each question in its unit (a question's answers are kept by ordinal). */
    private final Map<String, java.util.concurrent.atomic.AtomicInteger> asked = new ConcurrentHashMap<>();
    /** The unit of work answers are kept for ({@link #keepAnswersFor}); empty: none named. */
    private volatile String unit = "";

    private final Object lock = new Object();
    private final Acc run;
    private final Map<Integer, Acc> rounds = new HashMap<>();
    private int round;
    /**
     * Calls counted so far (the earlier executions' included) and the usage of those answered: their
     * mean is the estimate a reservation holds.
     */
    private long answeredCalls;
    private long answeredTokens;
    private double answeredCost;

    /**
     * @param settings limits and retry policy
     * @param budget spending limits; all-null for none
     * @param prior spend of an earlier execution of the same run ({@link SpendSnapshot#NONE} for a new run)
     * @param ledger where attempts are reserved before they are sent; what it recorded of earlier
     *     executions (calls, tokens, cost) counts where it is more than {@code prior} says (an
     *     execution killed between two saves of the snapshot)
     * @param stopRequested whether a stop was requested (the run's stop flag): attempts are refused from then on
     */
    public CallGovernor(GovernorSettings settings, BudgetSpec budget, SpendSnapshot prior, CallLedger ledger,
            BooleanSupplier stopRequested) {
        this.stopRequested = Objects.requireNonNull(stopRequested, "stopRequested");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.budget = Objects.requireNonNull(budget, "budget");
        Objects.requireNonNull(prior, "prior");
        this.ledger = Objects.requireNonNull(ledger, "ledger");
        this.run = Acc.of(prior.run());
        prior.rounds().forEach((n, t) -> rounds.put(n, Acc.of(t)));
        this.round = prior.round();
        ledger.recorded().forEach((n, byRole) -> byRole.forEach((role, recorded) -> {
            Acc inRound = rounds.computeIfAbsent(n, k -> new Acc());
            long calls = Math.max(0, recorded.calls() - inRound.role(role).calls);
            long in = Math.max(0, recorded.inputTokens() - inRound.role(role).inputTokens);
            long out = Math.max(0, recorded.outputTokens() - inRound.role(role).outputTokens);
            double cost = Math.max(0, recorded.cost() - inRound.role(role).cost);
            if (calls > 0 || in > 0 || out > 0 || cost > 0) {
                for (Acc acc : new Acc[] {run, run.role(role), inRound, inRound.role(role)}) {
                    acc.calls += calls;
                    acc.add(in, out, cost);
                }
            }
        }));
        // a resumed run's first attempts in flight hold the earlier executions' mean usage, not nothing
        this.answeredCalls = run.calls;
        this.answeredTokens = run.tokens();
        this.answeredCost = run.cost;
    }

    /** A governor that no stop refuses (its caller stops calling it). */
    public CallGovernor(GovernorSettings settings, BudgetSpec budget, SpendSnapshot prior, CallLedger ledger) {
        this(settings, budget, prior, ledger, () -> false);
    }

    /** A governor whose reservations are not kept beyond this process. */
    public CallGovernor(GovernorSettings settings, BudgetSpec budget, SpendSnapshot prior) {
        this(settings, budget, prior, CallLedger.NONE);
    }

    /**
     * The spend a resumed run's governor starts from: {@code stored}, raised to what {@code ledger}
     * recorded where it recorded more (attempts reserved after the last save of the snapshot, by an
     * execution that was killed or stopped). What a report of the run counts.
     */
    public static SpendSnapshot counted(SpendSnapshot stored, CallLedger ledger) {
        return new CallGovernor(GovernorSettings.defaults(), BudgetSpec.NONE, stored, ledger).snapshot();
    }

    /** A governor with no budget and nothing spent. */
    public CallGovernor(GovernorSettings settings) {
        this(settings, BudgetSpec.NONE, SpendSnapshot.NONE);
    }

    public GovernorSettings settings() {
        return settings;
    }

    /**
     * Asks question {@code key} once more (thread-safe): the answer the run received the n-th time it
     * asked it in the current unit of work ({@link #keepAnswersFor}), n counted in this execution,
     * when the ledger kept one (an answer a killed or stopped execution of the same unit received:
     * not paid again, and not counted); otherwise a governed {@link #call} of {@code attempt}, whose
     * answer the ledger keeps in the commit that records its usage, before it is returned. A question
     * asked again in the same execution (an invalid answer's fresh retry) or in another unit (a later
     * round, another step) is a fresh call.
     */
    ModelAnswer ask(String key, ModelTarget target, String role, Estimate estimate, Callable<ModelAnswer> attempt)
            throws ModelCallFailedException {
        String inUnit = inUnit(key);
        int ordinal = asked.computeIfAbsent(inUnit, k -> new java.util.concurrent.atomic.AtomicInteger()).incrementAndGet();
        Optional<ModelAnswer> kept = ledger.answer(inUnit, ordinal);
        if (kept.isPresent()) {
            return kept.get();
        }
        return call(target, role, attempt, a -> new TokenUsage(Math.toIntExact(a.inputTokens()), Math.toIntExact(a.outputTokens())),
                a -> new CallLedger.Kept(inUnit, ordinal, a), estimate);
    }

    /**
     * What a request may use, known before it is sent: the reservation of an attempt made before any
     * call of the run was answered holds it (later ones hold the mean of the answered calls).
     *
     * @param inputTokens the prompt's characters / 4, rounded up
     * @param outputTokens the model's configured maximum output tokens
     */
    public record Estimate(long inputTokens, long outputTokens) {
        static final Estimate NONE = new Estimate(0, 0);

        /** The estimate of a request of {@code promptChars} characters to a model answering up to {@code maxOutputTokens}. */
        public static Estimate of(long promptChars, long maxOutputTokens) {
            return new Estimate((promptChars + 3) / 4, maxOutputTokens);
        }
    }

    /**
     * Names the unit of work the questions asked from now on belong to (a step of a round, e.g.
     * {@code "round 2 review"}): an answer is kept for, and handed back to, a re-ask of its question in
     * the same unit only, by a resumed execution of the step that was killed or stopped. The same
     * question asked in a later round, or by another step (a learned rule's fresh review of a passed
     * item), is a fresh call. Call it between steps, before their questions are asked.
     */
    public void keepAnswersFor(String unit) {
        this.unit = Objects.requireNonNull(unit, "unit");
    }

    /** The question's key within the current unit: a digest of both (SHA-256, hex, as long as the question's). */
    private String inUnit(String key) {
        String u = unit;
        if (u.isEmpty()) {
            return key;
        }
        try {
            java.security.MessageDigest d = java.security.MessageDigest.getInstance("SHA-256");
            d.update(u.getBytes(java.nio.charset.StandardCharsets.UTF_8));
            d.update((byte) 0);
            d.update(key.getBytes(java.nio.charset.StandardCharsets.UTF_8));
            return java.util.HexFormat.of().formatHex(d.digest());
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Starts counting round {@code n}: per-round budgets apply to its spend. Starting the current
     * round again (a resumed run) keeps its spend. Answers are kept for the round
     * ({@link #keepAnswersFor}, which a step refines); when no attempt of the run was reserved in it
     * yet, every earlier round's work is stored and the ledger forgets the answers it kept.
     */
    public void startRound(int n) {
        boolean firstTime;
        synchronized (lock) {
            round = n;
            rounds.computeIfAbsent(n, k -> new Acc());
            firstTime = !ledger.recorded().containsKey(n);
        }
        keepAnswersFor("round " + n);
        if (firstTime) {
            ledger.forgetAnswers();
        }
    }

    /** Everything counted so far, run and rounds; store it with the run. */
    public SpendSnapshot snapshot() {
        synchronized (lock) {
            Map<Integer, Tally> r = new HashMap<>();
            rounds.forEach((n, acc) -> r.put(n, acc.tally()));
            return new SpendSnapshot(round, run.tally(), r);
        }
    }

    /**
     * Makes one governed model call.
     *
     * @param target the model, for limits and prices
     * @param role who calls, for accounting ({@link LlmRoles})
     * @param attempt one HTTP attempt; called again for each retry (a fresh, stateless request)
     * @param usage the token usage of a response ({@code null} counts no tokens)
     * @return the response of the first successful attempt
     * @throws ModelCallFailedException retriable failures exhausted, or a rejected request
     * @throws ConfigurationException authentication failed or the model is unknown
     * @throws BudgetExceededException a budget is reached; nothing was sent
     * @throws EndpointDownException the endpoint's circuit breaker is open
     */
    public <T> T call(ModelTarget target, String role, Callable<T> attempt, Function<? super T, @Nullable TokenUsage> usage)
            throws ModelCallFailedException {
        return call(target, role, attempt, usage, null, Estimate.NONE);
    }

    /**
     * {@link #call}, keeping the answer {@code keep} makes of the result in the ledger with its usage
     * (none if null), reserving {@code estimate} while no call of the run has been answered.
     */
    private <T> T call(ModelTarget target, String role, Callable<T> attempt, Function<? super T, @Nullable TokenUsage> usage,
            @Nullable Function<? super T, CallLedger.Kept> keep, Estimate estimate) throws ModelCallFailedException {
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(role, "role");
        int attemptNo = 0;
        while (true) {
            attemptNo++;
            refuseIfStopped(role);
            refuseIfAborted(target, role);
            limiter(target).acquire();
            Semaphore endpoint = endpointPermits.computeIfAbsent(target.endpoint(), k -> new Semaphore(settings.maxInFlightPerEndpoint(), true));
            Semaphore model = modelPermits.computeIfAbsent(target.modelKey(), k -> new Semaphore(settings.maxInFlightPerModel(), true));
            Failures.Failure failure = null;
            Exception thrown = null;
            acquire(endpoint);
            try {
                acquire(model);
                try {
                    // the permits may have taken long: the last look before the attempt is reserved
                    refuseIfStopped(role);
                    refuseIfAborted(target, role);
                    Reservation reservation = reserveCall(role, attemptNo > 1, estimate.inputTokens() + estimate.outputTokens(),
                            target.cost(estimate.inputTokens(), estimate.outputTokens()));
                    boolean settled = false;
                    try {
                        T result = attempt.call();
                        recordUsage(target, role, reservation, result == null ? null : usage.apply(result),
                                result == null || keep == null ? null : keep.apply(result));
                        settled = true;
                        breaker(target).success();
                        return result;
                    } catch (CancellationException e) {
                        recordError(role, ErrorKind.CANCELLED);
                        throw e;
                    } catch (Exception e) {
                        thrown = e;
                        failure = Failures.classify(e);
                        boolean noAnswer = failure.kind() == ErrorKind.CONNECTION || failure.kind() == ErrorKind.TIMEOUT;
                        Abort abort = aborted.get(target.endpoint());
                        if (noAnswer && (abort != null && abort.configuration() || Thread.currentThread().isInterrupted())) {
                            // cut off by an abort or a stop, not a failure of the endpoint
                            recordError(role, ErrorKind.CANCELLED);
                            refuseIfAborted(target, null);
                            throw new CancellationException("interrupted while calling " + target.endpoint());
                        }
                        recordError(role, failure.kind());
                    } finally {
                        if (!settled) {
                            settle(reservation);
                        }
                    }
                } finally {
                    model.release();
                }
            } finally {
                endpoint.release();
            }
            handle(target, role, attemptNo, failure, thrown);
        }
    }

    /**
     * Throws the abort of {@code target}'s endpoint, if its calls are aborted, counting the refused
     * attempt {@link ErrorKind#CANCELLED} under {@code role} (nothing is counted for a {@code null} role).
     */
    private void refuseIfAborted(ModelTarget target, @Nullable String role) {
        Abort abort = aborted.get(target.endpoint());
        if (abort != null) {
            if (role != null) {
                recordError(role, ErrorKind.CANCELLED);
            }
            throw abort.exception().get();
        }
    }

    /** Throws {@link CallsStoppedException} once a stop is requested, counting the refused attempt {@link ErrorKind#CANCELLED}. */
    private void refuseIfStopped(String role) {
        if (stopRequested.getAsBoolean()) {
            recordError(role, ErrorKind.CANCELLED);
            throw new CallsStoppedException(role);
        }
    }

    private Breaker breaker(ModelTarget target) {
        return breakers.computeIfAbsent(target.endpoint(), Breaker::new);
    }

    private void handle(ModelTarget target, String role, int attemptNo, Failures.Failure failure, Exception thrown)
            throws ModelCallFailedException {
        String where = "model '" + target.model() + "' at " + target.endpoint() + " (" + role + ")";
        if (failure.kind() == ErrorKind.SERVER_ERROR || failure.kind() == ErrorKind.CONNECTION || failure.kind() == ErrorKind.TIMEOUT) {
            Optional<String> open = breaker(target).failure(failure.seen(), settings.circuitBreakerFailures());
            if (open.isPresent()) {
                String message = open.get();
                if (aborted.putIfAbsent(target.endpoint(), new Abort(false, () -> new EndpointDownException(target.endpoint(), message))) == null) {
                    log.warn("{}", message);
                }
                refuseIfAborted(target, null);
            }
        } else if (failure.kind() != ErrorKind.RATE_LIMITED) {
            breaker(target).success(); // the endpoint answered
        }
        switch (failure.kind().category()) {
            case CONFIGURATION -> {
                String message = failure.kind() == ErrorKind.AUTH
                            ? "authentication failed for model '" + target.model() + "' at " + target.endpoint() + " (" + role
                                    + "): check the environment variable "
                                    + (target.apiKeyEnv() == null ? "named by model.api-key-env" : target.apiKeyEnv())
                                    + " (model.api-key-env) holds a valid key for this endpoint; the server said: "
                                    + failure.message()
                            : where + ": model not found (" + failure.message() + "); check model.model and model.base-url (it usually ends in /v1)";
                // the endpoint's other calls would fail alike: none is sent any more
                aborted.putIfAbsent(target.endpoint(), new Abort(true, () -> new ConfigurationException(message)));
                throw new ConfigurationException(message, thrown);
            }
            case REJECTED, ANSWER -> {
                if (failure.kind() == ErrorKind.UNEXPECTED) {
                    if (thrown instanceof RuntimeException re) {
                        throw re;
                    }
                    throw new IllegalStateException(where + ": unexpected failure", thrown);
                }
                throw new ModelCallFailedException(failure.kind(), attemptNo, where + ": request rejected, not retried: " + failure.message(), thrown);
            }
            case RETRIABLE -> {
                if (attemptNo >= settings.maxAttempts()) {
                    throw new ModelCallFailedException(failure.kind(), attemptNo,
                            where + ": " + attemptNo + " attempt(s) failed; last: " + failure.kind().label() + " " + failure.message(), thrown);
                }
                Optional<Duration> retryAfter = failure.retryAfter();
                if (retryAfter.isPresent() && retryAfter.get().compareTo(settings.maxRetryAfter()) > 0) {
                    throw new ModelCallFailedException(failure.kind(), attemptNo,
                            where + ": the server asks to wait " + retryAfter.get().toSeconds() + " s, more than the "
                                    + settings.maxRetryAfter().toSeconds() + " s honoured", thrown);
                }
                Duration wait = retryAfter.map(this::jitterUp).orElseGet(() -> backoff(attemptNo));
                log.debug("{}: {} ({}), retry {} in {} ms", where, failure.kind().label(), failure.message(), attemptNo, wait.toMillis());
                refuseIfAborted(target, null);
                sleep(wait);
            }
        }
    }

    /** The wait before retry {@code n} (1-based) without Retry-After: initial × 2^(n-1), capped, ± jitter. */
    Duration backoff(int retry) {
        double base = settings.initialBackoff().toMillis() * Math.pow(2, Math.min(retry - 1, 30));
        base = Math.min(base, settings.maxBackoff().toMillis());
        double j = settings.jitter();
        double factor = 1 - j + 2 * j * ThreadLocalRandom.current().nextDouble();
        return Duration.ofMillis(Math.max(0, Math.round(base * factor)));
    }

    private Duration jitterUp(Duration d) {
        double factor = 1 + settings.jitter() * ThreadLocalRandom.current().nextDouble();
        return Duration.ofMillis(Math.round(d.toMillis() * factor));
    }

    /**
     * Counts an answer retry: {@code role} is about to ask again, as a fresh call, because its last
     * answer was unusable (counted apart from the transport retries this governor makes).
     */
    public void recordAnswerRetry(String role) {
        synchronized (lock) {
            for (Acc acc : new Acc[] {run, rounds.computeIfAbsent(round, k -> new Acc())}) {
                acc.answerRetries++;
                acc.role(role).answerRetries++;
            }
        }
    }

    /** Counts an unusable answer of a successful call (malformed JSON, missing criterion...). */
    public void recordAnswerError(String role, ErrorKind kind) {
        recordError(role, kind);
    }

    /** One reserved attempt: its round, role and the tokens and cost it holds until it is settled. */
    private record Reservation(int round, String role, boolean retry, long tokens, double cost) {}

    /**
     * Checks every budget against what is reserved (calls; tokens and cost of answered calls plus
     * the estimates of those in flight) with the attempt's own call and estimate added, counts the
     * attempt, and records it in the ledger before returning. Nothing is counted when a budget is reached or the ledger fails. The attempt holds
     * the mean usage of the answered calls, or, before any is answered, the request's own estimate
     * ({@code tokens}, {@code cost}).
     */
    private Reservation reserveCall(String role, boolean retry, long estimatedTokens, double estimatedCost) {
        Reservation r;
        synchronized (lock) {
            Acc current = rounds.computeIfAbsent(round, k -> new Acc());
            long tokens = answeredCalls == 0 ? estimatedTokens : Math.round((double) answeredTokens / answeredCalls);
            double cost = answeredCalls == 0 ? estimatedCost : answeredCost / answeredCalls;
            check(BudgetExceededException.Limit.MAX_CALLS, budget.maxCalls(), run.calls, 1);
            check(BudgetExceededException.Limit.MAX_TOKENS, budget.maxTokens(), run.tokens() + run.pendingTokens, tokens);
            check(BudgetExceededException.Limit.MAX_COST, budget.maxCost(), run.cost + run.pendingCost, cost);
            check(BudgetExceededException.Limit.MAX_CALLS_PER_ROUND, budget.maxCallsPerRound(), current.calls, 1);
            check(BudgetExceededException.Limit.MAX_TOKENS_PER_ROUND, budget.maxTokensPerRound(), current.tokens() + current.pendingTokens,
                    tokens);
            check(BudgetExceededException.Limit.MAX_COST_PER_ROUND, budget.maxCostPerRound(), current.cost + current.pendingCost, cost);
            r = new Reservation(round, role, retry, tokens, cost);
            count(r, 1);
        }
        try {
            ledger.reserve(r.round(), role);
        } catch (RuntimeException e) {
            synchronized (lock) {
                count(r, -1);
            }
            throw e;
        }
        return r;
    }

    /** Adds ({@code sign} 1) or takes back (-1) a reservation's call and estimates. Under the lock. */
    private void count(Reservation r, int sign) {
        for (Acc acc : new Acc[] {run, rounds.computeIfAbsent(r.round(), k -> new Acc())}) {
            for (Acc a : new Acc[] {acc, acc.role(r.role())}) {
                a.calls += sign;
                if (r.retry()) {
                    a.retries += sign;
                }
            }
            acc.pendingTokens += sign * r.tokens();
            acc.pendingCost += sign * r.cost();
        }
    }

    /** Releases a reservation's estimates (its call stays counted). */
    private void settle(Reservation r) {
        synchronized (lock) {
            for (Acc acc : new Acc[] {run, rounds.computeIfAbsent(r.round(), k -> new Acc())}) {
                acc.pendingTokens -= r.tokens();
                acc.pendingCost -= r.cost();
            }
        }
    }

    /**
     * Refuses an attempt that would take {@code spent} (what is spent and reserved) past {@code
     * allowed} with what it reserves itself ({@code adding}: one call, its tokens and cost estimate).
     */
    private void check(BudgetExceededException.Limit limit, @Nullable Number allowed, double spent, double adding) {
        if (allowed != null && (spent >= allowed.doubleValue() || spent + adding > allowed.doubleValue())) {
            throw new BudgetExceededException(limit, allowed.doubleValue(), spent, round);
        }
    }

    /**
     * Settles an answered attempt: its usage replaces its estimates, in the ledger first (with the
     * answer to keep, if any).
     */
    private void recordUsage(ModelTarget target, String role, Reservation r, @Nullable TokenUsage usage,
            CallLedger.@Nullable Kept kept) {
        long in = usage == null || usage.inputTokenCount() == null ? 0 : usage.inputTokenCount();
        long out = usage == null || usage.outputTokenCount() == null ? 0 : usage.outputTokenCount();
        double cost = target.cost(in, out);
        ledger.answered(r.round(), role, in, out, cost, kept);
        synchronized (lock) {
            for (Acc acc : new Acc[] {run, rounds.computeIfAbsent(r.round(), k -> new Acc())}) {
                acc.add(in, out, cost);
                acc.role(role).add(in, out, cost);
                acc.pendingTokens -= r.tokens();
                acc.pendingCost -= r.cost();
            }
            answeredCalls++;
            answeredTokens += in + out;
            answeredCost += cost;
        }
    }

    private void recordError(String role, ErrorKind kind) {
        synchronized (lock) {
            for (Acc acc : new Acc[] {run, rounds.computeIfAbsent(round, k -> new Acc())}) {
                acc.errors++;
                acc.role(role).errors++;
                acc.errorsByKind.merge(kind.label(), 1L, Long::sum);
            }
        }
    }

    private TokenBucket limiter(ModelTarget target) {
        return rateLimiters.computeIfAbsent(target.modelKey(), k -> new TokenBucket(settings.requestsPerMinutePerModel()));
    }

    private static void acquire(Semaphore s) {
        try {
            s.acquire();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CancellationException("interrupted while waiting for a model call slot");
        }
    }

    static void sleep(Duration d) {
        if (d.isZero() || d.isNegative()) {
            return;
        }
        try {
            Thread.sleep(d.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CancellationException("interrupted while waiting to retry a model call");
        }
    }

    /** Requests per minute as a reservation token bucket; 0 = unlimited. */
    static final class TokenBucket {
        private final double perNano;
        private final double capacity;
        private double tokens;
        private long last = System.nanoTime();

        TokenBucket(int perMinute) {
            this.perNano = perMinute / 60e9;
            this.capacity = Math.max(1, perMinute / 10);
            this.tokens = capacity;
        }

        void acquire() {
            if (perNano == 0) {
                return;
            }
            long waitNanos;
            synchronized (this) {
                long now = System.nanoTime();
                tokens = Math.min(capacity, tokens + (now - last) * perNano);
                last = now;
                tokens -= 1;
                waitNanos = tokens >= 0 ? 0 : (long) Math.ceil(-tokens / perNano);
            }
            sleep(Duration.ofNanos(waitNanos));
        }
    }

    /**
     * One endpoint's run of consecutive failures that count for its circuit breaker, by what was
     * seen (HTTP status, {@code connection}, {@code timeout}), in first-seen order.
     */
    static final class Breaker {
        private final String endpoint;
        private final Map<String, Integer> seen = new java.util.LinkedHashMap<>();
        private int consecutive;
        private @Nullable String open;

        Breaker(String endpoint) {
            this.endpoint = endpoint;
        }

        synchronized void success() {
            if (open != null) {
                return; // open for good: a late answer of a call in flight does not close it
            }
            consecutive = 0;
            seen.clear();
        }

        /**
         * Counts one failure; the one-line message of the open breaker once {@code limit} (above 0)
         * is reached (the same message for every later failure: the breaker stays open).
         */
        synchronized Optional<String> failure(String what, int limit) {
            if (open != null) {
                return Optional.of(open);
            }
            consecutive++;
            seen.merge(what, 1, Integer::sum);
            if (limit <= 0 || consecutive < limit) {
                return Optional.empty();
            }
            StringBuilder tally = new StringBuilder();
            seen.forEach((k, n) -> tally.append(tally.length() == 0 ? "" : ", ").append(k).append(" x").append(n));
            open = "endpoint " + endpoint + ": " + consecutive + " consecutive failures (" + tally
                    + "); stopped calling it (governor.circuit-breaker-failures: " + limit
                    + "); run again with the same run id once it answers (what is done is kept)";
            return Optional.of(open);
        }
    }

    /** Mutable counters, guarded by the governor's lock. */
    private static final class Acc {
        long calls;
        /** Tokens and cost reserved by attempts in flight (estimates, not reported). */
        long pendingTokens;
        double pendingCost;
        long retries;
        long answerRetries;
        long errors;
        long inputTokens;
        long outputTokens;
        double cost;
        final Map<String, Acc> byRole = new HashMap<>();
        final Map<String, Long> errorsByKind = new HashMap<>();

        long tokens() {
            return inputTokens + outputTokens;
        }

        void add(long in, long out, double c) {
            inputTokens += in;
            outputTokens += out;
            cost += c;
        }

        Acc role(String role) {
            return byRole.computeIfAbsent(role, k -> new Acc());
        }

        CallCounts counts() {
            return new CallCounts(calls, retries, errors, inputTokens, outputTokens, cost, answerRetries);
        }

        Tally tally() {
            Map<String, CallCounts> roles = new HashMap<>();
            byRole.forEach((k, v) -> roles.put(k, v.counts()));
            return new Tally(counts(), roles, errorsByKind);
        }

        public static Acc of(Tally t) {
            Acc a = new Acc();
            a.set(t.total());
            t.byRole().forEach((k, v) -> a.role(k).set(v));
            a.errorsByKind.putAll(t.errorsByKind());
            return a;
        }

        private void set(CallCounts c) {
            calls = c.calls();
            retries = c.retries();
            answerRetries = c.answerRetries();
            errors = c.errors();
            inputTokens = c.inputTokens();
            outputTokens = c.outputTokens();
            cost = c.cost();
        }
    }
}
