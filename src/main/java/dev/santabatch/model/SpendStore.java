package dev.santabatch.model;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Model spend stored with the run, as the call governor counts it (calls, retries, errors by kind,
 * tokens and cost, per role and per round), so that a resumed run counts it cumulatively (written
 * with every chunk; the calls, tokens and cost a killed execution spent after its last chunk are in
 * the call ledger, {@link #ledger(long)}, which the governor writes before every attempt); the
 * budget stop that ended the last execution, if any; and the batch fix's matcher economics per
 * pattern. Portable between H2 and PostgreSQL. Writers hold the run's lock, so the
 * update-then-insert upsert does not race.
 */
public final class SpendStore {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final JdbcTemplate jdbc;
    private final TransactionTemplate tx;

    public SpendStore(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
        this.tx = new TransactionTemplate(new DataSourceTransactionManager(
                Objects.requireNonNull(jdbc.getDataSource(), "dataSource")));
    }

    /**
     * The durable record of run {@code runPk}'s model calls, which its governor reserves every HTTP
     * attempt in before sending it (so that spend survives a killed process).
     */
    public dev.santabatch.model.CallLedger ledger(long runPk) {
        return new CallLedgerStore(jdbc, runPk);
    }

    /**
     * Forgets the answers the call ledger kept for run {@code runPk}: called when an execution ends
     * other than STOPPED. Kept answers serve the resume of a killed (or stopped) execution only: a
     * failed one is restarted with fresh calls, and a completed one needs none.
     */
    public void forgetAnswers(long runPk) {
        jdbc.update("DELETE FROM sb_answer WHERE run_pk = ?", runPk);
    }

    /** The spend stored with the run; {@link SpendSnapshot#NONE} for a new run. */
    public SpendSnapshot load(long runPk) {
        List<String> rows = jdbc.queryForList("SELECT snapshot FROM sb_spend WHERE run_pk = ?", String.class, runPk);
        if (rows.isEmpty()) {
            return SpendSnapshot.NONE;
        }
        try {
            return JSON.readValue(rows.get(0), SpendSnapshot.class);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("the stored spend of run " + runPk + " is unreadable: " + e.getOriginalMessage(), e);
        }
    }

    /**
     * The spend a report of run {@code runPk} counts: the stored snapshot, raised to what the call
     * ledger holds where it holds more (attempts reserved after the last save: the calls in flight
     * when an execution was stopped or killed). At least every call the endpoint received.
     */
    public SpendSnapshot counted(long runPk) {
        return dev.santabatch.model.CallGovernor.counted(load(runPk), ledger(runPk));
    }

    public synchronized void save(long runPk, SpendSnapshot snapshot) {
        String json;
        try {
            json = JSON.writeValueAsString(snapshot);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
        Timestamp now = Timestamp.from(Instant.now());
        if (jdbc.update("UPDATE sb_spend SET snapshot = ?, updated_at = ? WHERE run_pk = ?", json, now, runPk) == 0) {
            jdbc.update("INSERT INTO sb_spend (run_pk, snapshot, updated_at) VALUES (?, ?, ?)", runPk, json, now);
        }
    }

    /** Records why the run stopped for a budget (the run's spend row is written first). */
    public synchronized void markBudgetStop(long runPk, SpendSnapshot snapshot, String why) {
        save(runPk, snapshot);
        jdbc.update("UPDATE sb_spend SET budget_stop = ? WHERE run_pk = ?", why, runPk);
    }

    public Optional<String> budgetStop(long runPk) {
        return jdbc.queryForList("SELECT budget_stop FROM sb_spend WHERE run_pk = ?", String.class, runPk).stream()
                .filter(s -> s != null).findFirst();
    }

    /** A new execution starts: the last one's budget stop no longer holds. */
    public void clearBudgetStop(long runPk) {
        jdbc.update("UPDATE sb_spend SET budget_stop = NULL WHERE run_pk = ?", runPk);
    }

    // ---------------------------------------------------------------- matcher economics

    /**
     * One pattern's batch-fix matching in one round.
     *
     * @param found the candidates the narrowing found, before the {@code max-candidate-share} cap
     * @param method how they were found ({@code meaning} or {@code meaning+offline-checks}: {@link dev.santabatch.batchfix.PatternNarrowing.Narrowed#method()})
     * @param offlineChecks the offline reviewers' per-item checks the narrowing ran (no model calls)
     */
    public record MatchStat(int round, int patternNo, long eligible, long candidates, long calls, long found, String method,
            long offlineChecks) {}

    /** What the narrowing stores of one pattern: the eligible items, the candidates kept and found, how. */
    public record NarrowingStat(long eligible, long candidates, long found, String method, long offlineChecks) {}

    public void addMatchCalls(long runPk, int round, int patternNo, long calls) {
        jdbc.update("UPDATE sb_match_stat SET calls = calls + ? WHERE run_pk = ? AND round_no = ? AND pattern_no = ?",
                calls, runPk, round, patternNo);
    }

    public List<MatchStat> matchStats(long runPk) {
        return jdbc.query("SELECT round_no, pattern_no, eligible, candidates, calls, found, method, offline_checks"
                        + " FROM sb_match_stat WHERE run_pk = ? ORDER BY round_no, pattern_no",
                (rs, n) -> new MatchStat(rs.getInt(1), rs.getInt(2), rs.getLong(3), rs.getLong(4), rs.getLong(5),
                        rs.getLong(6), rs.getString(7), rs.getLong(8)), runPk);
    }

    // ---------------------------------------------------------------- matcher candidates

    /** An item the narrowing kept for the model matcher, with the patterns it may show. */
    public record Candidate(String itemId, long recordIndex, List<Integer> patterns) {}

    /**
     * True when round {@code round}'s narrowed list is complete: its completion row is there. The
     * row is written last, in the transaction that writes the list, so a list without it is a
     * leftover of an interrupted write and must not be reused.
     */
    public boolean narrowed(long runPk, int round) {
        Integer n = jdbc.queryForObject("SELECT COUNT(*) FROM sb_match_narrowed WHERE run_pk = ? AND round_no = ?",
                Integer.class, runPk, round);
        return n != null && n > 0;
    }

    /**
     * Stores round {@code round}'s narrowed list in one transaction: any leftover of an interrupted
     * earlier write is deleted, then the candidates, each pattern's eligible and candidate counts
     * ({@code stats}) and, last, the completion row. Either all of it is stored or none of it.
     */
    public void saveNarrowing(long runPk, int round, List<Candidate> candidates, Map<Integer, NarrowingStat> stats) {
        tx.executeWithoutResult(status -> {
            jdbc.update("DELETE FROM sb_match_candidate WHERE run_pk = ? AND round_no = ?", runPk, round);
            jdbc.update("DELETE FROM sb_match_stat WHERE run_pk = ? AND round_no = ?", runPk, round);
            insertCandidates(runPk, round, candidates);
            stats.forEach((p, s) -> jdbc.update("INSERT INTO sb_match_stat (run_pk, round_no, pattern_no, eligible,"
                    + " candidates, calls, found, method, offline_checks) VALUES (?, ?, ?, ?, ?, 0, ?, ?, ?)", runPk, round, p,
                    s.eligible(), s.candidates(), s.found(), s.method(), s.offlineChecks()));
            jdbc.update("INSERT INTO sb_match_narrowed (run_pk, round_no, candidates) VALUES (?, ?, ?)",
                    runPk, round, candidates.size());
        });
    }

    /** Inserts candidate rows as they are (no completion row): use {@link #saveNarrowing}. */
    void insertCandidates(long runPk, int round, List<Candidate> candidates) {
        jdbc.batchUpdate("INSERT INTO sb_match_candidate (run_pk, round_no, item_id, record_index, patterns) VALUES (?, ?, ?, ?, ?)",
                candidates, 500, (ps, c) -> {
                    ps.setLong(1, runPk);
                    ps.setInt(2, round);
                    ps.setString(3, c.itemId());
                    ps.setLong(4, c.recordIndex());
                    ps.setString(5, String.join(",", c.patterns().stream().map(String::valueOf).toList()));
                });
    }

    /** Candidates not yet done, after {@code afterIndex} in catalog order. */
    public List<Candidate> pendingCandidates(long runPk, int round, long afterIndex, int limit) {
        return jdbc.query("SELECT item_id, record_index, patterns FROM sb_match_candidate WHERE run_pk = ? AND round_no = ?"
                        + " AND state IS NULL AND record_index > ? ORDER BY record_index LIMIT " + limit,
                (rs, n) -> new Candidate(rs.getString(1), rs.getLong(2),
                        java.util.Arrays.stream(rs.getString(3).split(",")).map(Integer::valueOf).toList()),
                runPk, round, afterIndex);
    }

    public void candidateDone(long runPk, int round, String itemId, String state) {
        jdbc.update("UPDATE sb_match_candidate SET state = ? WHERE run_pk = ? AND round_no = ? AND item_id = ?",
                state, runPk, round, itemId);
    }
}
