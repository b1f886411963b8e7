package dev.santabatch.config;

import java.time.Duration;

/**
 * The job file's {@code governor} mapping: limits and retry policy of the one component every model
 * call goes through ({@code dev.santabatch.model.CallGovernor}). Defaults are stated by
 * {@link #DEFAULTS}.
 *
 * @param maxInFlightPerEndpoint calls in flight to one base URL at once, all models. Defaults to 32.
 * @param maxInFlightPerModel calls in flight to one model at one base URL at once. Defaults to 16.
 * @param requestsPerMinutePerModel requests started per minute per model, retries included; 0 for no
 *     limit. Defaults to 0.
 * @param maxAttempts HTTP attempts per call for retriable errors, the first included. Defaults to 5.
 * @param initialBackoff wait before the first retry without {@code Retry-After}. Defaults to 1 s.
 * @param maxBackoff cap of the doubling backoff. Defaults to 30 s.
 * @param jitter relative random spread of every wait, 0-1. Defaults to 0.2.
 * @param maxRetryAfter the longest {@code Retry-After} honoured. Defaults to 120 s.
 * @param logRequests log every request at DEBUG with credentials masked. Defaults to false.
 * @param circuitBreakerFailures consecutive 5xx, connection or timeout failures at one endpoint (429s
 *     do not count, a success resets) after which the governor stops calling it and fails the step;
 *     0 for no breaker. Defaults to 20.
 */
public record GovernorSpec(
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

    /** Every default. */
    public static final GovernorSpec DEFAULTS = new GovernorSpec(32, 16, 0, 5, Duration.ofSeconds(1),
            Duration.ofSeconds(30), 0.2, Duration.ofSeconds(120), false, 20);
}
