package dev.santabatch.model.http;

import dev.langchain4j.http.client.HttpClientBuilder;
import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * Builds {@link GovernedHttpClient}; passed to langchain4j through
 * {@code OpenAiChatModel.builder().httpClientBuilder(...)}. langchain4j sets the timeouts from the
 * model's timeout. HTTP/1.1, as most OpenAI-compatible servers speak it best.
 */
public final class GovernedHttpClientBuilder implements HttpClientBuilder {

    private @Nullable Duration connectTimeout;
    private @Nullable Duration readTimeout;
    private boolean logRequests;

    @Override
    public @Nullable Duration connectTimeout() {
        return connectTimeout;
    }

    @Override
    public GovernedHttpClientBuilder connectTimeout(@Nullable Duration connectTimeout) {
        this.connectTimeout = connectTimeout;
        return this;
    }

    @Override
    public @Nullable Duration readTimeout() {
        return readTimeout;
    }

    @Override
    public GovernedHttpClientBuilder readTimeout(@Nullable Duration readTimeout) {
        this.readTimeout = readTimeout;
        return this;
    }

    /** Logs each request at DEBUG with credential headers masked. Defaults to false. */
    public GovernedHttpClientBuilder logRequests(boolean logRequests) {
        this.logRequests = logRequests;
        return this;
    }

    @Override
    public GovernedHttpClient build() {
        java.net.http.HttpClient.Builder b = java.net.http.HttpClient.newBuilder()
                .version(java.net.http.HttpClient.Version.HTTP_1_1)
                .followRedirects(java.net.http.HttpClient.Redirect.NEVER);
        if (connectTimeout != null) {
            b.connectTimeout(connectTimeout);
        }
        return new GovernedHttpClient(b.build(), readTimeout, logRequests);
    }
}
