package dev.santabatch.history;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;

/**
 * The figures of each exported run ({@code sb_run_summary}, one row per run): written by the export
 * in the transaction that records the run as exported, replaced by a later export of the same run,
 * the audit's figures updated by {@code santa-batch audit}. Runs exported by a version without the
 * table have no row. Portable between H2 and PostgreSQL.
 */
public final class RunSummaryStore {

    private static final String COLUMNS = "status, items, changed, carried_over, shipped, held, first_pass_rate,"
            + " patterns_new, patterns_seen_again, model_calls, estimated_cost, bound, audited, escape_rate";

    private final JdbcTemplate jdbc;

    public RunSummaryStore(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** Records (or replaces) the run's figures, in the caller's transaction. */
    public void save(long runPk, RunSummary s) {
        Object[] values = {s.status(), s.items(), s.changed(), s.carriedOver(), s.shipped(), s.held(), s.firstPassRate(),
                s.patternsNew(), s.patternsSeenAgain(), s.modelCalls(), s.estimatedCost(), s.bound(), s.audited(),
                s.escapeRate()};
        Object[] update = new Object[values.length + 1];
        System.arraycopy(values, 0, update, 0, values.length);
        update[values.length] = runPk;
        int n = jdbc.update("UPDATE sb_run_summary SET status = ?, items = ?, changed = ?, carried_over = ?, shipped = ?,"
                + " held = ?, first_pass_rate = ?, patterns_new = ?, patterns_seen_again = ?, model_calls = ?,"
                + " estimated_cost = ?, bound = ?, audited = ?, escape_rate = ? WHERE run_pk = ?", update);
        if (n == 0) {
            Object[] insert = new Object[values.length + 1];
            insert[0] = runPk;
            System.arraycopy(values, 0, insert, 1, values.length);
            jdbc.update("INSERT INTO sb_run_summary (run_pk, " + COLUMNS + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    insert);
        }
    }

    /**
     * The spot-check's figures, after {@code santa-batch audit}: how many shipped items were audited
     * and the escape rate ({@code null} while none). A run without a row (exported by an earlier
     * version) is left without one.
     */
    public void saveAudit(long runPk, long audited, @Nullable Double escapeRate) {
        jdbc.update("UPDATE sb_run_summary SET audited = ?, escape_rate = ? WHERE run_pk = ?", audited, escapeRate, runPk);
    }

    /**
     * The job's latest {@code limit} runs created before {@code beforeRunPk} whose export finished and
     * that measured a first-pass rate, newest first.
     */
    public List<Long> measuredRuns(String jobName, long beforeRunPk, int limit) {
        if (limit <= 0) {
            return List.of();
        }
        return jdbc.queryForList("SELECT r.run_pk FROM sb_run r JOIN sb_run_summary s ON s.run_pk = r.run_pk"
                + " WHERE r.job_name = ? AND r.run_pk < ? AND r.exported_at IS NOT NULL AND s.first_pass_rate IS NOT NULL"
                + " ORDER BY r.run_pk DESC LIMIT ?", Long.class, jobName, beforeRunPk, limit);
    }

    /** The figures of the given runs that have them, by run. */
    public Map<Long, RunSummary> load(List<Long> runPks) {
        Map<Long, RunSummary> out = new HashMap<>();
        if (runPks.isEmpty()) {
            return out;
        }
        new NamedParameterJdbcTemplate(jdbc).query("SELECT run_pk, " + COLUMNS + " FROM sb_run_summary WHERE run_pk IN (:runs)",
                new MapSqlParameterSource("runs", new ArrayList<>(runPks)), rs -> {
                    out.put(rs.getLong(1), new RunSummary(rs.getString(2), rs.getLong(3), whole(rs, 4), rs.getLong(5),
                            rs.getLong(6), rs.getLong(7), number(rs, 8), rs.getInt(9), rs.getInt(10), rs.getLong(11),
                            rs.getDouble(12), number(rs, 13), rs.getLong(14), number(rs, 15)));
                });
        return out;
    }

    private static @Nullable Long whole(ResultSet rs, int column) throws SQLException {
        long v = rs.getLong(column);
        return rs.wasNull() ? null : v;
    }

    private static @Nullable Double number(ResultSet rs, int column) throws SQLException {
        double v = rs.getDouble(column);
        return rs.wasNull() ? null : v;
    }
}
