package dev.santabatch.carry;

import dev.santabatch.persistence.ItemState;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;

/**
 * Carry-over's reads and writes of the store: the columns {@code dev.santabatch.persistence.Store} adds to
 * {@code sb_item}, {@code sb_run} and {@code sb_fingerprint}, and the counts of items judged afresh
 * by reason ({@code sb_carry_count}, added in the pre-pass chunk's transaction, so exact across
 * restarts). Portable between H2 and PostgreSQL.
 */
public final class CarryStore {

    private final JdbcTemplate jdbc;
    private final NamedParameterJdbcTemplate named;

    public CarryStore(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
        this.named = new NamedParameterJdbcTemplate(jdbc);
    }

    // ---------------------------------------------------------------- runs

    /**
     * What a run compares and looks at, as it started.
     *
     * @param verification its verification fingerprint; {@code null} for a run started before it was stored
     * @param prompts its reviewer prompt templates' digest
     * @param sources the earlier runs it carries from, newest first; {@code null}: not chosen (a run
     *     started before carry-over)
     */
    public record Start(@Nullable String verification, @Nullable String prompts, @Nullable List<Long> sources) {}

    public Optional<Start> start(long runPk) {
        return jdbc.query("SELECT verification_sha256, prompts_sha256, carry_sources FROM sb_fingerprint WHERE run_pk = ?",
                        (rs, n) -> new Start(rs.getString(1), rs.getString(2), sources(rs.getString(3))), runPk)
                .stream()
                .findFirst();
    }

    private static @Nullable List<Long> sources(@Nullable String text) {
        if (text == null) {
            return null;
        }
        List<Long> out = new ArrayList<>();
        for (String s : text.split(",")) {
            if (!s.isBlank()) {
                out.add(Long.parseLong(s.strip()));
            }
        }
        return out;
    }

    /**
     * An earlier run carry-over may draw on.
     *
     * @param exportedStatus the status of its last export ({@code clean}, {@code not-clean}, ...);
     *     {@code null}: not exported (or resumed since)
     */
    public record SourceRun(long runPk, String runId, @Nullable String verification, @Nullable String prompts,
            @Nullable String exportedStatus) {}

    /** The given runs, in the given order (runs no longer stored are left out). */
    public List<SourceRun> runs(List<Long> runPks) {
        if (runPks.isEmpty()) {
            return List.of();
        }
        Map<Long, SourceRun> byPk = new HashMap<>();
        named.query("SELECT r.run_pk, r.run_id, f.verification_sha256, f.prompts_sha256, r.exported_status FROM sb_run r"
                        + " LEFT JOIN sb_fingerprint f ON f.run_pk = r.run_pk WHERE r.run_pk IN (:runs)",
                new MapSqlParameterSource("runs", runPks),
                rs -> {
                    byPk.put(rs.getLong(1), new SourceRun(rs.getLong(1), rs.getString(2), rs.getString(3), rs.getString(4),
                            rs.getString(5)));
                });
        return runPks.stream().map(byPk::get).filter(java.util.Objects::nonNull).toList();
    }

    /**
     * The runs of {@code jobName} created before {@code beforeRunPk} whose export finished, newest
     * first, at most {@code limit}.
     */
    public List<Long> exportedRuns(String jobName, long beforeRunPk, int limit) {
        if (limit <= 0) {
            return List.of();
        }
        return jdbc.queryForList("SELECT run_pk FROM sb_run WHERE job_name = ? AND run_pk < ? AND exported_at IS NOT NULL"
                + " ORDER BY run_pk DESC LIMIT ?", Long.class, jobName, beforeRunPk, limit);
    }

    // ---------------------------------------------------------------- items

    /** The input digests of the given items of a run, by item id (items stored without one are left out). */
    public Map<String, String> digests(long runPk, Collection<String> ids) {
        Map<String, String> out = new HashMap<>();
        if (ids.isEmpty()) {
            return out;
        }
        named.query("SELECT item_id, input_sha256 FROM sb_item WHERE item_id IN (:ids) AND run_pk = :run"
                        + " AND input_sha256 IS NOT NULL",
                new MapSqlParameterSource("ids", new ArrayList<>(ids)).addValue("run", runPk),
                rs -> {
                    out.put(rs.getString(1), rs.getString(2));
                });
        return out;
    }

    /**
     * An item as an earlier run left it.
     *
     * @param carry the kind that run carried it as; {@code null}: that run judged it itself
     * @param carriedRuns the runs in a row it had been carried when that run carried it
     */
    public record SourceItem(String itemId, long runPk, @Nullable String inputSha256, String state, int currentRev,
            @Nullable String carry, int carriedRuns) {}

    /** The given items as the given runs left them (every run's row of every id). */
    public List<SourceItem> sourceItems(List<Long> runPks, Collection<String> ids) {
        if (runPks.isEmpty() || ids.isEmpty()) {
            return List.of();
        }
        return named.query("SELECT item_id, run_pk, input_sha256, state, current_rev, carry, carried_runs FROM sb_item"
                        + " WHERE item_id IN (:ids) AND run_pk IN (:runs)",
                new MapSqlParameterSource("ids", new ArrayList<>(ids)).addValue("runs", runPks),
                (rs, n) -> new SourceItem(rs.getString(1), rs.getLong(2), rs.getString(3), rs.getString(4), rs.getInt(5),
                        rs.getString(6), rs.getInt(7)));
    }

    /** The content of the given revisions of a run's items, by item id. */
    public Map<String, String> contents(long runPk, Map<String, Integer> revisionByItem) {
        Map<String, String> out = new HashMap<>();
        if (revisionByItem.isEmpty()) {
            return out;
        }
        named.query("SELECT item_id, rev, content FROM sb_revision WHERE item_id IN (:ids) AND run_pk = :run",
                new MapSqlParameterSource("ids", new ArrayList<>(revisionByItem.keySet())).addValue("run", runPk),
                rs -> {
                    if (revisionByItem.get(rs.getString(1)) == rs.getInt(2)) {
                        out.put(rs.getString(1), rs.getString(3));
                    }
                });
        return out;
    }

    /** Why a run held the given items, by item id. */
    public Map<String, Carried.Held> escalations(long runPk, Collection<String> ids) {
        Map<String, Carried.Held> out = new HashMap<>();
        if (ids.isEmpty()) {
            return out;
        }
        named.query("SELECT item_id, reason, pattern, last_attempt, issues FROM sb_escalation WHERE run_pk = :run"
                        + " AND item_id IN (:ids)",
                new MapSqlParameterSource("ids", new ArrayList<>(ids)).addValue("run", runPk),
                rs -> {
                    String issues = rs.getString(5);
                    out.put(rs.getString(1), new Carried.Held(rs.getString(2), rs.getString(3), rs.getString(4),
                            issues == null || issues.isEmpty() ? List.of() : List.of(issues.split("\n"))));
                });
        return out;
    }

    /**
     * An item a run carried: its kind, the run it came from, the runs in a row it has been carried,
     * and the text it is carried with.
     */
    public record Mark(String itemId, CarryKind kind, long fromRunPk, int runs, String text) {}

    /**
     * Records the carried items of a run (in the caller's transaction); a NICE one becomes NICE, a
     * covered one gets the digest of its text ({@code covered_sha256}: the covered stratum's members).
     */
    public void mark(long runPk, List<Mark> marks) {
        if (marks.isEmpty()) {
            return;
        }
        jdbc.batchUpdate("UPDATE sb_item SET carry = ?, carried_from = ?, carried_runs = ?, covered_sha256 = ?,"
                        + " state = CASE WHEN ? = 'nice' THEN '" + ItemState.NICE + "' ELSE state END WHERE item_id = ? AND run_pk = ?",
                marks, marks.size(), (ps, m) -> {
                    ps.setString(1, m.kind().key());
                    ps.setLong(2, m.fromRunPk());
                    ps.setInt(3, m.runs());
                    ps.setString(4, m.kind() == CarryKind.COVERED ? textDigest(m.text()) : null);
                    ps.setString(5, m.kind().key());
                    ps.setString(6, m.itemId());
                    ps.setLong(7, runPk);
                });
    }

    /** The digest a covered item's carried text is stored with ({@code covered_sha256}): SHA-256, hex. */
    public static String textDigest(String text) {
        try {
            return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256")
                    .digest(text.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The run's carried items, each with its input row ({@code sb_item.fields}), in input order. */
    public void forEachCarried(long runPk, java.util.function.BiConsumer<String, String> action) {
        jdbc.query("SELECT item_id, fields FROM sb_item WHERE run_pk = ? AND carry IS NOT NULL ORDER BY run_pk, record_index",
                rs -> {
                    action.accept(rs.getString(1), rs.getString(2));
                },
                runPk);
    }

    /** Adds to the counts of items judged afresh, by reason (in the caller's transaction). */
    public void addMisses(long runPk, Map<CarryMiss, Long> misses) {
        misses.forEach((miss, n) -> add(runPk, miss.key(), n));
    }

    /**
     * Adds to the counts of the run's items a person's decision changed (in the caller's transaction):
     * those carried NICE as a person approved them where they were held, and those of the covered
     * kind judged afresh as a person found them defective (failures of the covered stratum).
     */
    public void addDecided(long runPk, long approved, long coveredDefective) {
        add(runPk, APPROVED, approved);
        add(runPk, COVERED_DEFECTIVE, coveredDefective);
    }

    private void add(long runPk, String outcome, long n) {
        if (n == 0) {
            return;
        }
        int updated = jdbc.update("UPDATE sb_carry_count SET items = items + ? WHERE run_pk = ? AND outcome = ?",
                n, runPk, outcome);
        if (updated == 0) {
            jdbc.update("INSERT INTO sb_carry_count (run_pk, outcome, items) VALUES (?, ?, ?)", runPk, outcome, n);
        }
    }

    /** Of the run's items, those carried NICE as a person approved them where they were held ({@link #addDecided}). */
    public long approved(long runPk) {
        return count(runPk, APPROVED);
    }

    /**
     * Of the run's items, those of the covered kind a person found defective in their source run
     * ({@link #addDecided}): failures of its covered stratum.
     */
    public long coveredDefective(long runPk) {
        return count(runPk, COVERED_DEFECTIVE);
    }

    private long count(long runPk, String outcome) {
        return jdbc.queryForList("SELECT items FROM sb_carry_count WHERE run_pk = ? AND outcome = ?", Long.class, runPk, outcome)
                .stream().findFirst().orElse(0L);
    }

    /** {@code sb_carry_count}'s outcome of the items a person approved where they were held. */
    private static final String APPROVED = "person-approved";

    /** {@code sb_carry_count}'s outcome of the covered items a person found defective. */
    private static final String COVERED_DEFECTIVE = "person-covered-defective";

    // ---------------------------------------------------------------- a person's decisions

    /** A person's verdict ({@code sb_audit.verdict}): the item is fine (a held one may ship). */
    public static final String OK = "ok";

    /** A person's verdict ({@code sb_audit.verdict}): the item is defective. */
    public static final String DEFECTIVE = "defective";

    /**
     * An item a run carried and left as it carried it: in its carried state (not reviewed there), its
     * text not rewritten by a round. A person's verdict on it in the run it came from still holds.
     */
    private static final String UNTOUCHED = "i.carry IS NOT NULL AND i.state = CASE i.carry WHEN 'nice' THEN '" + ItemState.NICE
            + "' WHEN 'held' THEN '" + ItemState.ESCALATED + "' ELSE '" + ItemState.ACTIVE + "' END"
            + " AND NOT EXISTS (SELECT 1 FROM sb_revision v"
            + " WHERE v.item_id = i.item_id AND v.run_pk = i.run_pk AND v.round_no > 0)";

    /**
     * A person's latest verdict ({@code sb_audit}, handed back with {@code santa-batch audit}) on each
     * given item: the one stored with the given run or, when that run carried the item and left it
     * as it carried it, with the run it was carried from, and so on back. Items without one are left out.
     *
     * @param runByItem by item id, the run its carry-over comes from
     */
    public Map<String, String> verdicts(Map<String, Long> runByItem) {
        Map<String, String> out = new HashMap<>();
        Map<String, Long> at = runByItem;
        while (!at.isEmpty()) {
            Map<Long, List<String>> byRun = new HashMap<>();
            at.forEach((id, run) -> byRun.computeIfAbsent(run, k -> new ArrayList<>()).add(id));
            Map<String, Long> older = new HashMap<>();
            byRun.forEach((run, ids) -> named.query("SELECT i.item_id, a.verdict, i.carried_from, CASE WHEN " + UNTOUCHED
                            + " THEN 1 ELSE 0 END FROM sb_item i LEFT JOIN sb_audit a ON a.run_pk = i.run_pk"
                            + " AND a.item_id = i.item_id WHERE i.run_pk = :run AND i.item_id IN (:ids)",
                    new MapSqlParameterSource("ids", ids).addValue("run", run),
                    rs -> {
                        Long from = rs.getObject(3, Long.class);
                        if (rs.getString(2) != null) {
                            out.put(rs.getString(1), rs.getString(2));
                        } else if (rs.getInt(4) == 1 && from != null && from < run) {
                            older.put(rs.getString(1), from);
                        }
                    }));
            at = older;
        }
        return out;
    }

    /** Items judged afresh though an earlier run judged them, by reason, in {@link CarryMiss} order. */
    public Map<String, Long> misses(long runPk) {
        Map<String, Long> stored = new HashMap<>();
        jdbc.query("SELECT outcome, items FROM sb_carry_count WHERE run_pk = ?", rs -> {
            stored.put(rs.getString(1), rs.getLong(2));
        }, runPk);
        Map<String, Long> out = new LinkedHashMap<>();
        for (CarryMiss m : CarryMiss.values()) {
            out.put(m.key(), stored.getOrDefault(m.key(), 0L));
        }
        return out;
    }

    /** The run's carried items: by source run, the count per kind (in {@link CarryKind} order). */
    public Map<Long, Map<String, Long>> carried(long runPk) {
        Map<Long, Map<String, Long>> out = new TreeMap<>(java.util.Comparator.reverseOrder());
        jdbc.query("SELECT carried_from, carry, COUNT(*) FROM sb_item WHERE run_pk = ? AND carry IS NOT NULL"
                        + " GROUP BY carried_from, carry",
                rs -> {
                    Map<String, Long> kinds = out.computeIfAbsent(rs.getLong(1), k -> {
                        Map<String, Long> m = new LinkedHashMap<>();
                        for (CarryKind kind : CarryKind.values()) {
                            m.put(kind.key(), 0L);
                        }
                        return m;
                    });
                    kinds.put(rs.getString(2), rs.getLong(3));
                },
                runPk);
        return out;
    }
}
