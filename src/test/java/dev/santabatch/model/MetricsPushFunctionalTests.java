package dev.santabatch.model;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.santabatch.model.CatalogModelServer.Fault;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run's metrics for a scheduler: pushed at the run's end, a failed run's included, to a
 * Pushgateway (a local HTTP server the test owns) when Spring Boot's Pushgateway properties say so,
 * grouped by the job's name; nothing sent when they do not.
 */
class MetricsPushFunctionalTests {

    private static final String ENABLED = "management.prometheus.metrics.export.pushgateway.enabled";
    private static final String ADDRESS = "management.prometheus.metrics.export.pushgateway.address";

    @TempDir
    Path dir;

    /** One request the stand-in Pushgateway received. */
    private record Push(String method, String path, String body) {}

    @Test
    void aRunPushesItsFiguresAndSpringBatchsTimersGroupedByTheJobsName() throws Exception {
        LlmJobs.Catalog catalog = LlmJobs.catalog(dir, 5, 60);
        List<Push> pushes = Collections.synchronizedList(new ArrayList<>());
        HttpServer gateway = gateway(pushes);
        try (CatalogModelServer server = CatalogModelServer.start(CatalogModelServer.reviewerDefects(catalog.truth()))) {
            Path job = LlmJobs.writeJob(dir, "nightly", catalog, server.baseUrl(), 2, "");
            Map<String, Object> props = LlmJobs.props(dir);
            props.put(ENABLED, "true");
            props.put(ADDRESS, "127.0.0.1:" + gateway.getAddress().getPort());

            LlmJobs.Result first = LlmJobs.cli(props, "run", job.toString(), "--out", dir.resolve("out").toString(),
                    "--run-id", "r1");

            assertThat(first.exit()).as(first.all()).isZero();
            assertThat(pushes).as("one push at the run's end").hasSize(1);
            Push push = pushes.get(0);
            assertThat(push.method()).isIn("POST", "PUT");
            // grouped by the job's name, not the run id
            assertThat(push.path()).isEqualTo("/metrics/job/nightly");
            String body = push.body();
            assertThat(value(body, "santa_run_status{status=\"fully-reviewed\"}")).isEqualTo(1);
            assertThat(value(body, "santa_run_exit_code")).isZero();
            assertThat(value(body, "santa_items_read")).isEqualTo(60);
            assertThat(value(body, "santa_items_rejected")).isZero();
            assertThat(value(body, "santa_items_shipped") + value(body, "santa_items_held")
                    + value(body, "santa_items_unverified")).isEqualTo(60);
            assertThat(value(body, "santa_first_pass_rate")).isBetween(0.0, 1.0);
            assertThat(value(body, "santa_model_calls_total")).isPositive();
            assertThat(value(body, "santa_model_tokens_total")).isPositive();
            assertThat(value(body, "santa_model_cost_total")).isPositive();
            assertThat(value(body, "santa_model_role_calls_total{role=\"reviewer:B\"}")).isPositive();
            assertThat(value(body, "santa_model_errors_total{kind=\"429\"}")).isZero();
            assertThat(body).contains("santa_bound_defect_rate_below ");
            assertThat(value(body, "santa_last_success_timestamp_seconds"))
                    .isCloseTo(System.currentTimeMillis() / 1000.0, org.assertj.core.data.Offset.offset(600.0));
            // Spring Batch's own observations: the job's and each step's timer
            assertThat(body).containsPattern("(?m)^spring_batch_step_seconds_count\\{[^}]*spring_batch_step_name=\"ingest\"");
            assertThat(body).containsPattern("(?m)^spring_batch_job_seconds_count\\{[^}]*spring_batch_job_name=\"nightly\"");

            // a failed run of the same job pushes too, its status failed, and keeps the last success
            // (carry-over off: r1 verified every item, which r2 would otherwise carry over without a call)
            Files.writeString(job, Files.readString(job) + "carry-over:\n  enabled: false\n");
            server.inject(c -> true, Integer.MAX_VALUE, Fault.status(401, Map.of()));
            LlmJobs.Result failed = LlmJobs.cli(props, "run", job.toString(), "--out", dir.resolve("out").toString(),
                    "--run-id", "r2");

            assertThat(failed.exit()).as(failed.all()).isEqualTo(1);
            assertThat(pushes).hasSize(2);
            Push second = pushes.get(1);
            assertThat(second.path()).isEqualTo("/metrics/job/nightly");
            // POST replaces the pushed metrics of the group and keeps the others: the last success's timestamp
            assertThat(second.method()).isEqualTo("POST");
            assertThat(value(second.body(), "santa_run_status{status=\"failed\"}")).isEqualTo(1);
            assertThat(value(second.body(), "santa_run_exit_code")).isEqualTo(1);
            assertThat(value(second.body(), "santa_model_errors_total{kind=\"auth\"}")).isPositive();
            assertThat(second.body()).doesNotContain("santa_last_success_timestamp_seconds");
        } finally {
            gateway.stop(0);
        }
    }

    @Test
    void withoutThePushgatewayPropertiesNothingIsSentToItsDefaultPort() throws Exception {
        LlmJobs.Catalog catalog = LlmJobs.catalog(dir, 5, 30);
        AtomicInteger connections = new AtomicInteger();
        // the Pushgateway's default port: a push with the default address would land here
        try (ServerSocket listener = new ServerSocket(9091, 50, InetAddress.getByName("127.0.0.1"));
                CatalogModelServer server = CatalogModelServer.start(CatalogModelServer.reviewerDefects(catalog.truth()))) {
            Thread accept = new Thread(() -> {
                while (!listener.isClosed()) {
                    try (Socket s = listener.accept()) {
                        connections.incrementAndGet();
                    } catch (IOException e) {
                        return;
                    }
                }
            }, "pushgateway-listener");
            accept.setDaemon(true);
            accept.start();
            Path job = LlmJobs.writeJob(dir, "quiet", catalog, server.baseUrl(), 2, "");

            LlmJobs.Result r = LlmJobs.run(dir, job, "r1");

            assertThat(r.exit()).as(r.all()).isZero();
            assertThat(connections.get()).as("connections to 127.0.0.1:9091").isZero();
        }
    }

    /** A stand-in Pushgateway on 127.0.0.1 that records each PUT or POST under /metrics/job/. */
    private static HttpServer gateway(List<Push> pushes) throws IOException {
        HttpServer http = HttpServer.create(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0), 0);
        http.createContext("/metrics/job/", exchange -> {
            try (InputStream in = exchange.getRequestBody()) {
                String body = new String(in.readAllBytes(), StandardCharsets.UTF_8);
                String method = exchange.getRequestMethod();
                if (method.equals("PUT") || method.equals("POST")) {
                    pushes.add(new Push(method, exchange.getRequestURI().getPath(), body));
                    exchange.sendResponseHeaders(200, -1);
                } else {
                    exchange.sendResponseHeaders(405, -1);
                }
            } catch (SocketException e) {
                // the client went away
            } finally {
                exchange.close();
            }
        });
        http.start();
        return http;
    }

    /** The value of the series {@code series} (name and labels as written) in a text-format payload. */
    private static double value(String body, String series) {
        Matcher m = Pattern.compile("(?m)^" + Pattern.quote(series) + " (\\S+)$").matcher(body);
        assertThat(m.find()).as(series + " in the pushed payload:\n" + body).isTrue();
        return Double.parseDouble(m.group(1));
    }
}
