package dev.santabatch.export;

import dev.santabatch.persistence.Store;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The trend strip's figures: one point per run of a job, from each earlier run's own {@code
 * report.json} (the runs the store holds for the job, oldest first, found in their output
 * folders; a run whose folder is gone or whose report cannot be read is left out), then the
 * current run's.
 */
public final class RunTrend {

    /** The most runs the strip shows, the current one included. */
    static final int MAX_RUNS = 20;

    private RunTrend() {}

    /**
     * One run's figures.
     *
     * @param firstPassRate the run's first-pass rate
     * @param costShare the run's share of full verification (model calls against full Santa on
     *     every item; an all-offline panel's offline checks against the same)
     * @param estimatedCost the model calls' estimated cost
     * @param escapeRate the human spot-check's escape rate, when audited
     */
    public record Point(String runId, @Nullable Instant createdAt, String status, @Nullable Double firstPassRate,
            @Nullable Double costShare, @Nullable Double estimatedCost, @Nullable Double escapeRate) {

        /** The figures of one report. */
        static Point of(String runId, @Nullable Instant createdAt, ReportFile report) {
            SpendReport.Calls calls = SummaryEvent.modelCallsOfRun(report);
            Double cost = calls == null ? null : calls.estimatedCost();
            if (!(report instanceof Report r) || r.run() == null) {
                return new Point(runId, createdAt, report.status(), null, null, cost, null);
            }
            Report.Cost c = r.run().cost();
            Double share = c == null || c.model() == null || c.model().shareOfFullSantaOnEveryItem() == null ? null
                    : number(c.model().shareOfFullSantaOnEveryItem().calls());
            if (share == null && c != null && c.offlineChecks() != null) {
                share = c.offlineChecks().shareOfFullSantaOnEveryItem();
            }
            return new Point(runId, createdAt, r.status(), r.run().firstPassRate(), share, cost,
                    r.escapeRateAudit() == null ? null : r.escapeRateAudit().escapeRate());
        }
    }

    /**
     * The points of the job's runs other than {@code runId} that the store holds, oldest first, at
     * most {@link #MAX_RUNS} - 1 (the latest); then the caller appends the current run's.
     */
    public static List<Point> earlier(Store store, String job, String runId) {
        record Row(String runId, String outDir, @Nullable Instant createdAt) {}
        List<Row> rows = store.jdbc().query(
                "SELECT run_id, out_dir, created_at FROM sb_run WHERE job_name = ? AND run_id <> ?"
                        + " ORDER BY created_at DESC, run_pk DESC",
                (rs, i) -> new Row(rs.getString(1), rs.getString(2),
                        rs.getTimestamp(3) == null ? null : rs.getTimestamp(3).toInstant()),
                job, runId);
        List<Point> out = new ArrayList<>();
        for (Row row : rows) {
            if (out.size() >= MAX_RUNS - 1) {
                break;
            }
            Path file = Path.of(row.outDir()).resolve("report.json");
            if (!Files.isRegularFile(file)) {
                continue;
            }
            try {
                out.add(0, Point.of(row.runId(), row.createdAt(), RunReport.load(file)));
            } catch (java.io.IOException | RuntimeException e) {
                // an unreadable earlier report: the strip goes on without it
            }
        }
        return out;
    }

    /** The earlier runs' points and the current run's, last. */
    public static List<Point> withCurrent(List<Point> earlier, ReportFile report) {
        List<Point> all = new ArrayList<>(earlier);
        all.add(Point.of(report.runId(), null, report));
        return all;
    }

    private static @Nullable Double number(@Nullable Object o) {
        return o instanceof Number n ? n.doubleValue() : null;
    }
}
