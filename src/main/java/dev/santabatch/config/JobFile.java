package dev.santabatch.config;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * A job file as written, bound by Jackson ({@link JobFileYaml}): one record per mapping, one
 * component per key (the key is the component's name in kebab case, {@code taskSpec} is {@code
 * task-spec}), in the order the reference lists them; {@code null} where a key is absent or empty.
 * Integers are {@code Long}, durations {@code Duration}; {@link JobFileLoader} applies the defaults,
 * ranges and cross-key checks and builds the {@link JobDefinition}.
 */
record JobFile(@Nullable String name, @Nullable Input input, @Nullable String taskSpec,
        @Nullable List<@Nullable Criterion> rubric, @Nullable Sampling sampling, @Nullable Santa santa,
        @Nullable List<@Nullable Reviewer> reviewers, @Nullable Fixer fixer, @Nullable Matcher matcher,
        @Nullable Run run, @Nullable Budget budget, @Nullable Governor governor, @Nullable CarryOver carryOver) {

    record Input(@Nullable String path, @Nullable String idColumn, @Nullable String contentColumn,
            @Nullable String categoryColumn, @Nullable List<@Nullable String> sourceColumns,
            @Nullable String groundTruth) {}

    record Criterion(@Nullable String id, @Nullable String name, @Nullable String pass, @Nullable String failSignal,
            @Nullable String checkedBy, @Nullable List<@Nullable Rule> rules, @Nullable List<@Nullable String> canaries) {}

    /** Every rule type's keys; which belong to which type is {@code JobFileLoader.RULE_KEYS}. */
    record Rule(@Nullable String id, @Nullable String type, @Nullable List<@Nullable String> terms,
            @Nullable List<@Nullable String> patterns, @Nullable Map<String, JsonNode> replacements,
            @Nullable String fix, @Nullable When when, @Nullable String phrase, @Nullable Long min, @Nullable Long max,
            @Nullable List<@Nullable Attribute> attributes) {}

    record When(@Nullable String column, @Nullable List<@Nullable String> values) {}

    record Attribute(@Nullable String column, @Nullable String unit, @Nullable List<@Nullable String> keywords) {}

    record Sampling(@Nullable Double rate, @Nullable Boolean allowRateOutsideRange, @Nullable Long minSize,
            @Nullable Long fullReviewBelow, @Nullable Long seed) {}

    record Santa(@Nullable Long maxIterations, @Nullable Long maxRounds, @Nullable Long systematicMinItems,
            @Nullable Double failedReviewThreshold, @Nullable Double lowAgreementKappa,
            @Nullable Double patternSimilarity, @Nullable Long auditSize, @Nullable Long acceptanceNumber,
            @Nullable Double canaryShare, @Nullable Long minCanaries, @Nullable Double minPanelSensitivity,
            @Nullable Double maxFalseFlagRate, @Nullable Double maxFailShare) {}

    record Reviewer(@Nullable String id, @Nullable String type, @Nullable List<@Nullable String> criteria,
            @Nullable Model model, @Nullable Map<String, @Nullable Double> thresholds) {}

    record Fixer(@Nullable String type, @Nullable Model model) {}

    record Matcher(@Nullable Model model, @Nullable Double maxCandidateShare, @Nullable Double minSimilarity) {}

    record Run(@Nullable Long chunkSize, @Nullable Long concurrency) {}

    record Budget(@Nullable Long maxCalls, @Nullable Long maxTokens, @Nullable Double maxCost,
            @Nullable Long maxCallsPerRound, @Nullable Long maxTokensPerRound, @Nullable Double maxCostPerRound) {}

    record Governor(@Nullable Long maxInFlightPerEndpoint, @Nullable Long maxInFlightPerModel,
            @Nullable Long requestsPerMinutePerModel, @Nullable Long maxAttempts, @Nullable Duration initialBackoff,
            @Nullable Duration maxBackoff, @Nullable Double jitter, @Nullable Duration maxRetryAfter,
            @Nullable Boolean logRequests, @Nullable Long circuitBreakerFailures) {}

    /** {@code apiKeyEnv} is kept as written: a value that is no name is reported as a possible secret. */
    record Model(@Nullable String baseUrl, @Nullable String model, @Nullable JsonNode apiKeyEnv,
            @Nullable Double temperature, @Nullable Duration timeout, @Nullable Long maxOutputTokens,
            @Nullable String structuredOutput, @Nullable Double priceInputPerMillion,
            @Nullable Double priceOutputPerMillion, @Nullable String reasoningEffort) {}

    record CarryOver(@Nullable Boolean enabled, @Nullable Long maxAge, @Nullable Double targetBound) {}
}
