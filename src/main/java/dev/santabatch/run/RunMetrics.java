package dev.santabatch.run;

import dev.santabatch.model.ErrorKind;
import dev.santabatch.export.RunReport;
import dev.santabatch.export.SpendReport;
import dev.santabatch.export.SummaryEvent;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.prometheus.metrics.exporter.pushgateway.Format;
import io.prometheus.metrics.exporter.pushgateway.PushGateway;
import io.prometheus.metrics.exporter.pushgateway.Scheme;
import java.io.IOException;
import java.io.PrintStream;
import java.time.Instant;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.env.Environment;

/**
 * One run's metrics, for a scheduler: Spring Batch's job and step observations (timers
 * {@code spring_batch_job_*}, {@code spring_batch_step_*}, through the {@link #observations()}
 * registry the run's job and steps are given) and, once the run has ended, its figures as gauges
 * and counters ({@code santa_*}, from the same report as {@link SummaryEvent}). Held in memory
 * only: nothing is served or opened. {@link #push} sends them to a Prometheus Pushgateway when
 * Spring Boot's {@code management.prometheus.metrics.export.pushgateway.enabled} is true.
 */
final class RunMetrics {

    private static final Logger log = LoggerFactory.getLogger(RunMetrics.class);

    /** Spring Boot's Pushgateway properties (the same names as Boot's own push support). */
    static final String PUSHGATEWAY = "management.prometheus.metrics.export.pushgateway.";

    /** Spring Boot's default address. */
    static final String DEFAULT_ADDRESS = "localhost:9091";

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);

    private final ObservationRegistry observations = ObservationRegistry.create();

    private boolean recorded;

    RunMetrics() {
        observations.observationConfig().observationHandler(new DefaultMeterObservationHandler(registry));
    }

    /** The registry the run's job and steps record their observations in. */
    ObservationRegistry observations() {
        return observations;
    }

    PrometheusMeterRegistry registry() {
        return registry;
    }

    /**
     * The run's figures from its report (an exported or a failed run's), once. Every
     * gauge is present on every push (NaN where the run has no figure), so a push replaces the
     * previous run's series; {@code santa_last_success_timestamp_seconds} only when the run ended
     * clean or fully reviewed, so that a failed run's push keeps the last success's.
     */
    void record(dev.santabatch.export.ReportFile report, int exit) {
        if (recorded) {
            return;
        }
        recorded = true;
        Map<String, Object> f = SummaryEvent.fields(report, exit);
        String status = String.valueOf(f.getOrDefault("santa.status", RunReport.FAILED));
        Gauge.builder("santa.run.status", () -> 1).tag("status", status)
                .description("the run's status (clean, fully-reviewed, not-clean, budget-stopped, failed): 1 for the status of the latest run")
                .register(registry);
        gauge("santa.run.exit.code", exit, "the run's exit code");
        gauge("santa.run.end.timestamp.seconds", Instant.now().getEpochSecond(), "when the latest run ended");
        if (RunReport.CLEAN.equals(status) || RunReport.FULLY_REVIEWED.equals(status)) {
            gauge("santa.last.success.timestamp.seconds", Instant.now().getEpochSecond(),
                    "when a run last ended clean or fully reviewed");
        }
        gauge("santa.items.read", number(f.get("santa.items_read")), "catalog items read");
        gauge("santa.items.rejected", number(f.get("santa.rejected")), "catalog records rejected (rejects.csv)");
        gauge("santa.items.shipped", number(f.get("santa.shipped")), "items shipped");
        gauge("santa.items.held", number(f.get("santa.held")), "items held (escalated)");
        gauge("santa.items.unverified", number(f.get("santa.unverified")), "items left unverified");
        gauge("santa.rounds", number(f.get("santa.rounds")), "rounds run");
        gauge("santa.first.pass.rate", number(f.get("santa.first_pass_rate")), "share of sampled items NICE first time");
        gauge("santa.bound.defect.rate.below", number(f.get("santa.defect_rate_below")),
                "the stated bound: the defect rate is below this at 95 % (NaN when no bound is stated)");
        SpendReport.Calls calls = SummaryEvent.modelCallsOfRun(report);
        counter("santa.model.calls", null, calls == null ? null : (double) calls.calls(), "model calls (HTTP attempts)");
        counter("santa.model.tokens", null, calls == null ? null : (double) calls.tokens(), "model tokens");
        counter("santa.model.cost", null, calls == null ? null : calls.estimatedCost(), "estimated model cost");
        Map<String, Long> byKind = calls == null || calls.errorsByKind() == null ? Map.of() : calls.errorsByKind();
        for (ErrorKind kind : ErrorKind.values()) {
            // every kind, 0 where none: a push replaces the previous run's counts
            Counter.builder("santa.model.errors").tag("kind", kind.label()).description("model errors by kind")
                    .register(registry).increment(byKind.getOrDefault(kind.label(), 0L));
        }
        (calls == null || calls.byRole() == null ? Map.<String, SpendReport.Calls>of() : calls.byRole()).forEach((name, r) -> {
            counter("santa.model.role.calls", name, (double) r.calls(), "model calls by role");
            counter("santa.model.role.tokens", name, (double) r.tokens(), "model tokens by role");
            counter("santa.model.role.cost", name, r.estimatedCost(), "estimated model cost by role");
            counter("santa.model.role.errors", name, (double) r.errors(), "model errors by role");
        });
    }

    /** Whether {@link #record} has been given the run's figures. */
    boolean recorded() {
        return recorded;
    }

    /**
     * Pushes the run's metrics when the Pushgateway is enabled: one POST to
     * {@code /metrics/job/<job>} (grouped by the job's name, so a run replaces the previous run's
     * series instead of adding its own; POST, not PUT, keeps the last success's timestamp when this
     * run did not succeed). A push that fails is logged and reported; it does not change the exit.
     *
     * @return whether anything was pushed
     */
    boolean push(Environment env, String job, PrintStream err) {
        if (!env.getProperty(PUSHGATEWAY + "enabled", Boolean.class, false)) {
            return false;
        }
        String address = env.getProperty(PUSHGATEWAY + "address", DEFAULT_ADDRESS);
        try {
            PushGateway.Builder b = PushGateway.builder()
                    .address(address)
                    .scheme(Scheme.fromString(env.getProperty(PUSHGATEWAY + "scheme", "http").toLowerCase(java.util.Locale.ROOT)))
                    .job(job)
                    .format(Format.PROMETHEUS_TEXT)
                    .registry(registry.getPrometheusRegistry());
            String user = env.getProperty(PUSHGATEWAY + "username");
            String token = env.getProperty(PUSHGATEWAY + "token");
            if (user != null) {
                b.basicAuth(user, env.getProperty(PUSHGATEWAY + "password", ""));
            } else if (token != null) {
                b.bearerToken(token);
            }
            b.build().pushAdd();
            log.info("metrics pushed to the Pushgateway at {} (job '{}')", address, job);
            return true;
        } catch (IOException | RuntimeException e) {
            log.warn("could not push the run's metrics to the Pushgateway at {}: {}", address, e.toString());
            err.println("santa-batch: warning: could not push the run's metrics to the Pushgateway at " + address + ": " + e);
            return false;
        }
    }

    private void gauge(String name, @Nullable Double value, String description) {
        double v = value == null ? Double.NaN : value;
        Gauge.builder(name, () -> v).description(description).register(registry);
    }

    private void gauge(String name, long value, String description) {
        Gauge.builder(name, () -> value).description(description).register(registry);
    }

    private void counter(String name, @Nullable String role, @Nullable Double value, String description) {
        Counter.Builder b = Counter.builder(name).description(description);
        if (role != null) {
            b.tag("role", role);
        }
        b.register(registry).increment(orZero(value));
    }

    private static double orZero(@Nullable Double v) {
        return v == null ? 0 : v;
    }

    private static @Nullable Double number(@Nullable Object o) {
        return o instanceof Number n ? n.doubleValue() : null;
    }
}
