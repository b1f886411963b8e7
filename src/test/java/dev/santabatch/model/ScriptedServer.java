package dev.santabatch.model;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * A local OpenAI-compatible chat server on 127.0.0.1 for tests: answers {@code POST
 * /v1/chat/completions} from a script (one reply per request, in order; the last reply repeats),
 * records every request and the most requests it ever had in flight at once.
 */
public final class ScriptedServer implements AutoCloseable {

    public static final ObjectMapper JSON = new ObjectMapper();

    /** One scripted reply. */
    public record Reply(int status, Map<String, String> headers, String body, Duration delay) {
        public static Reply ok(String content) {
            return ok(content, "stop", 100, 20);
        }

        public static Reply ok(String content, String finishReason, int promptTokens, int completionTokens) {
            String body;
            try {
                body = JSON.writeValueAsString(Map.of(
                        "id", "chatcmpl-test",
                        "object", "chat.completion",
                        "created", 1,
                        "model", "test-model",
                        "choices", List.of(Map.of(
                                "index", 0,
                                "message", Map.of("role", "assistant", "content", content),
                                "finish_reason", finishReason)),
                        "usage", Map.of(
                                "prompt_tokens", promptTokens,
                                "completion_tokens", completionTokens,
                                "total_tokens", promptTokens + completionTokens)));
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
            return new Reply(200, Map.of("Content-Type", "application/json"), body, Duration.ZERO);
        }

        public static Reply status(int status, String body, Map<String, String> headers) {
            return new Reply(status, headers, body, Duration.ZERO);
        }

        Reply after(Duration delay) {
            return new Reply(status, headers, body, delay);
        }
    }

    /** One recorded request. */
    public record Recorded(Map<String, List<String>> headers, String body) {
        public JsonNode json() {
            try {
                return JSON.readTree(body);
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    private final HttpServer server;
    private final ExecutorService executor = Executors.newCachedThreadPool();
    private final List<Recorded> requests = Collections.synchronizedList(new ArrayList<>());
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicInteger maxInFlight = new AtomicInteger();
    private volatile Function<Recorded, Reply> responder;
    private final List<Long> arrivalNanos = Collections.synchronizedList(new ArrayList<>());

    private ScriptedServer(Function<Recorded, Reply> responder) throws IOException {
        this.responder = responder;
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
        server.createContext("/v1/chat/completions", this::handle);
        server.setExecutor(executor);
        server.start();
    }

    /** Replies in order; the last one repeats. */
    public static ScriptedServer replying(Reply... script) throws IOException {
        List<Reply> replies = List.of(script);
        AtomicInteger next = new AtomicInteger();
        return new ScriptedServer(r -> replies.get(Math.min(next.getAndIncrement(), replies.size() - 1)));
    }

    static ScriptedServer answering(Function<Recorded, Reply> responder) throws IOException {
        return new ScriptedServer(responder);
    }

    public String baseUrl() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1";
    }

    public List<Recorded> requests() {
        synchronized (requests) {
            return List.copyOf(requests);
        }
    }

    List<Long> arrivalNanos() {
        synchronized (arrivalNanos) {
            return List.copyOf(arrivalNanos);
        }
    }

    int maxInFlight() {
        return maxInFlight.get();
    }

    private void handle(HttpExchange exchange) throws IOException {
        int now = inFlight.incrementAndGet();
        maxInFlight.accumulateAndGet(now, Math::max);
        arrivalNanos.add(System.nanoTime());
        boolean counted = true;
        try {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            Recorded recorded = new Recorded(Map.copyOf(exchange.getRequestHeaders()), body);
            requests.add(recorded);
            Reply reply = responder.apply(recorded);
            if (!reply.delay().isZero()) {
                try {
                    Thread.sleep(reply.delay().toMillis());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
            // no longer in flight once the answer starts: the client may send its next request as soon
            // as it has this one, before this handler thread gets to its finally block
            inFlight.decrementAndGet();
            counted = false;
            reply.headers().forEach((k, v) -> exchange.getResponseHeaders().add(k, v));
            byte[] bytes = reply.body().getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(reply.status(), bytes.length == 0 ? -1 : bytes.length);
            if (bytes.length > 0) {
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(bytes);
                }
            }
        } catch (IOException e) {
            // the client gave up (timeout): nothing to answer
        } finally {
            if (counted) {
                inFlight.decrementAndGet();
            }
            exchange.close();
        }
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
        try {
            executor.awaitTermination(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
