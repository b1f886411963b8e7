package dev.santabatch.export;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;

/**
 * Debian's Chromium, headless, driven through its DevTools protocol over a WebSocket (the JDK's
 * own client, no library): open a page, read its rendered text ({@code document.body.innerText},
 * which leaves out what CSS does not render), capture a full-page screenshot, and record the
 * network requests and JavaScript dialogs the page caused. Started with the machine's known-good
 * flags, a fresh profile, and every request sent through the proxy (loopback included), so a
 * listener there sees anything the page tries to fetch; the calls the browser makes of its own
 * (sign-in's account list, the component updater) go to a closed loopback port instead, the
 * network-time query and the optimization guide are switched off, so that the proxy hears only
 * the page. Each wait is bounded; {@link #close}
 * ends the browser.
 */
final class HeadlessChromium implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration WAIT = Duration.ofSeconds(60);

    /** The discard port on loopback, where nothing of the test listens: the browser's own services are sent there. */
    private static final int SINK = 9;

    private final Process process;
    private final WebSocket socket;
    private final AtomicInteger ids = new AtomicInteger();
    private final Map<Integer, CompletableFuture<JsonNode>> pending = new ConcurrentHashMap<>();
    private final List<JsonNode> events = new CopyOnWriteArrayList<>();

    /** The browser's binary: {@code CHROMIUM} if set, else the first of Debian's names on this machine. */
    static Optional<Path> binary() {
        String env = System.getenv("CHROMIUM");
        if (env != null && !env.isBlank()) {
            return Optional.of(Path.of(env)).filter(Files::isExecutable);
        }
        for (String p : List.of("/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome")) {
            if (Files.isExecutable(Path.of(p))) {
                return Optional.of(Path.of(p));
            }
        }
        return Optional.empty();
    }

    private HeadlessChromium(Process process, WebSocket socket) {
        this.process = process;
        this.socket = socket;
    }

    /** Starts the browser with a fresh profile in {@code profile}, its requests through the proxy at 127.0.0.1:{@code proxyPort}. */
    static HeadlessChromium start(Path binary, Path profile, int proxyPort) throws Exception {
        Files.createDirectories(profile);
        List<String> cmd = new ArrayList<>(List.of(binary.toString(), "--headless", "--no-sandbox", "--disable-gpu",
                "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--user-data-dir=" + profile,
                // the browser's own calls home, which those flags leave: off, or pointed at a closed
                // loopback port that bypasses the proxy, so that the proxy hears only the page
                "--disable-features=NetworkTimeServiceQuerying,OptimizationHints,OptimizationGuideModelDownloading,"
                        + "OptimizationHintsFetching,MediaRouter,Translate",
                "--gaia-url=http://127.0.0.1:" + SINK, "--component-updater=url-source=http://127.0.0.1:" + SINK,
                "--proxy-server=http://127.0.0.1:" + proxyPort,
                // loopback goes through the proxy too (Chromium bypasses it for loopback by default), but the sink
                "--proxy-bypass-list=<-loopback>;127.0.0.1:" + SINK, "--remote-debugging-port=0",
                "--window-size=1100,900", "--hide-scrollbars", "about:blank"));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(profile.resolve("chromium.log").toFile())
                .start();
        try {
            Path active = profile.resolve("DevToolsActivePort");
            long deadline = System.nanoTime() + WAIT.toNanos();
            while (!(Files.isRegularFile(active) && Files.readAllLines(active).size() >= 2)) {
                if (!p.isAlive() || System.nanoTime() > deadline) {
                    throw new IllegalStateException("Chromium did not open its DevTools port; its log: "
                            + Files.readString(profile.resolve("chromium.log")));
                }
                Thread.sleep(100);
            }
            int port = Integer.parseInt(Files.readAllLines(active).get(0).trim());
            HttpClient http = HttpClient.newBuilder().proxy(HttpClient.Builder.NO_PROXY).connectTimeout(WAIT).build();
            String pageSocket = null;
            while (pageSocket == null) {
                JsonNode targets = JSON.readTree(http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/json/list"))
                        .timeout(WAIT).build(), HttpResponse.BodyHandlers.ofString()).body());
                for (JsonNode t : targets) {
                    if ("page".equals(t.path("type").asText())) {
                        pageSocket = t.path("webSocketDebuggerUrl").asText();
                        break;
                    }
                }
                if (pageSocket == null) {
                    if (System.nanoTime() > deadline) {
                        throw new IllegalStateException("Chromium opened no page");
                    }
                    Thread.sleep(100);
                }
            }
            Listener listener = new Listener();
            WebSocket ws = http.newWebSocketBuilder().connectTimeout(WAIT).buildAsync(URI.create(pageSocket), listener)
                    .get(WAIT.toSeconds(), TimeUnit.SECONDS);
            HeadlessChromium browser = new HeadlessChromium(p, ws);
            listener.browser = browser;
            browser.call("Page.enable", null);
            browser.call("Network.enable", null);
            return browser;
        } catch (Exception | Error e) {
            p.destroyForcibly();
            throw e;
        }
    }

    /** Opens {@code url} and waits for its load event. */
    void open(String url) throws Exception {
        events.clear();
        ObjectNode params = JSON.createObjectNode().put("url", url);
        JsonNode r = call("Page.navigate", params);
        if (r.hasNonNull("errorText")) {
            throw new IllegalStateException("Chromium could not open " + url + ": " + r.get("errorText").asText());
        }
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (events.stream().noneMatch(e -> "Page.loadEventFired".equals(e.path("method").asText()))) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("no load event for " + url);
            }
            Thread.sleep(50);
        }
    }

    /** The page's rendered text: {@code document.body.innerText}. */
    String visibleText() throws Exception {
        ObjectNode params = JSON.createObjectNode().put("expression", "document.body.innerText").put("returnByValue", true);
        return call("Runtime.evaluate", params).path("result").path("value").asText();
    }

    /** Writes a PNG of the whole page (beyond the window) to {@code file}. */
    void screenshot(Path file) throws Exception {
        screenshot(file, 0, Double.MAX_VALUE);
    }

    /** Writes a PNG of the page from {@code y} down, at most {@code height} CSS pixels, to {@code file}. */
    void screenshot(Path file, double y, double height) throws Exception {
        JsonNode metrics = call("Page.getLayoutMetrics", null);
        JsonNode size = metrics.has("cssContentSize") ? metrics.get("cssContentSize") : metrics.get("contentSize");
        double top = Math.min(y, Math.max(0, size.get("height").asDouble() - 1));
        ObjectNode clip = JSON.createObjectNode().put("x", 0).put("y", top).put("width", size.get("width").asDouble())
                .put("height", Math.min(height, size.get("height").asDouble() - top)).put("scale", 1);
        ObjectNode params = JSON.createObjectNode().put("format", "png").put("captureBeyondViewport", true);
        params.set("clip", clip);
        Files.write(file, Base64.getDecoder().decode(call("Page.captureScreenshot", params).path("data").asText()));
    }

    /** The URLs of every request the page sent (the DevTools' Network.requestWillBeSent), since it was opened. */
    List<String> requests() {
        return events.stream().filter(e -> "Network.requestWillBeSent".equals(e.path("method").asText()))
                .map(e -> e.path("params").path("request").path("url").asText()).toList();
    }

    /** The JavaScript dialogs (alert, confirm) the page opened. */
    List<String> dialogs() {
        return events.stream().filter(e -> "Page.javascriptDialogOpening".equals(e.path("method").asText()))
                .map(e -> e.path("params").path("message").asText()).toList();
    }

    private JsonNode call(String method, @Nullable ObjectNode params) throws Exception {
        int id = ids.incrementAndGet();
        ObjectNode msg = JSON.createObjectNode().put("id", id).put("method", method);
        if (params != null) {
            msg.set("params", params);
        }
        CompletableFuture<JsonNode> answer = new CompletableFuture<>();
        pending.put(id, answer);
        socket.sendText(JSON.writeValueAsString(msg), true).get(WAIT.toSeconds(), TimeUnit.SECONDS);
        JsonNode r = answer.get(WAIT.toSeconds(), TimeUnit.SECONDS);
        if (r.has("error")) {
            throw new IllegalStateException(method + ": " + r.get("error"));
        }
        return r.path("result");
    }

    @Override
    public void close() throws IOException, InterruptedException {
        try {
            socket.abort();
        } finally {
            process.destroy();
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
    }

    /** Joins a message's fragments, then answers a call or records an event. */
    private static final class Listener implements WebSocket.Listener {
        private final StringBuilder buffer = new StringBuilder();
        private volatile @Nullable HeadlessChromium browser;
        private final List<JsonNode> early = new ArrayList<>();

        @Override
        public CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
            buffer.append(data);
            if (last) {
                try {
                    JsonNode m = JSON.readTree(buffer.toString());
                    deliver(m);
                } catch (IOException e) {
                    // not JSON: nothing of ours
                }
                buffer.setLength(0);
            }
            ws.request(1);
            return null;
        }

        private synchronized void deliver(JsonNode m) {
            HeadlessChromium b = browser;
            if (b == null) {
                early.add(m);
                return;
            }
            for (JsonNode e : early) {
                route(b, e);
            }
            early.clear();
            route(b, m);
        }

        private static void route(HeadlessChromium b, JsonNode m) {
            if (m.has("id")) {
                CompletableFuture<JsonNode> f = b.pending.remove(m.get("id").asInt());
                if (f != null) {
                    f.complete(m);
                }
            } else {
                b.events.add(m);
                if ("Page.javascriptDialogOpening".equals(m.path("method").asText())) {
                    // a script ran: recorded above; dismissed so that the page goes on loading
                    ObjectNode dismiss = JSON.createObjectNode().put("id", b.ids.incrementAndGet())
                            .put("method", "Page.handleJavaScriptDialog");
                    dismiss.putObject("params").put("accept", true);
                    b.socket.sendText(dismiss.toString(), true);
                }
            }
        }
    }
}
