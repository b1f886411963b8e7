package dev.santabatch.report;

import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.spi.LoggingEventBuilder;

/**
 * The run's end as one log event, for a log pipeline: with structured console logs
 * ({@code logging.structured.format.console=ecs}, or {@code logstash}, {@code gelf}) its figures
 * are fields of one JSON line ({@code santa.status}, {@code santa.shipped}, ...); in the plain
 * format it is one line naming the same. Built from {@code report.json}'s map: no item text, no
 * key.
 */
public final class SummaryEvent {

    /** The event's message, the same in every format. */
    static final String MESSAGE = "santa-batch run summary";

    private SummaryEvent() {}

    /** The event's fields, in order. */
    public static Map<String, Object> fields(Map<String, Object> report, int exit) {
        Map<String, Object> f = new LinkedHashMap<>();
        f.put("santa.job", report.get("job"));
        f.put("santa.run_id", report.get("run_id"));
        f.put("santa.status", report.get("status"));
        f.put("santa.exit", exit);
        Map<?, ?> input = map(report.get("input"));
        Map<?, ?> outputs = map(report.get("outputs"));
        Map<?, ?> run = map(report.get("run"));
        put(f, "santa.items_read", input.get("items"));
        put(f, "santa.rejected", input.get("rejects"));
        put(f, "santa.shipped", outputs.get("shipped"));
        put(f, "santa.held", outputs.get("held"));
        put(f, "santa.unverified", outputs.get("unverified"));
        put(f, "santa.rounds", run.get("rounds"));
        put(f, "santa.first_pass_rate", run.get("first_pass_rate"));
        Map<?, ?> bound = map(run.get("bound"));
        put(f, "santa.defect_rate_below", bound.get("defect_rate_below"));
        Map<?, ?> calls = map(map(run.get("model_calls")).get("run"));
        put(f, "santa.model_calls", calls.get("calls"));
        put(f, "santa.model_tokens", calls.get("tokens"));
        put(f, "santa.model_cost", calls.get("estimated_cost"));
        put(f, "santa.model_errors", calls.get("errors"));
        put(f, "santa.reason", report.get("reason"));
        return f;
    }

    /** Logs the event at INFO. */
    public static void log(Logger log, Map<String, Object> report, int exit) {
        Map<String, Object> fields = fields(report, exit);
        LoggingEventBuilder e = log.atInfo();
        fields.forEach(e::addKeyValue);
        StringBuilder line = new StringBuilder(MESSAGE).append(':');
        fields.forEach((k, v) -> line.append(' ').append(k.substring("santa.".length())).append('=').append(v));
        e.setMessage(line.toString()).log();
    }

    private static void put(Map<String, Object> f, String key, @Nullable Object value) {
        if (value != null) {
            f.put(key, value);
        }
    }

    private static Map<?, ?> map(@Nullable Object o) {
        return o instanceof Map<?, ?> m ? m : Map.of();
    }
}
