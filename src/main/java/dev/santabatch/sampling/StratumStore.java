package dev.santabatch.sampling;

import dev.santabatch.persistence.ItemState;
import dev.santabatch.carry.CarryStore;
import dev.santabatch.rounds.Decision;
import dev.santabatch.stats.StratumBound;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;

/**
 * The covered stratum of a run (docs/carry-over.md, "Strata"): the items carried over as covered,
 * sampled once, in round 1, with a fixed size. Its draw is one row of {@code sb_stratum}, written in
 * the sample step's transaction with the round and its sample (so a restart reuses it, never draws or
 * counts it again), and its outcome is written by the decide step. Portable between H2 and PostgreSQL.
 *
 * <p>A member of the covered stratum is an item of the run carried over as {@code covered}, still
 * {@code ACTIVE}, whose text no round of the run has rewritten (a batch fix's revision makes it a
 * changed item, sampled by Pattern C).
 */
public final class StratumStore {

    /** The changed stratum's name in {@code report.json}: new, changed and judged-afresh items, sampled by Pattern C. */
    public static final String CHANGED = "changed";

    /** The covered stratum's name, in {@code sb_stratum} and in {@code report.json}. */
    public static final String COVERED = "covered";

    /** The items of the covered stratum: carried as covered, ACTIVE, not rewritten by a round. */
    private static final String MEMBER = "i.carry = 'covered' AND i.state = '" + ItemState.ACTIVE + "' AND NOT EXISTS (SELECT 1"
            + " FROM sb_revision v WHERE v.item_id = i.item_id AND v.run_pk = i.run_pk AND v.round_no > 0)";

    /**
     * A run's draw of its covered stratum, and what came of it.
     *
     * @param round the round it was sampled in (1)
     * @param strata H, the strata sampled in that round (1: the covered one alone; 2: the changed one too)
     * @param targetBound t, {@code carry-over.target-bound} as it was drawn
     * @param items N, its members
     * @param sampleSize n = min(N, ⌈ln(α / (H · k)) / ln(1 − t)⌉)
     * @param looks k, the looks at the stratum since it last changed, this one included
     * @param lastLookRun the job's earlier run whose look this one was compared with; {@code null}: none
     * @param entered the members that were not members (same item, input and text) at that look;
     *     {@code null} without one. k continues only when it is 0
     * @param changedItems the items of the changed stratum eligible in that round
     * @param changedSample its Pattern C sample in that round
     * @param changedFullReview whether that sample took every one of them (fewer than {@code full-review-below})
     * @param changedOutcome the changed stratum's own decision in the last round decided ({@link Decision}),
     *     the covered stratum apart; {@code null} before one
     * @param failures the sample's failures (not NICE on first review, or flagged); {@code null}: not decided yet
     * @param unreviewed the sample's items left unreviewed; {@code null}: not decided yet
     * @param reopenedRound the round whose decision reopened it (a failure, or an item left unreviewed):
     *     its remaining members joined the changed stratum; {@code null}: not reopened
     */
    public record Draw(long runPk, int round, int strata, double targetBound, long items, int sampleSize, int looks,
            @Nullable Long lastLookRun, @Nullable Long entered, long changedItems, int changedSample,
            boolean changedFullReview, @Nullable String changedOutcome, @Nullable Integer failures,
            @Nullable Integer unreviewed, @Nullable Integer reopenedRound) {

        public boolean reopened() {
            return reopenedRound != null;
        }

        /** Decided, with no failure and every item reviewed. */
        public boolean accepted() {
            return failures != null && !reopened();
        }
    }

    private static final String COLUMNS = "s.run_pk, s.round_no, s.strata, s.target_bound, s.items, s.sample_size, s.looks,"
            + " s.last_look_run, s.entered, s.changed_items, s.changed_sample, s.changed_full_review, s.changed_outcome,"
            + " s.failures, s.unreviewed, s.reopened_round";

    private static final RowMapper<Draw> DRAW = (rs, n) -> new Draw(rs.getLong(1), rs.getInt(2), rs.getInt(3),
            rs.getDouble(4), rs.getLong(5), rs.getInt(6), rs.getInt(7), (Long) rs.getObject(8, Long.class),
            (Long) rs.getObject(9, Long.class), rs.getLong(10), rs.getInt(11), rs.getBoolean(12), rs.getString(13),
            (Integer) rs.getObject(14, Integer.class), (Integer) rs.getObject(15, Integer.class),
            (Integer) rs.getObject(16, Integer.class));

    private final JdbcTemplate jdbc;

    public StratumStore(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** The run's draw of its covered stratum; empty when the run had none (no item carried as covered). */
    public Optional<Draw> covered(long runPk) {
        return jdbc.query("SELECT " + COLUMNS + " FROM sb_stratum s WHERE s.run_pk = ? AND s.stratum = ?", DRAW, runPk,
                COVERED).stream().findFirst();
    }

    /**
     * The covered stratum's fixed sample size: {@code n = min(N, ⌈ln(α / (H · k)) / ln(1 − t)⌉)} with
     * H = 2 strata sampled when the changed stratum has items, else 1 ({@link StratumBound#sampleSize}).
     *
     * @param targetBound t, {@code carry-over.target-bound}
     * @param changedItems the changed stratum's eligible items
     * @param members N, the covered stratum's members
     * @param looks k ({@link #looks})
     */
    public static int sampleSize(double targetBound, long changedItems, long members, int looks) {
        return (int) Math.min(members, StratumBound.sampleSize(targetBound, StratumBound.ALPHA, strata(changedItems), looks));
    }

    /** H: the strata sampled in round 1, the covered one and, when it has items, the changed one. */
    public static int strata(long changedItems) {
        return changedItems > 0 ? 2 : 1;
    }

    /**
     * k: the looks at the covered stratum, this one included: one more than the job's last look when
     * no member entered the stratum since it, else 1.
     *
     * @param entered the members that entered since {@code lastLook} ({@link #entered}); {@code null} without one
     */
    public static int looks(Optional<Draw> lastLook, @Nullable Long entered) {
        return lastLook.isPresent() && entered != null && entered == 0 ? lastLook.get().looks() + 1 : 1;
    }

    /** The job's last look at its covered stratum before run {@code beforeRunPk}: the newest earlier run with a draw. */
    public Optional<Draw> lastLook(String jobName, long beforeRunPk) {
        return jdbc.query("SELECT " + COLUMNS + " FROM sb_stratum s JOIN sb_run r ON r.run_pk = s.run_pk"
                        + " WHERE r.job_name = ? AND s.run_pk < ? AND s.stratum = ? ORDER BY s.run_pk DESC LIMIT 1",
                DRAW, jobName, beforeRunPk, COVERED).stream().findFirst();
    }

    /** Records the draw (in the sample step's transaction). */
    public void insert(Draw d) {
        jdbc.update("INSERT INTO sb_stratum (run_pk, stratum, round_no, strata, target_bound, items, sample_size, looks,"
                        + " last_look_run, entered, changed_items, changed_sample, changed_full_review)"
                        + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                d.runPk(), COVERED, d.round(), d.strata(), d.targetBound(), d.items(), d.sampleSize(), d.looks(),
                d.lastLookRun(), d.entered(), d.changedItems(), d.changedSample(), d.changedFullReview());
    }

    /** Records the decision on the covered sample: its failures and unreviewed items, and the round that reopened it. */
    public void decide(long runPk, int failures, int unreviewed, @Nullable Integer reopenedRound) {
        jdbc.update("UPDATE sb_stratum SET failures = ?, unreviewed = ?, reopened_round = ? WHERE run_pk = ? AND stratum = ?",
                failures, unreviewed, reopenedRound, runPk, COVERED);
    }

    /** Records the changed stratum's own decision of the round just decided. */
    public void changedOutcome(long runPk, String decision) {
        jdbc.update("UPDATE sb_stratum SET changed_outcome = ? WHERE run_pk = ? AND stratum = ?", decision, runPk, COVERED);
    }

    /** The run's members of the covered stratum now. */
    public long countMembers(long runPk) {
        Long n = jdbc.queryForObject("SELECT COUNT(*) FROM sb_item i WHERE i.run_pk = ? AND " + MEMBER, Long.class, runPk);
        return n == null ? 0 : n;
    }

    /** The ids of the run's members of the covered stratum with a catalog index in {@code (after, upTo]}. */
    Set<String> members(long runPk, long after, long upTo) {
        return new HashSet<>(jdbc.queryForList("SELECT i.item_id FROM sb_item i WHERE i.run_pk = ? AND i.record_index > ?"
                + " AND i.record_index <= ? AND " + MEMBER, String.class, runPk, after, upTo));
    }

    /**
     * As {@link #entered(long, long)}, for would-be members not stored as a run's items (a plan's):
     * each id with its input digest and its carried text's digest ({@link CarryStore#textDigest}).
     */
    public long entered(long lastLookRun, Map<String, List<String>> members) {
        if (members.isEmpty()) {
            return 0;
        }
        Set<String> same = new HashSet<>();
        new NamedParameterJdbcTemplate(jdbc).query("SELECT item_id, input_sha256, covered_sha256 FROM sb_item WHERE run_pk = :run"
                        + " AND carry = 'covered' AND item_id IN (:ids)",
                new MapSqlParameterSource("run", lastLookRun).addValue("ids", new ArrayList<>(members.keySet())), rs -> {
                    if (List.of(String.valueOf(rs.getString(2)), String.valueOf(rs.getString(3)))
                            .equals(members.get(rs.getString(1)))) {
                        same.add(rs.getString(1));
                    }
                });
        return members.size() - same.size();
    }

    /**
     * The run's members of the covered stratum that were no member of it in run {@code lastLookRun}
     * with the same input digest and carried text: items that entered the stratum since that look, or
     * whose text changed. Members that left since (reviewed, changed, held, aged out) do not count.
     */
    public long entered(long runPk, long lastLookRun) {
        Long n = jdbc.queryForObject("SELECT COUNT(*) FROM sb_item i WHERE i.run_pk = ? AND " + MEMBER
                + " AND NOT EXISTS (SELECT 1 FROM sb_item l WHERE l.item_id = i.item_id AND l.run_pk = ?"
                + " AND l.carry = 'covered' AND l.input_sha256 = i.input_sha256 AND l.covered_sha256 = i.covered_sha256)",
                Long.class, runPk, lastLookRun);
        return n == null ? 0 : n;
    }
}
