package dev.santabatch.model;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The console log of a whole model-backed run, plain and as structured JSON
 * ({@code logging.structured.format.console=ecs}), with request logging on: the run's end is one
 * event carrying its figures, and the API key is in no log line.
 */
class StructuredLogFunctionalTests {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"plain", "ecs"})
    void theRunsEndIsOneEventAndTheKeyIsInNoLogLine(String format) throws Exception {
        LlmJobs.Catalog catalog = LlmJobs.catalog(dir, 5, 60);
        Map<String, String> properties = new LinkedHashMap<>();
        if (format.equals("ecs")) {
            properties.put("logging.structured.format.console", "ecs");
        }
        properties.put("logging.level.dev.santabatch", "DEBUG");
        properties.put("logging.level.dev.langchain4j", "DEBUG");
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        LlmJobs.Result r;
        try (CatalogModelServer server = CatalogModelServer.start(CatalogModelServer.reviewerDefects(catalog.truth()))) {
            Path job = LlmJobs.writeJob(dir, "logs", catalog, server.baseUrl(), 2, "governor:\n  log-requests: true\n");
            r = withConsole(captured, properties, () -> LlmJobs.run(dir, job, "r1"));
        }
        String console = captured.toString(StandardCharsets.UTF_8);

        assertThat(r.exit()).as(r.all()).isZero();
        assertThat(console).as("the console log").isNotBlank().doesNotContain(LlmJobs.KEY);
        assertThat(r.all()).doesNotContain(LlmJobs.KEY);
        // request logging was on: the requests were logged, their credential masked
        assertThat(console).contains("/chat/completions");
        if (format.equals("plain")) {
            assertThat(console.lines().filter(l -> l.contains("santa-batch run summary:")).toList()).singleElement()
                    .asString().contains("job=logs run_id=r1 status=fully-reviewed exit=0").contains("items_read=60")
                    .contains("model_calls=");
            return;
        }
        // every log line is one JSON object; the summary is one of them, its figures as fields
        List<JsonNode> events = new ArrayList<>();
        for (String line : console.lines().filter(l -> !l.isBlank()).toList()) {
            assertThat(line).as("a structured log line").startsWith("{").endsWith("}");
            events.add(JSON.readTree(line));
        }
        List<JsonNode> summary = events.stream()
                .filter(e -> e.path("message").asText().startsWith("santa-batch run summary")).toList();
        assertThat(summary).hasSize(1);
        JsonNode s = summary.get(0);
        assertThat(field(s, "santa.status")).isEqualTo("fully-reviewed");
        assertThat(field(s, "santa.run_id")).isEqualTo("r1");
        assertThat(field(s, "santa.exit")).isEqualTo("0");
        assertThat(field(s, "santa.items_read")).isEqualTo("60");
        assertThat(Long.parseLong(field(s, "santa.model_calls"))).isPositive();
        assertThat(Long.parseLong(field(s, "santa.shipped")) + Long.parseLong(field(s, "santa.held"))
                + Long.parseLong(field(s, "santa.unverified"))).isEqualTo(60);
    }

    /** A field of an event, whether the format nests dotted names or keeps them flat. */
    private static String field(JsonNode event, String dotted) {
        JsonNode flat = event.get(dotted);
        if (flat != null) {
            return flat.asText();
        }
        JsonNode n = event;
        for (String part : dotted.split("\\.")) {
            n = n.path(part);
        }
        assertThat(n.isMissingNode()).as(dotted + " in " + event).isFalse();
        return n.asText();
    }

    private interface Body {
        LlmJobs.Result run() throws Exception;
    }

    /** Runs {@code body} with System.out and System.err captured and the given system properties set. */
    private static LlmJobs.Result withConsole(ByteArrayOutputStream captured, Map<String, String> properties, Body body)
            throws Exception {
        PrintStream out = System.out;
        PrintStream err = System.err;
        Map<String, String> previous = new LinkedHashMap<>();
        properties.forEach((k, v) -> previous.put(k, System.setProperty(k, v)));
        // Spring Boot copies logging settings into system properties (CONSOLE_LOG_STRUCTURED_FORMAT,
        // ...) and a later run keeps them: the run's own are removed afterwards
        java.util.Set<String> before = new java.util.HashSet<>(System.getProperties().stringPropertyNames());
        PrintStream tee = new PrintStream(captured, true, StandardCharsets.UTF_8);
        System.setOut(tee);
        System.setErr(tee);
        // logging is set up once per JVM and kept: forget it, so this run's application sets it up
        // on the captured console with these properties, and the next one on the real console
        resetLogging();
        try {
            return body.run();
        } finally {
            System.setOut(out);
            System.setErr(err);
            System.getProperties().stringPropertyNames().stream().filter(k -> !before.contains(k))
                    .forEach(System::clearProperty);
            resetLogging();
            previous.forEach((k, v) -> {
                if (v == null) {
                    System.clearProperty(k);
                } else {
                    System.setProperty(k, v);
                }
            });
        }
    }

    /** Forgets the JVM's logging set-up, so the next application start sets it up afresh. */
    private static void resetLogging() {
        org.springframework.boot.logging.LoggingSystem.get(StructuredLogFunctionalTests.class.getClassLoader()).cleanUp();
    }
}
