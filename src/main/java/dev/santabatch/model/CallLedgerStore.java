package dev.santabatch.model;

import java.sql.Timestamp;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The run's {@link CallLedger} in table {@code sb_call_ledger}: one counter row per run, round and
 * role, updated atomically ({@code calls = calls + 1}) in its own transaction, committed before the
 * governor sends the attempt, whatever transaction the calling thread is in (a chunk's is
 * suspended, not joined); an answered attempt's usage and its kept answer ({@code sb_answer}) in
 * one transaction. Portable between H2 and PostgreSQL. One process writes a run at a time
 * (the run's lock), so each row is created once, under this object's lock and committed before it
 * is updated, without racing another writer.
 */
final class CallLedgerStore implements CallLedger {

    private final JdbcTemplate jdbc;
    private final TransactionTemplate own;
    private final long runPk;
    /** Rows known to exist ("round\nrole"). */
    private final java.util.Set<String> rows = java.util.concurrent.ConcurrentHashMap.newKeySet();

    CallLedgerStore(JdbcTemplate jdbc, long runPk) {
        this.jdbc = Objects.requireNonNull(jdbc, "jdbc");
        this.runPk = runPk;
        this.own = new TransactionTemplate(new DataSourceTransactionManager(
                Objects.requireNonNull(jdbc.getDataSource(), "dataSource")));
        own.setPropagationBehavior(TransactionDefinition.PROPAGATION_REQUIRES_NEW);
    }

    @Override
    public Map<Integer, Map<String, CallCounts>> recorded() {
        Map<Integer, Map<String, CallCounts>> out = new HashMap<>();
        jdbc.query("SELECT round_no, role, calls, input_tokens, output_tokens, cost FROM sb_call_ledger WHERE run_pk = ?",
                rs -> {
                    out.computeIfAbsent(rs.getInt(1), k -> new HashMap<>()).put(rs.getString(2),
                            new CallCounts(rs.getLong(3), 0, 0, rs.getLong(4), rs.getLong(5), rs.getDouble(6)));
                }, runPk);
        return out;
    }

    @Override
    public void reserve(int round, String role) {
        ensureRow(round, role);
        own.executeWithoutResult(status -> update(round, role, 1, 0, 0, 0));
    }

    @Override
    public void answered(int round, String role, long inputTokens, long outputTokens, double cost, @Nullable Kept kept) {
        ensureRow(round, role);
        own.executeWithoutResult(status -> {
            update(round, role, 0, inputTokens, outputTokens, cost);
            if (kept != null && answer(kept.key(), kept.ordinal()).isEmpty()) {
                ModelAnswer a = kept.answer();
                jdbc.update("INSERT INTO sb_answer (run_pk, question, ordinal, answer, truncated, input_tokens, output_tokens)"
                        + " VALUES (?, ?, ?, ?, ?, ?, ?)", runPk, kept.key(), kept.ordinal(), a.text(), a.truncated(),
                        a.inputTokens(), a.outputTokens());
            }
        });
    }

    @Override
    public void forgetAnswers() {
        own.executeWithoutResult(status -> jdbc.update("DELETE FROM sb_answer WHERE run_pk = ?", runPk));
    }

    @Override
    public Optional<ModelAnswer> answer(String key, int ordinal) {
        return jdbc.query("SELECT answer, truncated, input_tokens, output_tokens FROM sb_answer"
                        + " WHERE run_pk = ? AND question = ? AND ordinal = ?",
                (rs, n) -> new ModelAnswer(rs.getString(1), rs.getBoolean(2), rs.getLong(3), rs.getLong(4)),
                runPk, key, ordinal).stream().findFirst();
    }

    /** Creates the counter row once, committed before any thread updates it. */
    private void ensureRow(int round, String role) {
        String key = round + "\n" + role;
        if (rows.contains(key)) {
            return;
        }
        synchronized (this) {
            if (rows.contains(key)) {
                return;
            }
            own.executeWithoutResult(status -> {
                Integer n = jdbc.queryForObject("SELECT COUNT(*) FROM sb_call_ledger WHERE run_pk = ? AND round_no = ? AND role = ?",
                        Integer.class, runPk, round, role);
                if (n == null || n == 0) {
                    jdbc.update("INSERT INTO sb_call_ledger (run_pk, round_no, role, calls, input_tokens, output_tokens, cost,"
                            + " updated_at) VALUES (?, ?, ?, 0, 0, 0, 0, ?)", runPk, round, role, Timestamp.from(Instant.now()));
                }
            });
            rows.add(key);
        }
    }

    private void update(int round, String role, long calls, long in, long out, double cost) {
        jdbc.update("UPDATE sb_call_ledger SET calls = calls + ?, input_tokens = input_tokens + ?,"
                + " output_tokens = output_tokens + ?, cost = cost + ?, updated_at = ? WHERE run_pk = ? AND round_no = ? AND role = ?",
                calls, in, out, cost, Timestamp.from(Instant.now()), runPk, round, role);
    }
}
