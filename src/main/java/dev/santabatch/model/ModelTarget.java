package dev.santabatch.model;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A model at an endpoint, as the governor sees it: the keys of its in-flight limits and rate
 * limiter, and the prices of its tokens.
 *
 * @param endpoint the resolved base URL (the key of the per-endpoint limit)
 * @param model the model name (with the endpoint, the key of the per-model limits)
 * @param priceInputPerMillion price per million input tokens; {@code null} costs nothing
 * @param priceOutputPerMillion price per million output tokens; {@code null} costs nothing
 * @param apiKeyEnv the name (never the value) of the environment variable holding the API key, for
 *     messages that say what to check; {@code null} when unknown
 */
public record ModelTarget(String endpoint, String model, @Nullable Double priceInputPerMillion,
        @Nullable Double priceOutputPerMillion, @Nullable String apiKeyEnv) {

    public ModelTarget {
        Objects.requireNonNull(endpoint, "endpoint");
        Objects.requireNonNull(model, "model");
    }

    public ModelTarget(String endpoint, String model, @Nullable Double priceInputPerMillion,
            @Nullable Double priceOutputPerMillion) {
        this(endpoint, model, priceInputPerMillion, priceOutputPerMillion, null);
    }

    /** The estimated cost of a call's tokens. */
    public double cost(long inputTokens, long outputTokens) {
        double in = priceInputPerMillion == null ? 0 : priceInputPerMillion;
        double out = priceOutputPerMillion == null ? 0 : priceOutputPerMillion;
        return inputTokens * in / 1_000_000d + outputTokens * out / 1_000_000d;
    }

    String modelKey() {
        return endpoint + " " + model;
    }
}
