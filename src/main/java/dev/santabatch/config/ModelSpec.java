package dev.santabatch.config;

import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * An OpenAI-compatible chat model. The API key is never in a job file: {@code apiKeyEnv} names the
 * environment variable that holds it.
 *
 * @param baseUrl defaults to the environment's {@code OPENAI_BASE_URL}, else https://api.openai.com/v1
 * @param model model name. Required.
 * @param apiKeyEnv defaults to {@code OPENAI_API_KEY}
 * @param temperature defaults to 0.0 (0-2)
 * @param timeout defaults to 60 s
 * @param maxOutputTokens defaults to 1024
 * @param structuredOutput defaults to {@code json-schema}
 * @param priceInputPerMillion optional price per million input tokens
 * @param priceOutputPerMillion optional price per million output tokens
 * @param reasoningEffort for reasoning models: {@code low}, {@code medium} or {@code high} sends
 *     {@code reasoning_effort} and {@code max_completion_tokens} (max-output-tokens) and no
 *     temperature. Defaults to {@code none}: a chat model, sent {@code temperature} and {@code
 *     max_tokens}. Operational: changing it does not block a restart.
 */
public record ModelSpec(
        @Nullable String baseUrl,
        String model,
        String apiKeyEnv,
        double temperature,
        Duration timeout,
        int maxOutputTokens,
        StructuredOutput structuredOutput,
        @Nullable Double priceInputPerMillion,
        @Nullable Double priceOutputPerMillion,
        ReasoningEffort reasoningEffort) {

    /** A reasoning model's effort; {@code NONE}: not a reasoning model. */
    public enum ReasoningEffort {
        NONE,
        LOW,
        MEDIUM,
        HIGH
    }

    /** A chat model (reasoning effort {@code none}). */
    public ModelSpec(@Nullable String baseUrl, String model, String apiKeyEnv, double temperature, Duration timeout,
            int maxOutputTokens, StructuredOutput structuredOutput, @Nullable Double priceInputPerMillion,
            @Nullable Double priceOutputPerMillion) {
        this(baseUrl, model, apiKeyEnv, temperature, timeout, maxOutputTokens, structuredOutput, priceInputPerMillion,
                priceOutputPerMillion, ReasoningEffort.NONE);
    }

    public enum StructuredOutput {
        JSON_SCHEMA,
        JSON_OBJECT,
        PROMPT
    }

    /** OpenAI's endpoint, the base URL when neither the job file nor the environment names one. */
    public static final String DEFAULT_BASE_URL = "https://api.openai.com/v1";

    /** The environment variable OpenAI's own clients read the base URL from. */
    public static final String BASE_URL_ENV = "OPENAI_BASE_URL";

    /**
     * The endpoint the model is called at: {@code baseUrl}, else the environment's
     * {@value #BASE_URL_ENV}, else {@value #DEFAULT_BASE_URL}; stripped, without trailing slashes.
     *
     * @param env the environment as the models see it
     */
    public String resolvedBaseUrl(java.util.function.Function<String, @Nullable String> env) {
        String url = baseUrl;
        if (url == null || url.isBlank()) {
            url = env.apply(BASE_URL_ENV);
        }
        if (url == null || url.isBlank()) {
            url = DEFAULT_BASE_URL;
        }
        url = url.strip();
        while (url.endsWith("/")) {
            url = url.substring(0, url.length() - 1);
        }
        return url;
    }
}
