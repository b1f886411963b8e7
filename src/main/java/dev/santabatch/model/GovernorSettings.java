package dev.santabatch.model;

import java.time.Duration;
import java.util.Objects;

/**
 * Limits and retry policy of the {@link CallGovernor}. {@link #defaults()} states every default.
 *
 * @param maxInFlightPerEndpoint calls in flight to one base URL at once, all models. Defaults to 16.
 * @param maxInFlightPerModel calls in flight to one model at one endpoint at once. Defaults to 16.
 * @param requestsPerMinutePerModel requests started per minute per model, retries included; 0 for
 *     no limit. Bursts up to a tenth of it (at least 1). Defaults to 0.
 * @param maxAttempts HTTP attempts per call, the first included, for retriable errors (429, 5xx,
 *     timeouts, connection errors). Defaults to 5.
 * @param initialBackoff wait before the first retry without {@code Retry-After}; doubled for
 *     every further retry. Defaults to 1 s.
 * @param maxBackoff cap of the doubled backoff. Defaults to 30 s.
 * @param jitter relative random spread of every wait, 0-1 (0.2 = ±20 % on backoffs, +0-20 % on
 *     {@code Retry-After}). Defaults to 0.2.
 * @param maxRetryAfter the longest {@code Retry-After} honoured; a longer one fails the call at
 *     once rather than hold a thread. Defaults to 120 s.
 * @param logRequests log each request at DEBUG (logger {@code dev.santabatch.model.http}) with
 *     credentials masked. Defaults to false.
 * @param circuitBreakerFailures consecutive failures at one endpoint that open its circuit breaker:
 *     5xx answers, connection failures and timeouts count, 429s and other answers do not, a success
 *     resets the count. Once open, the governor sends nothing more to the endpoint and every call to
 *     it throws {@link EndpointDownException}. 0 for no breaker. Defaults to 20.
 */
public record GovernorSettings(
        int maxInFlightPerEndpoint,
        int maxInFlightPerModel,
        int requestsPerMinutePerModel,
        int maxAttempts,
        Duration initialBackoff,
        Duration maxBackoff,
        double jitter,
        Duration maxRetryAfter,
        boolean logRequests,
        int circuitBreakerFailures) {

    public GovernorSettings {
        if (circuitBreakerFailures < 0) {
            throw new IllegalArgumentException("circuitBreakerFailures must be 0 (no breaker) or more, got " + circuitBreakerFailures);
        }
        if (maxInFlightPerEndpoint < 1) {
            throw new IllegalArgumentException("maxInFlightPerEndpoint must be at least 1, got " + maxInFlightPerEndpoint);
        }
        if (maxInFlightPerModel < 1) {
            throw new IllegalArgumentException("maxInFlightPerModel must be at least 1, got " + maxInFlightPerModel);
        }
        if (requestsPerMinutePerModel < 0) {
            throw new IllegalArgumentException("requestsPerMinutePerModel must be 0 (no limit) or more, got " + requestsPerMinutePerModel);
        }
        if (maxAttempts < 1) {
            throw new IllegalArgumentException("maxAttempts must be at least 1, got " + maxAttempts);
        }
        Objects.requireNonNull(initialBackoff, "initialBackoff");
        Objects.requireNonNull(maxBackoff, "maxBackoff");
        Objects.requireNonNull(maxRetryAfter, "maxRetryAfter");
        if (jitter < 0 || jitter > 1) {
            throw new IllegalArgumentException("jitter must lie in 0-1, got " + jitter);
        }
    }

    /** The job file's {@code governor} mapping. */
    public static GovernorSettings of(dev.santabatch.config.GovernorSpec spec) {
        return new GovernorSettings(spec.maxInFlightPerEndpoint(), spec.maxInFlightPerModel(),
                spec.requestsPerMinutePerModel(), spec.maxAttempts(), spec.initialBackoff(), spec.maxBackoff(),
                spec.jitter(), spec.maxRetryAfter(), spec.logRequests(), spec.circuitBreakerFailures());
    }

    /** Every default: 16 in flight per endpoint and per model, no rate limit, 5 attempts, 1 s doubling to 30 s, ±20 %, Retry-After up to 120 s, no request log, the breaker open after 20 consecutive failures. */
    public static GovernorSettings defaults() {
        return new GovernorSettings(16, 16, 0, 5, Duration.ofSeconds(1), Duration.ofSeconds(30), 0.2, Duration.ofSeconds(120), false, 20);
    }

    public GovernorSettings withInFlight(int perEndpoint, int perModel) {
        return new GovernorSettings(perEndpoint, perModel, requestsPerMinutePerModel, maxAttempts, initialBackoff, maxBackoff, jitter, maxRetryAfter, logRequests, circuitBreakerFailures);
    }

    public GovernorSettings withRetries(int maxAttempts, Duration initialBackoff, Duration maxBackoff) {
        return new GovernorSettings(maxInFlightPerEndpoint, maxInFlightPerModel, requestsPerMinutePerModel, maxAttempts, initialBackoff, maxBackoff, jitter, maxRetryAfter, logRequests, circuitBreakerFailures);
    }

    public GovernorSettings withLogRequests(boolean log) {
        return new GovernorSettings(maxInFlightPerEndpoint, maxInFlightPerModel, requestsPerMinutePerModel, maxAttempts, initialBackoff, maxBackoff, jitter, maxRetryAfter, log, circuitBreakerFailures);
    }

    public GovernorSettings withCircuitBreakerFailures(int failures) {
        return new GovernorSettings(maxInFlightPerEndpoint, maxInFlightPerModel, requestsPerMinutePerModel, maxAttempts, initialBackoff, maxBackoff, jitter, maxRetryAfter, logRequests, failures);
    }
}
