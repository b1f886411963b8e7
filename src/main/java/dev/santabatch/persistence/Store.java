package dev.santabatch.persistence;

import static dev.santabatch.persistence.ItemState.ACTIVE;
import static dev.santabatch.persistence.ItemState.ESCALATED;

import dev.santabatch.review.FixExample;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;

/**
 * The project's own tables beside Spring Batch's job repository: runs (with their lock), items,
 * revisions and rejects. Nothing is ever deleted by a run. Items are keyed (item_id, run_pk) so
 * that the duplicate-id check of a chunk, an IN list on item_id, is an index lookup. The SQL is portable between H2 and
 * PostgreSQL.
 */
public class Store {

    private final JdbcTemplate jdbc;
    private final NamedParameterJdbcTemplate named;

    public Store(DataSource dataSource) {
        this.jdbc = new JdbcTemplate(dataSource);
        this.named = new NamedParameterJdbcTemplate(jdbc);
    }

    public JdbcTemplate jdbc() {
        return jdbc;
    }

    // ---------------------------------------------------------------- runs

    private static final String RUN_COLUMNS = "SELECT run_pk, job_name, run_id, job_file, input_path, out_dir, seed,"
            + " created_at, lock_owner, heartbeat_at FROM sb_run";

    private static final RowMapper<RunRow> RUN = (rs, i) -> new RunRow(rs.getLong(1), rs.getString(2), rs.getString(3),
            rs.getString(4), rs.getString(5), rs.getString(6), rs.getLong(7), rs.getTimestamp(8).toInstant(), rs.getString(9),
            Optional.ofNullable(rs.getTimestamp(10)).map(Timestamp::toInstant).orElse(null));

    public Optional<RunRow> findRun(String jobName, String runId) {
        return jdbc.query(RUN_COLUMNS + " WHERE job_name = ? AND run_id = ?", RUN, jobName, runId).stream().findFirst();
    }

    /** The run row with key {@code runPk}. */
    public Optional<RunRow> findRun(long runPk) {
        return jdbc.query(RUN_COLUMNS + " WHERE run_pk = ?", RUN, runPk).stream().findFirst();
    }

    /**
     * Takes the job's lock for run {@code runPk} if it is free or held by {@code expectedOwner}
     * (compare-and-set): one live run per job.
     *
     * @return true if this process now holds it
     */
    public boolean takeJobLock(String jobName, long runPk, @Nullable String expectedOwner, String newOwner) {
        try {
            jdbc.update("INSERT INTO sb_job_lock (job_name, run_pk, lock_owner) VALUES (?, ?, NULL)", jobName, runPk);
        } catch (org.springframework.dao.DuplicateKeyException exists) {
            // the job has a lock row: compare-and-set below
        }
        int n = expectedOwner == null
                ? jdbc.update("UPDATE sb_job_lock SET run_pk = ?, lock_owner = ? WHERE job_name = ? AND lock_owner IS NULL",
                        runPk, newOwner, jobName)
                : jdbc.update("UPDATE sb_job_lock SET run_pk = ?, lock_owner = ? WHERE job_name = ? AND lock_owner = ?",
                        runPk, newOwner, jobName, expectedOwner);
        return n == 1;
    }

    /** The job's lock: the run holding it and its owner; empty when the job has no lock row. */
    public Optional<JobLock> jobLock(String jobName) {
        return jdbc.query("SELECT run_pk, lock_owner FROM sb_job_lock WHERE job_name = ?",
                        (rs, n) -> new JobLock(rs.getLong(1), rs.getString(2)), jobName)
                .stream()
                .findFirst();
    }

    public void releaseJobLock(String jobName, String owner) {
        jdbc.update("UPDATE sb_job_lock SET lock_owner = NULL WHERE job_name = ? AND lock_owner = ?", jobName, owner);
    }

    /** @param owner the holder's owner string; {@code null}: free */
    public record JobLock(long runPk, @Nullable String owner) {}

    /** Records that the run's export finished, with the status it exported. */
    public void markExported(long runPk, String status) {
        jdbc.update("UPDATE sb_run SET exported_at = ?, exported_status = ? WHERE run_pk = ?",
                Timestamp.from(Instant.now()), status, runPk);
    }

    /** A resumed run is no run to carry from until it exports again. */
    public void clearExported(long runPk) {
        jdbc.update("UPDATE sb_run SET exported_at = NULL, exported_status = NULL WHERE run_pk = ?", runPk);
    }

    /** Deletes a run row this process created and holds the lock of, before any of the run's work was stored. */
    public void deleteRun(long runPk, String owner) {
        jdbc.update("DELETE FROM sb_run WHERE run_pk = ? AND lock_owner = ?", runPk, owner);
    }

    /** Creates the run row unless it exists; returns the row as stored (first writer wins). */
    public RunRow createRunIfAbsent(RunRow wanted) {
        Optional<RunRow> existing = findRun(wanted.jobName(), wanted.runId());
        if (existing.isPresent()) {
            return existing.get();
        }
        try {
            jdbc.update("INSERT INTO sb_run (job_name, run_id, job_file, input_path, out_dir, seed, created_at)"
                            + " VALUES (?, ?, ?, ?, ?, ?, ?)", wanted.jobName(), wanted.runId(), wanted.jobFile(),
                    wanted.inputPath(), wanted.outDir(), wanted.seed(), Timestamp.from(wanted.createdAt()));
        } catch (org.springframework.dao.DuplicateKeyException raced) {
            // another process created it first: use theirs
        }
        return findRun(wanted.jobName(), wanted.runId()).orElseThrow();
    }

    /**
     * Takes the run's lock if it is free or held by {@code expectedOwner} (compare-and-set).
     *
     * @return true if this process now holds the lock
     */
    public boolean takeLock(long runPk, @Nullable String expectedOwner, String newOwner) {
        Timestamp now = Timestamp.from(Instant.now());
        int n = expectedOwner == null
                ? jdbc.update("UPDATE sb_run SET lock_owner = ?, heartbeat_at = ? WHERE run_pk = ? AND lock_owner IS NULL",
                        newOwner, now, runPk)
                : jdbc.update("UPDATE sb_run SET lock_owner = ?, heartbeat_at = ? WHERE run_pk = ? AND lock_owner = ?",
                        newOwner, now, runPk, expectedOwner);
        return n == 1;
    }

    public boolean heartbeat(long runPk, String owner) {
        return jdbc.update("UPDATE sb_run SET heartbeat_at = ? WHERE run_pk = ? AND lock_owner = ?",
                Timestamp.from(Instant.now()), runPk, owner) == 1;
    }

    /** Releases the run's lock; its last heartbeat is kept (what {@code status} shows for a run that died after it). */
    public void releaseLock(long runPk, String owner) {
        jdbc.update("UPDATE sb_run SET lock_owner = NULL WHERE run_pk = ? AND lock_owner = ?", runPk, owner);
    }

    // ---------------------------------------------------------------- header

    public void saveHeaderIfAbsent(long runPk, String headerRecord) {
        Integer n = jdbc.queryForObject("SELECT COUNT(*) FROM sb_header WHERE run_pk = ?", Integer.class, runPk);
        if (n == null || n == 0) {
            jdbc.update("INSERT INTO sb_header (run_pk, header) VALUES (?, ?)", runPk, headerRecord);
        }
    }

    public Optional<String> header(long runPk) {
        return jdbc.queryForList("SELECT header FROM sb_header WHERE run_pk = ?", String.class, runPk).stream()
                .findFirst();
    }

    // ---------------------------------------------------------------- items

    /** The first line of each of the given ids already stored for the run. */
    public Map<String, Long> existingIds(long runPk, List<String> ids) {
        Map<String, Long> found = new HashMap<>();
        if (ids.isEmpty()) {
            return found;
        }
        MapSqlParameterSource p = new MapSqlParameterSource().addValue("run", runPk).addValue("ids", ids);
        named.query("SELECT item_id, line FROM sb_item WHERE run_pk = :run AND item_id IN (:ids)", p, rs -> {
            found.put(rs.getString(1), rs.getLong(2));
        });
        return found;
    }

    public void insertItems(long runPk, List<NewItem> items) {
        if (items.isEmpty()) {
            return;
        }
        jdbc.batchUpdate(
                "INSERT INTO sb_item (run_pk, item_id, record_index, line, category, fields, state, current_rev, input_sha256)"
                        + " VALUES (?, ?, ?, ?, ?, ?, '" + ACTIVE + "', 0, ?)",
                items, items.size(), (ps, it) -> {
                    ps.setLong(1, runPk);
                    ps.setString(2, it.id());
                    ps.setLong(3, it.recordIndex());
                    ps.setLong(4, it.line());
                    ps.setString(5, it.category());
                    ps.setString(6, it.fields());
                    ps.setString(7, it.inputSha256());
                });
    }

    public void insertRejects(long runPk, List<RejectRow> rejects) {
        if (rejects.isEmpty()) {
            return;
        }
        jdbc.batchUpdate(
                "INSERT INTO sb_reject (run_pk, line, end_line, reason, raw) VALUES (?, ?, ?, ?, ?)",
                rejects, rejects.size(), (ps, r) -> {
                    ps.setLong(1, runPk);
                    ps.setLong(2, r.line());
                    ps.setLong(3, r.endLine());
                    ps.setString(4, r.reason());
                    ps.setString(5, r.raw());
                });
    }

    public long countItems(long runPk) {
        return count("SELECT COUNT(*) FROM sb_item WHERE run_pk = ?", runPk);
    }

    public long countRejects(long runPk) {
        return count("SELECT COUNT(*) FROM sb_reject WHERE run_pk = ?", runPk);
    }

    /**
     * Streams the run's items in input order with their current content ({@code null} content
     * means the original, unchanged).
     */
    public void forEachItem(long runPk, Consumer<StoredItem> action) {
        long after = -1;
        while (true) {
            List<StoredItem> page = itemsAfter(runPk, after, 2000);
            if (page.isEmpty()) {
                return;
            }
            page.forEach(action);
            after = page.get(page.size() - 1).recordIndex();
        }
    }

    private static final String REJECTS = "SELECT line, end_line, reason, raw FROM sb_reject WHERE run_pk = ? ORDER BY line";

    private static final RowMapper<RejectRow> REJECT =
            (rs, i) -> new RejectRow(rs.getLong(1), rs.getLong(2), rs.getString(3), rs.getString(4));

    public List<RejectRow> rejects(long runPk) {
        return new ArrayList<>(jdbc.query(REJECTS, REJECT, runPk));
    }

    public void forEachReject(long runPk, Consumer<RejectRow> action) {
        jdbc.query(REJECTS, rs -> {
            action.accept(REJECT.mapRow(rs, 0));
        }, runPk);
    }

    // ---------------------------------------------------------------- revisions, escalations, rule counts

    private static final String ITEM_COLUMNS = "SELECT item_id, record_index, line, fields, state, current_rev FROM sb_item";

    // ORDER BY names run_pk too, so that H2 reads the (run_pk, record_index) index in order
    // instead of sorting every later row for each page
    private static final String ITEM_PAGE = ITEM_COLUMNS
            + " WHERE run_pk = ? AND record_index > ? ORDER BY run_pk, record_index LIMIT ?";

    private static final String ITEM_BY_ID = ITEM_COLUMNS + " WHERE item_id = ? AND run_pk = ?";

    /** An item without its content (read from its current revision where it has one). */
    private static final RowMapper<StoredItem> ITEM = (rs, n) -> new StoredItem(
            rs.getString(1), rs.getLong(2), rs.getLong(3), rs.getString(4), rs.getString(5), rs.getInt(6), null);

    /**
     * A page of items in input order after {@code afterIndex}, with their current content. Two
     * index lookups (the page on (run_pk, record_index), then the revised items' contents by
     * item_id) rather than a join, which H2 plans badly over a derived table.
     */
    public List<StoredItem> itemsAfter(long runPk, long afterIndex, int limit) {
        return withContent(runPk, jdbc.query(ITEM_PAGE, ITEM, runPk, afterIndex, limit));
    }

    private List<StoredItem> withContent(long runPk, List<StoredItem> page) {
        Map<String, Integer> revised = new HashMap<>();
        for (StoredItem it : page) {
            if (it.currentRev() > 0) {
                revised.put(it.id(), it.currentRev());
            }
        }
        if (revised.isEmpty()) {
            return page;
        }
        Map<String, String> content = new HashMap<>();
        named.query("SELECT item_id, rev, content FROM sb_revision WHERE item_id IN (:ids) AND run_pk = :run",
                new MapSqlParameterSource().addValue("run", runPk).addValue("ids", new ArrayList<>(revised.keySet())), rs -> {
                    if (revised.get(rs.getString(1)) == rs.getInt(2)) {
                        content.put(rs.getString(1), rs.getString(3));
                    }
                });
        List<StoredItem> out = new ArrayList<>(page.size());
        for (StoredItem it : page) {
            out.add(it.currentRev() > 0 ? it.at(new Revision(it.currentRev(), content.get(it.id()))) : it);
        }
        return out;
    }

    /** An eligible item: ACTIVE, with its category and whether the given round's batch-fix wrote its revision. */
    public record EligibleItem(StoredItem item, @Nullable String category, boolean changedLastRound) {}

    public List<EligibleItem> eligibleAfter(long runPk, long afterIndex, int batchFixRound, int limit) {
        List<String> categories = new ArrayList<>();
        List<StoredItem> page = jdbc.query(
                "SELECT item_id, record_index, line, fields, state, current_rev, category FROM sb_item"
                        + " WHERE run_pk = ? AND record_index > ? AND state = '" + ACTIVE + "' ORDER BY run_pk, record_index LIMIT ?",
                (rs, n) -> {
                    categories.add(rs.getString(7));
                    return ITEM.mapRow(rs, n);
                },
                runPk,
                afterIndex,
                limit);
        Map<String, String> causes = new HashMap<>();
        List<String> revised = page.stream().filter(i -> i.currentRev() > 0).map(StoredItem::id).toList();
        if (!revised.isEmpty() && batchFixRound > 0) {
            named.query(
                    "SELECT item_id, rev, cause, round_no FROM sb_revision WHERE item_id IN (:ids) AND run_pk = :run",
                    new MapSqlParameterSource().addValue("ids", revised).addValue("run", runPk),
                    rs -> {
                        causes.put(rs.getString(1) + "#" + rs.getInt(2), rs.getString(3) + "#" + rs.getInt(4));
                    });
        }
        List<StoredItem> full = withContent(runPk, page);
        List<EligibleItem> out = new ArrayList<>(full.size());
        for (int i = 0; i < full.size(); i++) {
            StoredItem it = full.get(i);
            boolean changed = (Cause.BATCH_FIX.value() + "#" + batchFixRound).equals(causes.get(it.id() + "#" + it.currentRev()));
            out.add(new EligibleItem(it, categories.get(i), changed));
        }
        return out;
    }

    public Map<String, Long> escalationsByCause(long runPk) {
        Map<String, Long> m = new TreeMap<>();
        jdbc.query("SELECT cause, COUNT(*) FROM sb_escalation WHERE run_pk = ? GROUP BY cause", rs -> {
            m.put(rs.getString(1), rs.getLong(2));
        }, runPk);
        return m;
    }

    /** The catalog's and the rubric's fingerprints as the run started, or empty for a new run. */
    public Optional<Fingerprint> fingerprint(long runPk) {
        return jdbc.query("SELECT catalog_sha256, rubric_sha256 FROM sb_fingerprint WHERE run_pk = ?",
                        (rs, n) -> new Fingerprint(rs.getString(1), rs.getString(2)), runPk)
                .stream()
                .findFirst();
    }

    /** The digests of the catalog file and of the rubric as a run started. */
    public record Fingerprint(String catalog, String rubric) {}

    public void saveFingerprint(long runPk, String catalog, String rubric) {
        jdbc.update("INSERT INTO sb_fingerprint (run_pk, catalog_sha256, rubric_sha256) VALUES (?, ?, ?)", runPk, catalog, rubric);
    }

    /**
     * As {@link #saveFingerprint(long, String, String)}, with what carry-over compares and looks at:
     * the verification fingerprint, the prompt templates' digest and the earlier runs to carry from.
     */
    public void saveFingerprint(long runPk, String catalog, String rubric, String verification, String prompts,
            List<Long> carrySources) {
        jdbc.update("INSERT INTO sb_fingerprint (run_pk, catalog_sha256, rubric_sha256, verification_sha256, prompts_sha256,"
                        + " carry_sources) VALUES (?, ?, ?, ?, ?, ?)", runPk, catalog, rubric, verification, prompts,
                String.join(",", carrySources.stream().map(String::valueOf).toList()));
    }

    public record AuditRow(String itemId, String verdict, String note) {}

    /** Stores a human audit's verdicts; a later hand-back of the same item replaces its verdict. */
    public void saveAudit(long runPk, List<AuditRow> rows) {
        for (AuditRow r : rows) {
            jdbc.update("DELETE FROM sb_audit WHERE run_pk = ? AND item_id = ?", runPk, r.itemId());
            jdbc.update("INSERT INTO sb_audit (run_pk, item_id, verdict, note, audited_at) VALUES (?, ?, ?, ?, ?)",
                    runPk, r.itemId(), r.verdict(), r.note(), Timestamp.from(Instant.now()));
        }
    }

    /**
     * Accepted Santa fixes of a round for the given items, in item order: each revision's text and
     * the text it replaced (the input for a first revision). At most {@code limit}.
     */
    public List<FixExample> santaFixExamples(long runPk, int round, List<String> itemIds, int contentIndex,
            int limit) {
        List<FixExample> out = new ArrayList<>();
        if (itemIds.isEmpty()) {
            return out;
        }
        named.query(
                "SELECT r.item_id, r.rev, r.content, i.fields,"
                        + " (SELECT p.content FROM sb_revision p WHERE p.item_id = r.item_id AND p.run_pk = r.run_pk AND p.rev = r.rev - 1)"
                        + " FROM sb_revision r JOIN sb_item i ON i.item_id = r.item_id AND i.run_pk = r.run_pk"
                        + " WHERE r.item_id IN (:ids) AND r.run_pk = :run AND r.round_no = :round"
                        + " AND r.cause = '" + Cause.SANTA_FIX.value() + "'"
                        + " ORDER BY r.item_id, r.rev",
                new MapSqlParameterSource().addValue("ids", itemIds).addValue("run", runPk).addValue("round", round),
                rs -> {
                    if (out.size() < limit) {
                        String before = rs.getString(5) != null ? rs.getString(5)
                                : FieldsCodec.decode(rs.getString(4)).get(contentIndex);
                        out.add(new FixExample(before, rs.getString(3)));
                    }
                });
        return out;
    }

    /** Audited items and the defective among them. */
    public record AuditCounts(long audited, long defective) {}

    /**
     * Stored audit verdicts of the given items (the rows of the run's current {@code audit.csv}).
     * Verdicts of items no longer in the audit sample are not counted.
     */
    public AuditCounts auditCounts(long runPk, Collection<String> itemIds) {
        if (itemIds.isEmpty()) {
            return new AuditCounts(0, 0);
        }
        Map<String, Long> byVerdict = new HashMap<>();
        named.query("SELECT verdict, COUNT(*) FROM sb_audit WHERE run_pk = :run AND item_id IN (:ids) GROUP BY verdict",
                new MapSqlParameterSource().addValue("run", runPk).addValue("ids", new ArrayList<>(new LinkedHashSet<>(itemIds))),
                rs -> {
                    byVerdict.merge(String.valueOf(rs.getString(1)), rs.getLong(2), Long::sum);
                });
        return new AuditCounts(byVerdict.values().stream().mapToLong(Long::longValue).sum(),
                byVerdict.getOrDefault("defective", 0L));
    }

    public long countRevisions(long runPk, Cause cause) {
        return count("SELECT COUNT(*) FROM sb_revision WHERE run_pk = ? AND cause = ?", runPk, cause.value());
    }

    public long countEligible(long runPk) {
        return count("SELECT COUNT(*) FROM sb_item WHERE run_pk = ? AND state = '" + ACTIVE + "'", runPk);
    }

    private long count(String sql, Object... args) {
        Long n = jdbc.queryForObject(sql, Long.class, args);
        return n == null ? 0 : n;
    }

    public void setState(long runPk, String itemId, String state) {
        jdbc.update("UPDATE sb_item SET state = ? WHERE item_id = ? AND run_pk = ?", state, itemId, runPk);
    }

    /**
     * Streams every item in input order with its content as it stood at the start of a round: the
     * latest revision written before that round (rules revisions count as round 0). Deterministic
     * whatever the round has written since, so a restarted round sees the same catalog.
     */
    public void forEachItemAsOfRound(long runPk, int round, Consumer<StoredItem> action) {
        long after = -1;
        while (true) {
            List<StoredItem> page = jdbc.query(ITEM_PAGE, ITEM, runPk, after, 2000);
            if (page.isEmpty()) {
                return;
            }
            List<String> revised = page.stream().filter(i -> i.currentRev() > 0).map(StoredItem::id).toList();
            Map<String, Revision> latest = new HashMap<>();
            if (!revised.isEmpty()) {
                named.query(
                        "SELECT item_id, rev, content FROM sb_revision WHERE item_id IN (:ids) AND run_pk = :run"
                                + " AND round_no < :round",
                        new MapSqlParameterSource().addValue("ids", revised).addValue("run", runPk).addValue("round", round),
                        rs -> {
                            Revision cur = latest.get(rs.getString(1));
                            if (cur == null || cur.rev() < rs.getInt(2)) {
                                latest.put(rs.getString(1), new Revision(rs.getInt(2), rs.getString(3)));
                            }
                        });
            }
            for (StoredItem it : page) {
                action.accept(it.at(latest.getOrDefault(it.id(), Revision.ORIGINAL)));
            }
            after = page.get(page.size() - 1).recordIndex();
        }
    }

    /** One item as it stood at the start of a round (see {@link #forEachItemAsOfRound}). */
    public Optional<StoredItem> itemAsOfRound(long runPk, String itemId, int round) {
        Optional<StoredItem> row = jdbc.query(ITEM_BY_ID, ITEM, itemId, runPk).stream().findFirst();
        if (row.isEmpty() || row.get().currentRev() == 0) {
            return row;
        }
        StoredItem it = row.get();
        List<Revision> rev = jdbc.query(
                "SELECT rev, content FROM sb_revision WHERE item_id = ? AND run_pk = ? AND round_no < ? ORDER BY rev DESC LIMIT 1",
                (rs, n) -> new Revision(rs.getInt(1), rs.getString(2)), itemId, runPk, round);
        return Optional.of(it.at(rev.isEmpty() ? Revision.ORIGINAL : rev.get(0)));
    }

    /** One item with its current content. */
    public Optional<StoredItem> item(long runPk, String itemId) {
        return withContent(runPk, jdbc.query(ITEM_BY_ID, ITEM, itemId, runPk)).stream().findFirst();
    }

    /** Stores a new revision of an item and makes it current. */
    public void addRevision(long runPk, String itemId, int rev, int round, Cause cause, @Nullable String pattern, String content) {
        insertRevision(runPk, itemId, rev, round, cause, pattern, content);
        jdbc.update("UPDATE sb_item SET current_rev = ? WHERE run_pk = ? AND item_id = ?", rev, runPk, itemId);
    }

    /**
     * As {@link #addRevision}, only while the item is still ACTIVE at revision {@code baseRev}: a
     * step that re-runs over items it already changed (a batch-fix re-run after it completed) then
     * writes nothing for them. Returns whether the revision was stored.
     */
    public boolean addRevisionIfAt(long runPk, String itemId, int baseRev, int round, Cause cause, @Nullable String pattern,
            String content) {
        int n = jdbc.update("UPDATE sb_item SET current_rev = ? WHERE run_pk = ? AND item_id = ? AND current_rev = ?"
                + " AND state = '" + ACTIVE + "'", baseRev + 1, runPk, itemId, baseRev);
        if (n == 0) {
            return false;
        }
        insertRevision(runPk, itemId, baseRev + 1, round, cause, pattern, content);
        return true;
    }

    /**
     * As {@link #escalate(long, String, int, Cause, String, String, String, List)}, only while the
     * item is still ACTIVE at revision {@code baseRev}. Returns whether the item was escalated.
     */
    public boolean escalateIfAt(long runPk, String itemId, int baseRev, int round, Cause cause, @Nullable String reason,
            @Nullable String pattern, @Nullable String lastAttempt, List<String> issues) {
        int n = jdbc.update("UPDATE sb_item SET state = '" + ESCALATED + "' WHERE run_pk = ? AND item_id = ? AND current_rev = ?"
                + " AND state = '" + ACTIVE + "'", runPk, itemId, baseRev);
        if (n == 0) {
            return false;
        }
        insertEscalation(runPk, itemId, round, cause, reason, pattern, lastAttempt, issues);
        return true;
    }

    /**
     * Holds an item for a person: it leaves the sampling population and the shipped catalog, with
     * the reason it is held (for {@code escalations.csv} and the report).
     */
    public void escalate(long runPk, String itemId, int round, Cause cause, @Nullable String reason,
            @Nullable String pattern, @Nullable String lastAttempt, List<String> issues) {
        jdbc.update("UPDATE sb_item SET state = '" + ESCALATED + "' WHERE run_pk = ? AND item_id = ?", runPk, itemId);
        insertEscalation(runPk, itemId, round, cause, reason, pattern, lastAttempt, issues);
    }

    private void insertRevision(long runPk, String itemId, int rev, int round, Cause cause, @Nullable String pattern,
            String content) {
        jdbc.update(
                "INSERT INTO sb_revision (run_pk, item_id, rev, round_no, cause, pattern, content, created_at)"
                        + " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                runPk, itemId, rev, round, cause.value(), pattern, content, Timestamp.from(Instant.now()));
    }

    private void insertEscalation(long runPk, String itemId, int round, Cause cause, @Nullable String reason,
            @Nullable String pattern, @Nullable String lastAttempt, List<String> issues) {
        jdbc.update(
                "INSERT INTO sb_escalation (run_pk, item_id, round_no, cause, reason, pattern, last_attempt, issues)"
                        + " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                runPk, itemId, round, cause.value(), reason, pattern, lastAttempt, String.join("\n", issues));
    }

    /** Held items per reason (items escalated without a recorded reason under "(none)"). */
    public Map<String, Long> escalationsByReason(long runPk) {
        Map<String, Long> out = new TreeMap<>();
        jdbc.query("SELECT reason, COUNT(*) FROM sb_escalation WHERE run_pk = ? GROUP BY reason", rs -> {
            out.put(rs.getString(1) == null ? "(none)" : rs.getString(1), rs.getLong(2));
        }, runPk);
        return out;
    }

    /** Adds to a rule's counters (in the caller's transaction, so counts stay exact across restarts). */
    public void addRuleCounts(long runPk, String ruleId, String criterionId, long found, long fixed, long escalated) {
        int n = jdbc.update(
                "UPDATE sb_rule_count SET found = found + ?, fixed = fixed + ?, escalated = escalated + ?"
                        + " WHERE run_pk = ? AND rule_id = ?",
                found, fixed, escalated, runPk, ruleId);
        if (n == 0) {
            jdbc.update(
                    "INSERT INTO sb_rule_count (run_pk, rule_id, criterion_id, found, fixed, escalated) VALUES (?, ?, ?, ?, ?, ?)",
                    runPk, ruleId, criterionId, found, fixed, escalated);
        }
    }

    public List<RuleCount> ruleCounts(long runPk) {
        return jdbc.query(
                "SELECT rule_id, criterion_id, found, fixed, escalated FROM sb_rule_count WHERE run_pk = ? ORDER BY rule_id",
                (rs, n) -> new RuleCount(rs.getString(1), rs.getString(2), rs.getLong(3), rs.getLong(4), rs.getLong(5)),
                runPk);
    }

    /** Every revision in item order then revision order, with the content it replaced. */
    public void forEachChange(long runPk, Consumer<Change> action) {
        jdbc.query(
                "SELECT r.item_id, r.round_no, r.cause, r.pattern, r.rev, r.content, i.fields,"
                        + " (SELECT p.content FROM sb_revision p WHERE p.run_pk = r.run_pk AND p.item_id = r.item_id AND p.rev = r.rev - 1)"
                        + " FROM sb_revision r JOIN sb_item i ON i.run_pk = r.run_pk AND i.item_id = r.item_id"
                        + " WHERE r.run_pk = ? ORDER BY i.record_index, r.rev",
                rs -> {
                    action.accept(new Change(rs.getString(1), rs.getInt(2), rs.getString(3), rs.getString(4), rs.getInt(5),
                            rs.getString(6), rs.getString(7), rs.getString(8)));
                },
                runPk);
    }

    /** The content of every revision made by {@code cause}, by item id, in revision order. */
    public void forEachRevision(long runPk, Cause cause, BiConsumer<String, String> action) {
        jdbc.query("SELECT item_id, content FROM sb_revision WHERE run_pk = ? AND cause = ? ORDER BY item_id, rev",
                rs -> {
                    action.accept(rs.getString(1), rs.getString(2));
                },
                runPk, cause.value());
    }

    public void forEachEscalation(long runPk, Consumer<Escalation> action) {
        jdbc.query(
                "SELECT e.item_id, e.round_no, e.cause, e.pattern, e.last_attempt, e.issues, i.fields, r.content, e.reason"
                        + " FROM sb_escalation e JOIN sb_item i ON i.run_pk = e.run_pk AND i.item_id = e.item_id"
                        + " LEFT JOIN sb_revision r ON r.run_pk = i.run_pk AND r.item_id = i.item_id AND r.rev = i.current_rev"
                        + " WHERE e.run_pk = ? ORDER BY i.record_index",
                rs -> {
                    action.accept(new Escalation(rs.getString(1), rs.getInt(2), rs.getString(3), rs.getString(4),
                            rs.getString(5), rs.getString(6), rs.getString(7), rs.getString(8), rs.getString(9)));
                },
                runPk);
    }

    // ---------------------------------------------------------------- records

    public record RuleCount(String ruleId, String criterionId, long found, long fixed, long escalated) {}

    /**
     * @param previous the content this revision replaced; {@code null} for the first revision (the
     *     original is in {@code fields})
     */
    public record Change(String itemId, int round, String cause, @Nullable String pattern, int rev, String after,
            String fields, @Nullable String previous) {}

    /**
     * @param current the last revision that passed the rules ({@code null}: the original)
     * @param reason why the item is held; {@code null} for items escalated before reasons were stored
     */
    public record Escalation(String itemId, int round, String cause, @Nullable String pattern,
            @Nullable String lastAttempt, String issues, String fields, @Nullable String current,
            @Nullable String reason) {}

    public record RunRow(long runPk, String jobName, String runId, String jobFile, String inputPath, String outDir, long seed,
            Instant createdAt, @Nullable String lockOwner, @Nullable Instant heartbeatAt) {}

    /**
     * An item as ingested: the whole input row as one CSV record, for exact export.
     *
     * @param inputSha256 the digest of its content and source facts (what carry-over compares);
     *     {@code null}: none
     */
    public record NewItem(String id, long recordIndex, long line, @Nullable String category, String fields,
            @Nullable String inputSha256) {

        public NewItem(String id, long recordIndex, long line, @Nullable String category, String fields) {
            this(id, recordIndex, line, category, fields, null);
        }
    }

    public record RejectRow(long line, long endLine, String reason, String raw) {}

    /**
     * @param content the current revision's content, {@code null} when the item is unchanged
     */
    public record StoredItem(
            String id, long recordIndex, long line, String fields, String state, int currentRev, @Nullable String content) {

        StoredItem at(Revision r) {
            return new StoredItem(id, recordIndex, line, fields, state, r.rev(), r.content());
        }
    }

    /** A revision number and its content; revision 0 with no content is the original. */
    private record Revision(int rev, @Nullable String content) {
        static final Revision ORIGINAL = new Revision(0, null);
    }
}
