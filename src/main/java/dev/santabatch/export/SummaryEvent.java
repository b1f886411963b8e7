package dev.santabatch.export;

import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.spi.LoggingEventBuilder;

/**
 * The run's end as one log event, for a log pipeline: with structured console logs
 * ({@code logging.structured.format.console=ecs}, or {@code logstash}, {@code gelf}) its figures
 * are fields of one JSON line ({@code santa.status}, {@code santa.shipped}, ...); in the plain
 * format it is one line naming the same. Built from the run's {@link ReportFile}: no item text, no
 * key.
 */
public final class SummaryEvent {

    /** The event's message, the same in every format. */
    static final String MESSAGE = "santa-batch run summary";

    private SummaryEvent() {}

    /** The event's fields, in order. */
    public static Map<String, Object> fields(ReportFile report, int exit) {
        Map<String, Object> f = new LinkedHashMap<>();
        f.put("santa.job", report.job());
        f.put("santa.run_id", report.runId());
        f.put("santa.status", report.status());
        f.put("santa.exit", exit);
        if (report.input() != null) {
            f.put("santa.items_read", report.input().items());
            f.put("santa.rejected", report.input().rejects());
        }
        if (report.outputs() != null) {
            put(f, "santa.shipped", report.outputs().shipped());
            put(f, "santa.held", report.outputs().held());
            put(f, "santa.unverified", report.outputs().unverified());
        }
        Report r = report instanceof Report done ? done : null;
        if (r != null && r.run() != null) {
            put(f, "santa.rounds", r.run().rounds());
            put(f, "santa.first_pass_rate", r.run().firstPassRate());
            put(f, "santa.defect_rate_below", r.run().bound() == null ? null : r.run().bound().defectRateBelow());
        }
        SpendReport.Calls calls = modelCallsOfRun(report);
        if (calls != null) {
            f.put("santa.model_calls", calls.calls());
            f.put("santa.model_tokens", calls.tokens());
            f.put("santa.model_cost", calls.estimatedCost());
            f.put("santa.model_errors", calls.errors());
        }
        put(f, "santa.reason", r != null ? r.reason() : null);
        return f;
    }

    /** {@code run.model_calls.run}: the run's model calls in total; {@code null} without them. */
    public static SpendReport.@Nullable Calls modelCallsOfRun(ReportFile report) {
        SpendReport.ModelCalls calls = report instanceof Report r && r.run() != null ? r.run().modelCalls()
                : report instanceof FailedReport f && f.run() != null ? f.run().modelCalls() : null;
        return calls == null ? null : calls.run();
    }

    /** Logs the event at INFO. */
    public static void log(Logger log, ReportFile report, int exit) {
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
}
