package dev.santabatch.history;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * {@code santa-batch history}: one line per run of a job, from the store alone. An exported run
 * shows the figures its export recorded ({@link RunSummary}); a run that is live, was killed,
 * failed or was stopped shows its status and no figures; a run exported by a version that did not
 * record them shows its status only. Runs are listed oldest first; the trend compares the first
 * and the last exported run listed.
 */
public final class History {

    /** Whether the holder of a run's lock is alive (its process, and a fresh heartbeat). */
    public interface Liveness {
        boolean alive(String owner, @Nullable Instant heartbeat);
    }

    /**
     * One run. Figures are {@code null} when the run has none recorded.
     *
     * @param startedAt when the run was created (ISO-8601, UTC)
     * @param exportedAt when its last export finished; {@code null}: not exported (or resumed since)
     * @param status {@code running} (live), {@code dead} (its process is gone while the store still
     *     says it runs: killed), {@code failed}, {@code stopped}, {@code completed} (exported by a
     *     version that did not record its status), else the exported report's status
     */
    public record Run(String runId, String startedAt, @Nullable String exportedAt, String status, @Nullable Long items,
            @Nullable Long changed, @Nullable Long carriedOver, @Nullable Long shipped, @Nullable Long held,
            @Nullable Double firstPassRate, @Nullable Integer patternsNew, @Nullable Integer patternsSeenAgain,
            @Nullable Long modelCalls, @Nullable Double estimatedCost, @Nullable Double bound, @Nullable Long audited,
            @Nullable Double escapeRate) {

        boolean hasFigures() {
            return items != null;
        }
    }

    /** A figure's first and last value over the trend's runs. */
    public record Change(String fromRunId, double from, String toRunId, double to) {}

    /**
     * The trend over the exported runs listed: the first and the last of them that have the figure.
     *
     * @param exportedRuns the exported runs listed (with figures)
     * @param firstPassRate {@code null} when fewer than two of them have one
     * @param estimatedCost {@code null} when fewer than two runs are exported
     */
    public record Trend(int exportedRuns, @Nullable Change firstPassRate, @Nullable Change estimatedCost) {}

    /**
     * @param runsInStore every run of the job the store holds (runs refused before they started aside)
     * @param runs the latest {@code --limit} of them, oldest first
     */
    public record Listing(String job, int runsInStore, List<Run> runs, Trend trend) {}

    private static final ObjectMapper JSON = new ObjectMapper()
            .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .enable(SerializationFeature.INDENT_OUTPUT);

    private static final DateTimeFormatter LOCAL = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm", Locale.ROOT)
            .withZone(ZoneId.systemDefault());

    private History() {}

    /**
     * The job's latest {@code limit} runs from the store.
     *
     * @param runIdParameter the name of the job parameter holding the run id in Spring Batch's tables
     */
    public static Listing read(JdbcTemplate jdbc, String job, int limit, String runIdParameter, Liveness liveness) {
        record Row(long runPk, String runId, Instant createdAt, @Nullable String owner, @Nullable Instant heartbeat,
                @Nullable Instant exportedAt, @Nullable String exportedStatus) {}
        List<Row> rows = jdbc.query("SELECT run_pk, run_id, created_at, lock_owner, heartbeat_at, exported_at, exported_status"
                        + " FROM sb_run WHERE job_name = ? ORDER BY run_pk DESC",
                (rs, n) -> new Row(rs.getLong(1), rs.getString(2), rs.getTimestamp(3).toInstant(), rs.getString(4),
                        instant(rs.getTimestamp(5)), instant(rs.getTimestamp(6)), rs.getString(7)),
                job);
        // each run's last execution (a run id is one job instance; a restart adds an execution)
        // one query for every run: JobRepository.getLastJobExecution would load each run's steps and contexts
        Map<String, String> lastExecution = new HashMap<>();
        jdbc.query("SELECT p.PARAMETER_VALUE, e.STATUS FROM BATCH_JOB_EXECUTION e"
                        + " JOIN BATCH_JOB_INSTANCE i ON i.JOB_INSTANCE_ID = e.JOB_INSTANCE_ID"
                        + " JOIN BATCH_JOB_EXECUTION_PARAMS p ON p.JOB_EXECUTION_ID = e.JOB_EXECUTION_ID AND p.PARAMETER_NAME = ?"
                        + " WHERE i.JOB_NAME = ? ORDER BY e.JOB_EXECUTION_ID",
                rs -> {
                    lastExecution.put(rs.getString(1), rs.getString(2));
                },
                runIdParameter, job);
        List<Row> listed = new ArrayList<>();
        List<String> statuses = new ArrayList<>();
        int inStore = 0;
        for (Row r : rows) {
            String status = status(r.exportedStatus(), r.owner() != null && liveness.alive(r.owner(), r.heartbeat()),
                    lastExecution.get(r.runId()));
            if (status == null) {
                continue;
            }
            inStore++;
            if (listed.size() < limit) {
                listed.add(r);
                statuses.add(status);
            }
        }
        Map<Long, RunSummary> figures = new RunSummaryStore(jdbc).load(listed.stream().map(Row::runPk).toList());
        List<Run> runs = new ArrayList<>();
        for (int i = 0; i < listed.size(); i++) {
            Row r = listed.get(i);
            RunSummary s = r.exportedAt() == null ? null : figures.get(r.runPk());
            runs.add(run(r.runId(), r.createdAt(), r.exportedAt(), statuses.get(i), s));
        }
        Collections.reverse(runs);
        return new Listing(job, inStore, List.copyOf(runs), trend(runs));
    }

    /**
     * A run's status for the listing; {@code null} for a run that never started (refused: another
     * run of the job was live), which is not listed.
     */
    static @Nullable String status(@Nullable String exportedStatus, boolean live, @Nullable String lastExecution) {
        if (exportedStatus != null) {
            return exportedStatus;
        }
        if (live) {
            return "running";
        }
        if (lastExecution == null) {
            return null;
        }
        if (Set.of("STARTING", "STARTED", "STOPPING").contains(lastExecution)) {
            return "dead";
        }
        return lastExecution.toLowerCase(Locale.ROOT);
    }

    private static Run run(String runId, Instant createdAt, @Nullable Instant exportedAt, String status,
            @Nullable RunSummary s) {
        String started = createdAt.toString();
        String exported = exportedAt == null ? null : exportedAt.toString();
        if (s == null) {
            return new Run(runId, started, exported, status, null, null, null, null, null, null, null, null, null, null, null,
                    null, null);
        }
        return new Run(runId, started, exported, status, s.items(), s.changed(), s.carriedOver(), s.shipped(), s.held(),
                s.firstPassRate(), s.patternsNew(), s.patternsSeenAgain(), s.modelCalls(), s.estimatedCost(), s.bound(),
                s.audited(), s.escapeRate());
    }

    /** First against last: of the exported runs listed, and of those with a first-pass rate. */
    static Trend trend(List<Run> runs) {
        List<Run> exported = runs.stream().filter(Run::hasFigures).toList();
        List<Run> rated = exported.stream().filter(r -> r.firstPassRate() != null).toList();
        Change rate = rated.size() < 2 ? null : new Change(rated.get(0).runId(), rated.get(0).firstPassRate(),
                rated.get(rated.size() - 1).runId(), rated.get(rated.size() - 1).firstPassRate());
        Change cost = exported.size() < 2 ? null : new Change(exported.get(0).runId(), exported.get(0).estimatedCost(),
                exported.get(exported.size() - 1).runId(), exported.get(exported.size() - 1).estimatedCost());
        return new Trend(exported.size(), rate, cost);
    }

    // ---------------------------------------------------------------- output

    public static String json(Listing listing) {
        try {
            return JSON.writeValueAsString(listing);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("history: cannot write JSON", e);
        }
    }

    private static final List<String> HEADER = List.of("STARTED", "RUN ID", "STATUS", "ITEMS", "CHANGED", "CARRIED",
            "SHIPPED", "HELD", "1ST PASS", "NEW PATTERNS", "SEEN AGAIN", "CALLS", "COST", "BOUND", "ESCAPE");

    /** Columns aligned left; the rest are figures, aligned right. */
    private static final int LEFT = 3;

    /** The listing for a person: a heading, one line per run, the trend. */
    public static List<String> text(Listing listing) {
        List<String> lines = new ArrayList<>();
        if (listing.runs().isEmpty()) {
            lines.add("no runs yet of job '" + listing.job() + "' in this store");
            return lines;
        }
        int n = listing.runs().size();
        lines.add("history of job '" + listing.job() + "': " + (n == listing.runsInStore()
                ? n + " run" + (n == 1 ? "" : "s")
                : "the latest " + n + " of " + listing.runsInStore() + " runs") + ", oldest first");
        List<List<String>> table = new ArrayList<>();
        table.add(HEADER);
        for (Run r : listing.runs()) {
            table.add(List.of(LOCAL.format(Instant.parse(r.startedAt())), r.runId(), r.status(), count(r.items()),
                    count(r.changed()), count(r.carriedOver()), count(r.shipped()), count(r.held()), pct(r.firstPassRate()),
                    count(r.patternsNew()), count(r.patternsSeenAgain()), count(r.modelCalls()), money(r.estimatedCost()),
                    pct(r.bound()), pct(r.escapeRate())));
        }
        int[] width = new int[HEADER.size()];
        table.forEach(row -> {
            for (int c = 0; c < row.size(); c++) {
                width[c] = Math.max(width[c], row.get(c).length());
            }
        });
        for (List<String> row : table) {
            StringBuilder b = new StringBuilder();
            for (int c = 0; c < row.size(); c++) {
                String cell = row.get(c);
                String pad = " ".repeat(width[c] - cell.length());
                b.append(c == 0 ? "" : "  ").append(c < LEFT ? cell + pad : pad + cell);
            }
            lines.add(b.toString().stripTrailing());
        }
        lines.add(trendLine(listing.trend()));
        return lines;
    }

    static String trendLine(Trend t) {
        if (t.estimatedCost() == null) {
            return "trend: needs two exported runs (" + t.exportedRuns() + " listed)";
        }
        Change cost = t.estimatedCost();
        Change rate = t.firstPassRate();
        return "trend over " + t.exportedRuns() + " exported runs, '" + cost.fromRunId() + "' to '" + cost.toRunId() + "':"
                + " first-pass rate " + (rate == null ? "not measured" : pct(rate.from()) + " -> " + pct(rate.to()))
                + ", cost " + money(cost.from()) + " -> " + money(cost.to());
    }

    private static String count(@Nullable Number n) {
        return n == null ? "-" : String.valueOf(n.longValue());
    }

    private static String pct(@Nullable Double d) {
        return d == null ? "-" : String.format(Locale.ROOT, "%.1f %%", d * 100);
    }

    private static String money(@Nullable Double d) {
        return d == null ? "-" : String.format(Locale.ROOT, "%.4f", d);
    }

    private static @Nullable Instant instant(@Nullable Timestamp t) {
        return t == null ? null : t.toInstant();
    }
}
