package dev.santabatch.job;

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
        @Nullable Double priceOutputPerMillion) {

    public enum StructuredOutput {
        JSON_SCHEMA,
        JSON_OBJECT,
        PROMPT
    }
}
