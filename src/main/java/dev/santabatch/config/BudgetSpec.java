package dev.santabatch.config;

import org.jspecify.annotations.Nullable;

/**
 * Spending limits for model calls, per run and per round. {@code null} means unlimited.
 */
public record BudgetSpec(
        @Nullable Long maxCalls,
        @Nullable Long maxTokens,
        @Nullable Double maxCost,
        @Nullable Long maxCallsPerRound,
        @Nullable Long maxTokensPerRound,
        @Nullable Double maxCostPerRound) {

    /** No limit. */
    public static final BudgetSpec NONE = new BudgetSpec(null, null, null, null, null, null);
}
