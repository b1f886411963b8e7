package dev.santabatch.model.http;

import dev.langchain4j.http.client.HttpClient;
import dev.langchain4j.http.client.HttpRequest;
import dev.langchain4j.http.client.SuccessfulHttpResponse;
import dev.langchain4j.http.client.sse.ServerSentEventListener;
import dev.langchain4j.http.client.sse.ServerSentEventParser;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * langchain4j's {@link HttpClient} over {@code java.net.http}, for the call governor: a non-2xx
 * answer throws {@link HttpStatusException} with status and headers (so {@code Retry-After} is
 * seen), no answer throws {@link HttpTransportException} (timeout or connection). It never
 * retries; the governor does. Request logging (at INFO, only when {@code governor.log-requests} is on) masks
 * credential headers completely, and error bodies are redacted of the request's credentials.
 */
public final class GovernedHttpClient implements HttpClient {

    private static final Logger log = LoggerFactory.getLogger(GovernedHttpClient.class);
    private static final int MAX_ERROR_BODY = 2000;

    private final java.net.http.HttpClient delegate;
    private final @Nullable Duration readTimeout;
    private final boolean logRequests;

    GovernedHttpClient(java.net.http.HttpClient delegate, @Nullable Duration readTimeout, boolean logRequests) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
        this.readTimeout = readTimeout;
        this.logRequests = logRequests;
    }

    public static GovernedHttpClientBuilder builder() {
        return new GovernedHttpClientBuilder();
    }

    @Override
    public SuccessfulHttpResponse execute(HttpRequest request) {
        Redactor redactor = Redactor.forHeaders(request.headers());
        logRequest(request, redactor);
        java.net.http.HttpRequest jdkRequest = toJdkRequest(request);
        HttpResponse<byte[]> response;
        try {
            response = delegate.send(jdkRequest, HttpResponse.BodyHandlers.ofByteArray());
        } catch (HttpTimeoutException e) {
            throw new HttpTransportException(
                    "no answer from " + request.url() + " within " + readTimeout + " (timeout)", e, true);
        } catch (IOException e) {
            throw new HttpTransportException(
                    "request to " + request.url() + " failed: " + redactor.redact(describe(e)),
                    e, false);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CancellationException("interrupted while calling " + request.url());
        }
        if (response.statusCode() < 200 || response.statusCode() >= 300) {
            throw statusException(response.statusCode(), response.headers().map(), response.body(), redactor);
        }
        if (logRequests && log.isInfoEnabled()) {
            log.info("HTTP {} from {} ({} bytes)", response.statusCode(), request.url(), response.body().length);
        }
        return SuccessfulHttpResponse.builder()
                .statusCode(response.statusCode())
                .headers(response.headers().map())
                .body(response.body())
                .build();
    }

    @Override
    public void execute(HttpRequest request, ServerSentEventParser parser, ServerSentEventListener listener) {
        Redactor redactor = Redactor.forHeaders(request.headers());
        logRequest(request, redactor);
        delegate.sendAsync(toJdkRequest(request), HttpResponse.BodyHandlers.ofInputStream())
                .thenAccept(response -> {
                    if (response.statusCode() < 200 || response.statusCode() >= 300) {
                        byte[] body;
                        try (InputStream in = response.body()) {
                            body = in.readAllBytes();
                        } catch (IOException e) {
                            body = new byte[0];
                        }
                        listener.onError(statusException(response.statusCode(), response.headers().map(), body, redactor));
                        return;
                    }
                    listener.onOpen(SuccessfulHttpResponse.builder()
                            .statusCode(response.statusCode())
                            .headers(response.headers().map())
                            .build());
                    try (InputStream in = response.body()) {
                        parser.parse(in, listener);
                        listener.onClose();
                    } catch (IOException e) {
                        listener.onError(new HttpTransportException("stream from " + request.url() + " broke", e, false));
                    }
                })
                .exceptionally(t -> {
                    Throwable cause = t instanceof CompletionException && t.getCause() != null ? t.getCause() : t;
                    listener.onError(new HttpTransportException(
                            "request to " + request.url() + " failed: " + redactor.redact(describe(cause)),
                            cause, cause instanceof HttpTimeoutException));
                    return null;
                });
    }

    /**
     * The exception's type and the first message in its cause chain: {@code java.net.http} throws a
     * {@code ConnectException} without a message whose cause says "Connection refused".
     */
    static String describe(Throwable e) {
        java.util.Set<Throwable> seen = new java.util.HashSet<>();
        for (Throwable t = e; t != null && seen.add(t); t = t.getCause()) {
            if (t.getMessage() != null && !t.getMessage().isBlank()) {
                return e.getClass().getSimpleName() + " (" + t.getMessage().strip() + ")";
            }
        }
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof java.net.ConnectException) {
                return e.getClass().getSimpleName() + " (connection refused: nothing listens at that address, or it is"
                        + " unreachable)";
            }
        }
        return e.getClass().getSimpleName();
    }

    private static HttpStatusException statusException(
            int status, java.util.Map<String, java.util.List<String>> headers, byte[] body, Redactor redactor) {
        String text = redactor.redact(new String(body, StandardCharsets.UTF_8));
        if (text.length() > MAX_ERROR_BODY) {
            text = text.substring(0, MAX_ERROR_BODY) + "...";
        }
        return new HttpStatusException(status, headers, text);
    }

    private void logRequest(HttpRequest request, Redactor redactor) {
        if (logRequests && log.isInfoEnabled()) {
            log.info(
                    "HTTP {} {} headers [{}] body {}",
                    request.method(),
                    request.url(),
                    Redactor.formatHeaders(request.headers()),
                    redactor.redact(request.body()));
        }
    }

    private java.net.http.HttpRequest toJdkRequest(HttpRequest request) {
        if (!request.formDataFields().isEmpty() || !request.formDataFiles().isEmpty()) {
            throw new UnsupportedOperationException("multipart requests are not used by santa-batch");
        }
        java.net.http.HttpRequest.Builder b = java.net.http.HttpRequest.newBuilder(URI.create(request.url()));
        request.headers().forEach((name, values) -> {
            if (values != null) {
                values.forEach(v -> b.header(name, v));
            }
        });
        b.method(
                request.method().name(),
                request.body() == null
                        ? java.net.http.HttpRequest.BodyPublishers.noBody()
                        : java.net.http.HttpRequest.BodyPublishers.ofString(request.body(), StandardCharsets.UTF_8));
        if (readTimeout != null) {
            b.timeout(readTimeout);
        }
        return b.build();
    }
}
