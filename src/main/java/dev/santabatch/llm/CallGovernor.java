package dev.santabatch.llm;

import dev.langchain4j.model.output.TokenUsage;
import dev.santabatch.job.BudgetSpec;
import dev.santabatch.llm.internal.Failures;
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
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one place every model call goes through. Thread-safe; one instance per run.
 *
 * <p>Per HTTP attempt, in this order: the model's request-per-minute token bucket (waits); a permit
 * of the endpoint's and of the model's in-flight semaphores (waits); the budgets (throws
 * {@link BudgetExceededException} before anything is sent, and counts the call); the attempt;
 * token and cost accounting from the response. Permits are released before any backoff wait, so a
 * waiting retry does not hold a slot.
 *
 * <p>Failures by {@link ErrorKind.Category}: retriable (429, 5xx, timeout, connection, malformed
 * response) are retried up to {@link GovernorSettings#maxAttempts()} after {@code Retry-After}
 * (with upward jitter) or an exponential backoff with jitter, then {@link ModelCallFailedException};
 * configuration (401/403, 404) throws {@link ConfigurationException} at once; a rejected request
 * (other 4xx) throws {@link ModelCallFailedException} at once; an unknown exception is rethrown.
 * Every failure is counted by kind; answer-level problems are counted by the caller through
 * {@link #recordAnswerError(String, ErrorKind)}.
 *
 * <p>Budgets ({@link BudgetSpec}, per run and per round): the call limit is exact even under
 * concurrency (checked and counted atomically); token and cost limits are checked against what the
 * finished calls used, so calls already in flight when a limit is reached may pass it by their
 * own usage. A resumed run passes the stored {@link SpendSnapshot} back to the constructor and
 * counts cumulatively.
 */
public final class CallGovernor {

    private static final Logger log = LoggerFactory.getLogger(CallGovernor.class);

    private final GovernorSettings settings;
    private final BudgetSpec budget;
    private final Map<String, Semaphore> endpointPermits = new ConcurrentHashMap<>();
    private final Map<String, Semaphore> modelPermits = new ConcurrentHashMap<>();
    private final Map<String, TokenBucket> rateLimiters = new ConcurrentHashMap<>();

    private final Object lock = new Object();
    private final Acc run;
    private final Map<Integer, Acc> rounds = new HashMap<>();
    private int round;

    /**
     * @param settings limits and retry policy
     * @param budget spending limits; all-null for none
     * @param prior spend of an earlier execution of the same run ({@link SpendSnapshot#NONE} for a new run)
     */
    public CallGovernor(GovernorSettings settings, BudgetSpec budget, SpendSnapshot prior) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.budget = Objects.requireNonNull(budget, "budget");
        Objects.requireNonNull(prior, "prior");
        this.run = Acc.of(prior.run());
        prior.rounds().forEach((n, t) -> rounds.put(n, Acc.of(t)));
        this.round = prior.round();
    }

    /** A governor with no budget and nothing spent. */
    public CallGovernor(GovernorSettings settings) {
        this(settings, new BudgetSpec(null, null, null, null, null, null), SpendSnapshot.NONE);
    }

    public GovernorSettings settings() {
        return settings;
    }

    /**
     * Starts counting round {@code n}: per-round budgets apply to its spend. Starting the current
     * round again (a resumed run) keeps its spend.
     */
    public void startRound(int n) {
        synchronized (lock) {
            round = n;
            rounds.computeIfAbsent(n, k -> new Acc());
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
     */
    public <T> T call(ModelTarget target, String role, Callable<T> attempt, Function<? super T, @Nullable TokenUsage> usage)
            throws ModelCallFailedException {
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(role, "role");
        int attemptNo = 0;
        while (true) {
            attemptNo++;
            limiter(target).acquire();
            Semaphore endpoint = endpointPermits.computeIfAbsent(target.endpoint(), k -> new Semaphore(settings.maxInFlightPerEndpoint(), true));
            Semaphore model = modelPermits.computeIfAbsent(target.modelKey(), k -> new Semaphore(settings.maxInFlightPerModel(), true));
            Failures.Failure failure = null;
            Exception thrown = null;
            acquire(endpoint);
            try {
                acquire(model);
                try {
                    reserveCall(role, attemptNo > 1);
                    try {
                        T result = attempt.call();
                        recordUsage(target, role, result == null ? null : usage.apply(result));
                        return result;
                    } catch (CancellationException e) {
                        throw e;
                    } catch (Exception e) {
                        thrown = e;
                        failure = Failures.classify(e);
                        recordError(role, failure.kind());
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

    private void handle(ModelTarget target, String role, int attemptNo, Failures.Failure failure, Exception thrown)
            throws ModelCallFailedException {
        String where = "model '" + target.model() + "' at " + target.endpoint() + " (" + role + ")";
        switch (failure.kind().category()) {
            case CONFIGURATION -> throw new ConfigurationException(
                    failure.kind() == ErrorKind.AUTH
                            ? "authentication failed for model '" + target.model() + "' at " + target.endpoint() + " (" + role
                                    + "): check the environment variable "
                                    + (target.apiKeyEnv() == null ? "named by model.api-key-env" : target.apiKeyEnv())
                                    + " (model.api-key-env) holds a valid key for this endpoint; the server said: "
                                    + failure.message()
                            : where + ": model not found (" + failure.message() + "); check model.model and model.base-url (it usually ends in /v1)",
                    thrown);
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

    private void reserveCall(String role, boolean retry) {
        synchronized (lock) {
            Acc current = rounds.computeIfAbsent(round, k -> new Acc());
            check(BudgetExceededException.Limit.MAX_CALLS, budget.maxCalls(), run.calls);
            check(BudgetExceededException.Limit.MAX_TOKENS, budget.maxTokens(), run.tokens());
            check(BudgetExceededException.Limit.MAX_COST, budget.maxCost(), run.cost);
            check(BudgetExceededException.Limit.MAX_CALLS_PER_ROUND, budget.maxCallsPerRound(), current.calls);
            check(BudgetExceededException.Limit.MAX_TOKENS_PER_ROUND, budget.maxTokensPerRound(), current.tokens());
            check(BudgetExceededException.Limit.MAX_COST_PER_ROUND, budget.maxCostPerRound(), current.cost);
            for (Acc acc : new Acc[] {run, current}) {
                acc.calls++;
                acc.role(role).calls++;
                if (retry) {
                    acc.retries++;
                    acc.role(role).retries++;
                }
            }
        }
    }

    private void check(BudgetExceededException.Limit limit, @Nullable Number allowed, double spent) {
        if (allowed != null && spent >= allowed.doubleValue()) {
            throw new BudgetExceededException(limit, allowed.doubleValue(), spent, round);
        }
    }

    private void recordUsage(ModelTarget target, String role, @Nullable TokenUsage usage) {
        long in = usage == null || usage.inputTokenCount() == null ? 0 : usage.inputTokenCount();
        long out = usage == null || usage.outputTokenCount() == null ? 0 : usage.outputTokenCount();
        double cost = target.cost(in, out);
        synchronized (lock) {
            for (Acc acc : new Acc[] {run, rounds.computeIfAbsent(round, k -> new Acc())}) {
                acc.add(in, out, cost);
                acc.role(role).add(in, out, cost);
            }
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

    /** Mutable counters, guarded by the governor's lock. */
    private static final class Acc {
        long calls;
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

        static Acc of(Tally t) {
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
