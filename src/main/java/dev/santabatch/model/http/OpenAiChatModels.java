package dev.santabatch.model.http;

import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.openai.OpenAiChatModel;
import dev.santabatch.config.ModelSpec;
import java.time.Duration;

/**
 * Builds langchain4j's {@link OpenAiChatModel} for santa-batch: our HTTP client (status and
 * headers in typed exceptions), langchain4j's own retries off ({@code maxRetries(0)}: the call
 * governor retries, in one layer), langchain4j's request and response logging off (our client logs,
 * with credentials masked), strict JSON schemas.
 */
public final class OpenAiChatModels {

    private OpenAiChatModels() {}

    /**
     * @param baseUrl the resolved base URL
     * @param apiKey the key's value; used for the Authorization header only, never stored or logged here
     */
    public static ChatModel create(ModelSpec spec, String baseUrl, String apiKey, boolean logRequests) {
        Duration timeout = spec.timeout();
        OpenAiChatModel.OpenAiChatModelBuilder builder = OpenAiChatModel.builder()
                .httpClientBuilder(GovernedHttpClient.builder()
                        .logRequests(logRequests)
                        .connectTimeout(timeout.compareTo(Duration.ofSeconds(10)) < 0 ? timeout : Duration.ofSeconds(10))
                        .readTimeout(timeout))
                .baseUrl(baseUrl)
                .apiKey(apiKey)
                .modelName(spec.model());
        if (spec.reasoningEffort() == ModelSpec.ReasoningEffort.NONE) {
            builder.temperature(spec.temperature()).maxTokens(spec.maxOutputTokens());
        } else {
            // reasoning models refuse temperature and max_tokens (HTTP 400); their output budget,
            // reasoning included, is max_completion_tokens
            builder.maxCompletionTokens(spec.maxOutputTokens())
                    .reasoningEffort(spec.reasoningEffort().name().toLowerCase(java.util.Locale.ROOT));
        }
        return builder
                .timeout(timeout)
                .maxRetries(0)
                .strictJsonSchema(true)
                .logRequests(false)
                .logResponses(false)
                .build();
    }
}
