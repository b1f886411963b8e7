package dev.santabatch.rounds;

import dev.santabatch.persistence.ItemState;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The Pattern C loop's tables: rounds (written in the same transaction as the round's sample),
 * samples with their outcomes, every review of every iteration, merged issues, and patterns.
 * Portable between H2 and PostgreSQL.
 */
public final class LoopStore {

    private final JdbcTemplate jdbc;

    public LoopStore(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    public JdbcTemplate jdbc() {
        return jdbc;
    }

    // ---------------------------------------------------------------- rounds

    public record Round(int round, long seed, long eligible, int sampleSize, boolean fullReview, String strata,
            @Nullable String decision) {}

    private static final org.springframework.jdbc.core.RowMapper<Round> ROUND = (rs, n) -> new Round(rs.getInt(1),
            rs.getLong(2), rs.getLong(3), rs.getInt(4), rs.getBoolean(5), rs.getString(6), rs.getString(7));

    /** The round in progress: the last one, while it is not decided yet. */
    public Optional<Round> currentRound(long runPk) {
        return lastRound(runPk).filter(r -> r.decision() == null);
    }

    public Optional<Round> lastRound(long runPk) {
        return jdbc.query(
                        "SELECT round_no, seed, eligible, sample_size, full_review, strata, decision FROM sb_round"
                                + " WHERE run_pk = ? ORDER BY round_no DESC LIMIT 1",
                        ROUND,
                        runPk)
                .stream()
                .findFirst();
    }

    public List<Round> rounds(long runPk) {
        return jdbc.query(
                "SELECT round_no, seed, eligible, sample_size, full_review, strata, decision FROM sb_round"
                        + " WHERE run_pk = ? ORDER BY round_no",
                ROUND,
                runPk);
    }

    public void insertRound(long runPk, Round r) {
        jdbc.update(
                "INSERT INTO sb_round (run_pk, round_no, seed, eligible, sample_size, full_review, strata, decision, created_at)"
                        + " VALUES (?, ?, ?, ?, ?, ?, ?, NULL, ?)",
                runPk, r.round(), r.seed(), r.eligible(), r.sampleSize(), r.fullReview(), r.strata(),
                Timestamp.from(Instant.now()));
    }

    public void decide(long runPk, int round, String decision) {
        jdbc.update("UPDATE sb_round SET decision = ? WHERE run_pk = ? AND round_no = ?", decision, runPk, round);
    }

    /**
     * What a round's sample was judged against: its acceptance number c and its failures (items
     * not NICE on first review).
     */
    public record Acceptance(int acceptanceNumber, int failures) {}

    public void recordAcceptance(long runPk, int round, Acceptance a) {
        jdbc.update("UPDATE sb_round SET acceptance_number = ?, failures = ? WHERE run_pk = ? AND round_no = ?",
                a.acceptanceNumber(), a.failures(), runPk, round);
    }

    /** The round's acceptance; empty for a round not decided yet, or decided before this was recorded. */
    public Optional<Acceptance> acceptance(long runPk, int round) {
        return jdbc.query("SELECT acceptance_number, failures FROM sb_round WHERE run_pk = ? AND round_no = ?"
                        + " AND acceptance_number IS NOT NULL",
                        (rs, n) -> new Acceptance(rs.getInt(1), rs.getInt(2)), runPk, round)
                .stream()
                .findFirst();
    }

    // ---------------------------------------------------------------- samples

    public record SampleRow(String itemId, int rev, String stratum, int seq) {}

    public void insertSample(long runPk, int round, List<SampleRow> rows) {
        insertSample(runPk, round, rows, java.util.Set.of());
    }

    /** As {@link #insertSample(long, int, List)}, the items of {@code covered} drawn in the covered stratum's sample. */
    public void insertSample(long runPk, int round, List<SampleRow> rows, java.util.Set<String> covered) {
        jdbc.batchUpdate(
                "INSERT INTO sb_sample (run_pk, round_no, item_id, rev, stratum, seq, covered) VALUES (?, ?, ?, ?, ?, ?, ?)",
                rows,
                1000,
                (ps, r) -> {
                    ps.setLong(1, runPk);
                    ps.setInt(2, round);
                    ps.setString(3, r.itemId());
                    ps.setInt(4, r.rev());
                    ps.setString(5, r.stratum());
                    ps.setInt(6, r.seq());
                    ps.setBoolean(7, covered.contains(r.itemId()));
                });
    }

    /** The items of a round's sample drawn in the covered stratum's sample. */
    public java.util.Set<String> coveredSample(long runPk, int round) {
        return new java.util.HashSet<>(jdbc.queryForList("SELECT item_id FROM sb_sample WHERE run_pk = ? AND round_no = ?"
                + " AND covered", String.class, runPk, round));
    }

    /**
     * The round's sampled items without an outcome, or that failed to review, after {@code afterSeq},
     * in draw order: a restarted review step retries the items its reviewers could not review.
     */
    public List<SampleRow> pendingSample(long runPk, int round, int afterSeq, int limit) {
        return jdbc.query(
                "SELECT item_id, rev, stratum, seq FROM sb_sample WHERE run_pk = ? AND round_no = ? AND seq > ?"
                        + " AND (outcome IS NULL OR outcome = 'UNREVIEWED') ORDER BY seq LIMIT ?",
                (rs, n) -> new SampleRow(rs.getString(1), rs.getInt(2), rs.getString(3), rs.getInt(4)),
                runPk, round, afterSeq, limit);
    }

    public void sampleOutcome(long runPk, int round, String itemId, String outcome, @Nullable String reason, int reviews,
            int fixes) {
        jdbc.update(
                "UPDATE sb_sample SET outcome = ?, reason = ?, reviews = ?, fixes = ? WHERE run_pk = ? AND round_no = ?"
                        + " AND item_id = ?",
                outcome, reason, reviews, fixes, runPk, round, itemId);
    }

    /**
     * @param rev the revision the item was sampled at (the text its round's review 0 is of)
     * @param flagged whether the item has a FAIL seen outside its own review ({@link #flag}: a clean
     *     canary, a learned rule's fresh review, the batch fix) on the revision it was sampled at or
     *     on its current revision: a failure of the sample, whatever its own review said
     */
    public record SampleOutcome(String itemId, String stratum, @Nullable String outcome, @Nullable String reason,
            @Nullable Integer reviews, @Nullable Integer fixes, int rev, boolean flagged) {

        /** NICE on its first review, without a fix, and failed by no reviewer outside it ({@link #flagged}). */
        public boolean niceOnFirstReview() {
            return "NICE".equals(outcome) && fixes != null && fixes == 0 && !flagged;
        }
    }

    public List<SampleOutcome> sample(long runPk, int round) {
        return jdbc.query(
                "SELECT s.item_id, s.stratum, s.outcome, s.reason, s.reviews, s.fixes, s.rev, EXISTS (SELECT 1 FROM sb_flag f"
                        + " JOIN sb_item i ON i.run_pk = f.run_pk AND i.item_id = f.item_id WHERE f.run_pk = s.run_pk"
                        + " AND f.item_id = s.item_id AND (f.rev = s.rev OR f.rev = i.current_rev))"
                        + " FROM sb_sample s WHERE s.run_pk = ? AND s.round_no = ? ORDER BY s.seq",
                (rs, n) -> new SampleOutcome(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4),
                        (Integer) rs.getObject(5), (Integer) rs.getObject(6), rs.getInt(7), rs.getBoolean(8)),
                runPk, round);
    }

    /**
     * A sampled item still ACTIVE, as its latest sampling round left it.
     *
     * @param outcome the round's outcome: null or {@code UNREVIEWED} when it was left unreviewed (the
     *     run stopped first, or a reviewer could not review it); {@code NICE} when it passed at
     *     {@code rev} and was revised since
     * @param reason why it was left unreviewed (null: never reviewed)
     * @param rev the revision the round sampled
     * @param currentRev its current revision
     */
    public record SampledActive(String itemId, int round, @Nullable String outcome, @Nullable String reason, int rev,
            int currentRev) {
        /** Whether the round left it unreviewed (rather than passed it and a later fix revised it). */
        public boolean unreviewed() {
            return outcome == null || "UNREVIEWED".equals(outcome);
        }
    }

    /**
     * The items still ACTIVE (neither NICE nor held) that some round sampled: never covered by a
     * clean sample, since no sample can cover an item it drew (an item sampled and left unreviewed,
     * or passed and revised since, e.g. by a learned rule after a fresh review failed it). By item,
     * the latest round that sampled it.
     */
    public java.util.Map<String, SampledActive> sampledActive(long runPk) {
        java.util.Map<String, SampledActive> out = new java.util.HashMap<>();
        jdbc.query("SELECT s.item_id, s.round_no, s.outcome, s.reason, s.rev, i.current_rev FROM sb_sample s JOIN sb_item i"
                        + " ON i.run_pk = s.run_pk AND i.item_id = s.item_id WHERE s.run_pk = ? AND i.state = '" + ItemState.ACTIVE + "'"
                        + " ORDER BY s.round_no",
                rs -> {
                    out.put(rs.getString(1), new SampledActive(rs.getString(1), rs.getInt(2), rs.getString(3), rs.getString(4),
                            rs.getInt(5), rs.getInt(6)));
                },
                runPk);
        return out;
    }

    /**
     * An unresolved FAIL on an item's current revision.
     *
     * @param round the round of the latest such FAIL
     * @param issues the failing reviewers' critical issues, each as {@code <reviewer>: <issue>}
     */
    public record FailedReview(String itemId, int round, List<String> issues) {
        public FailedReview {
            issues = List.copyOf(issues);
        }
    }

    /**
     * Records a FAIL seen on {@code rev} of an item outside its own review and not resolved (each issue
     * as {@code <reviewer>: <issue>}), added to the issues the revision is already flagged with: a
     * FAIL on a text stands until a fix changes the text, so a re-run records nothing twice.
     */
    public void flag(long runPk, String itemId, int rev, int round, List<String> issues) {
        java.util.LinkedHashSet<String> all = new java.util.LinkedHashSet<>(flagIssues(runPk, itemId, rev));
        boolean existed = !all.isEmpty();
        all.addAll(issues);
        String text = String.join("\n", all);
        if (existed) {
            jdbc.update("UPDATE sb_flag SET round_no = ?, issues = ? WHERE run_pk = ? AND item_id = ? AND rev = ?",
                    round, text, runPk, itemId, rev);
        } else if (!all.isEmpty()) {
            jdbc.update("INSERT INTO sb_flag (run_pk, item_id, rev, round_no, issues) VALUES (?, ?, ?, ?, ?)",
                    runPk, itemId, rev, round, text);
        }
    }

    /**
     * Flags revision {@code baseRev + 1} of an item, just written by a batch fix over {@code baseRev}
     * (in the transaction that wrote it), with what still stands on it: the FAILs standing on
     * {@code baseRev} ({@link #standingFails}: its flag, and a reviewer's FAIL a fix left unresolved),
     * less the issues this fix resolved ({@code resolved}: the pattern it fixed), and the fix's own
     * unresolved issues. A batch fix of one pattern resolves no other FAIL: only a fix for it and a
     * fresh review do, so the item is never covered by a clean sample meanwhile.
     */
    public void flagRevised(long runPk, String itemId, int baseRev, int round,
            java.util.function.Predicate<String> resolved, List<String> unresolved) {
        List<String> standing = new ArrayList<>(standingFails(runPk, itemId, baseRev).stream()
                .filter(resolved.negate()).toList());
        standing.addAll(unresolved);
        if (!standing.isEmpty()) {
            flag(runPk, itemId, baseRev + 1, round, standing);
        }
    }

    /**
     * The issues {@code rev} of an item is flagged with ({@link #flag}: a reviewer failed that text
     * outside its own review), each as {@code <reviewer>: <issue>}; empty when it is not flagged.
     */
    public List<String> flagIssues(long runPk, String itemId, int rev) {
        return jdbc.query("SELECT issues FROM sb_flag WHERE run_pk = ? AND item_id = ? AND rev = ?",
                        (rs, n) -> rs.getString(1), runPk, itemId, rev)
                .stream()
                .flatMap(text -> java.util.Arrays.stream(text.split("\n")))
                .filter(line -> !line.isBlank())
                .toList();
    }

    /**
     * The items whose current revision has a FAIL: ACTIVE ones from some reviewer's latest review 0
     * of that revision (left unresolved by an attempt that ended unreviewed: a fix reviewed by a
     * reviewer that then failed to review is not kept), and ACTIVE or NICE ones flagged on it
     * ({@link #flag}: seen by the batch fix and not fixed, or failed by a clean canary or a learned
     * rule's fresh review or review check, which a later round's reused reviews cannot clear). Never
     * to be shipped.
     */
    public java.util.Map<String, FailedReview> failsOnCurrentRevision(long runPk) {
        java.util.Map<String, FailedReview> out = reviewFails(
                "SELECT r.item_id, r.reviewer, r.round_no, r.verdict, r.review_json FROM sb_review r JOIN sb_item i"
                        + " ON i.run_pk = r.run_pk AND i.item_id = r.item_id AND i.current_rev = r.rev"
                        + " WHERE r.run_pk = ? AND i.state = '" + ItemState.ACTIVE + "' AND r.iteration = 0 AND r.outcome = 'REVIEWED'"
                        + " ORDER BY r.round_no",
                runPk);
        jdbc.query("SELECT f.item_id, f.round_no, f.issues FROM sb_flag f JOIN sb_item i ON i.run_pk = f.run_pk"
                        + " AND i.item_id = f.item_id AND i.current_rev = f.rev WHERE f.run_pk = ?"
                        + " AND i.state IN ('" + ItemState.ACTIVE + "', '" + ItemState.NICE + "')",
                rs -> {
                    // a flag's issues join a reviewer's FAIL on the same revision
                    out.merge(rs.getString(1), new FailedReview(rs.getString(1), rs.getInt(2), List.of(rs.getString(3).split("\n"))),
                            (reviewed, flagged) -> new FailedReview(reviewed.itemId(), reviewed.round(),
                                    List.copyOf(new java.util.LinkedHashSet<>(java.util.stream.Stream.concat(
                                            reviewed.issues().stream(), flagged.issues().stream()).toList()))));
                },
                runPk);
        return out;
    }

    /**
     * The FAILs standing on {@code rev} of an item: those it is flagged with, and those of a
     * reviewer whose latest review 0 of that revision failed it (as {@link #failsOnCurrentRevision}
     * reads them), each as {@code <reviewer>: <issue>}.
     */
    public List<String> standingFails(long runPk, String itemId, int rev) {
        java.util.LinkedHashSet<String> out = new java.util.LinkedHashSet<>(flagIssues(runPk, itemId, rev));
        FailedReview reviewed = reviewFails("SELECT item_id, reviewer, round_no, verdict, review_json FROM sb_review"
                + " WHERE run_pk = ? AND item_id = ? AND rev = ? AND iteration = 0 AND outcome = 'REVIEWED' ORDER BY round_no",
                runPk, itemId, rev).get(itemId);
        if (reviewed != null) {
            out.addAll(reviewed.issues());
        }
        return List.copyOf(out);
    }

    /**
     * By item, the FAIL of every reviewer whose latest review (of the rows {@code sql} selects:
     * item id, reviewer, round, verdict, review JSON, in round order) failed it.
     */
    private java.util.Map<String, FailedReview> reviewFails(String sql, Object... args) {
        record Latest(int round, @Nullable String verdict, @Nullable String json) {}
        java.util.Map<String, java.util.Map<String, Latest>> latest = new java.util.HashMap<>();
        jdbc.query(sql, rs -> {
            latest.computeIfAbsent(rs.getString(1), k -> new java.util.TreeMap<>())
                    .put(rs.getString(2), new Latest(rs.getInt(3), rs.getString(4), rs.getString(5)));
        }, args);
        java.util.Map<String, FailedReview> out = new java.util.HashMap<>();
        latest.forEach((item, byReviewer) -> {
            List<String> issues = new ArrayList<>();
            int round = -1;
            for (var e : byReviewer.entrySet()) {
                if ("FAIL".equals(e.getValue().verdict())) {
                    issues.addAll(issueLines(e.getKey(), e.getValue().json()));
                    round = Math.max(round, e.getValue().round());
                }
            }
            if (round >= 0) {
                out.put(item, new FailedReview(item, round, issues));
            }
        });
        return out;
    }

    /** A FAIL review's critical issues as {@code <reviewer>: <issue>} lines. */
    private static List<String> issueLines(String reviewer, @Nullable String json) {
        if (json == null) {
            return List.of(reviewer + ": FAIL");
        }
        try {
            return dev.santabatch.review.Review.fromJson(json).criticalIssues().stream().map(i -> reviewer + ": " + i).toList();
        } catch (dev.santabatch.review.MalformedReviewException e) {
            return List.of(reviewer + ": FAIL (review not readable: " + e.getMessage() + ")");
        }
    }

    // ---------------------------------------------------------------- reviews and issues

    /**
     * One stored review.
     *
     * @param issuesReattributed critical issues without a criterion prefix that validation
     *     attributed to a failed criterion
     * @param issuesDerived failed checks without a critical issue whose detail became their issue
     */
    public record ReviewRow(String itemId, int rev, int iteration, String reviewer, String outcome,
            @Nullable String verdict, @Nullable String reviewJson, @Nullable String failure, long durationMillis,
            int issuesReattributed, int issuesDerived) {

        /** A row with nothing attributed. */
        public ReviewRow(String itemId, int rev, int iteration, String reviewer, String outcome,
                @Nullable String verdict, @Nullable String reviewJson, @Nullable String failure, long durationMillis) {
            this(itemId, rev, iteration, reviewer, outcome, verdict, reviewJson, failure, durationMillis, 0, 0);
        }
    }

    /**
     * Issues validation attributed in a round's stored reviews (every iteration).
     *
     * @param reattributed critical issues without a criterion prefix given to a failed criterion
     * @param derivedFromDetail failed checks without an issue whose detail became their issue
     */
    public record IssueAttribution(long reattributed, long derivedFromDetail) {
        public static final IssueAttribution NONE = new IssueAttribution(0, 0);

        public IssueAttribution plus(IssueAttribution o) {
            return new IssueAttribution(reattributed + o.reattributed, derivedFromDetail + o.derivedFromDetail);
        }
    }

    /**
     * {@link IssueAttribution} per round, by round number, over every review the round made: the
     * stored reviews (sample, Santa loop), those a retried attempt superseded, the canaries'
     * reviews, the learned rules' validation reviews, and the offline batch fix's scan
     * ({@link #addIssueAttribution}).
     */
    public java.util.Map<Integer, IssueAttribution> issueAttribution(long runPk) {
        java.util.Map<Integer, IssueAttribution> out = new java.util.TreeMap<>();
        jdbc.query("SELECT round_no, SUM(issues_reattributed), SUM(issues_derived) FROM sb_review WHERE run_pk = ?"
                        + " GROUP BY round_no",
                rs -> {
                    out.put(rs.getInt(1), new IssueAttribution(rs.getLong(2), rs.getLong(3)));
                },
                runPk);
        jdbc.query("SELECT round_no, SUM(issues_reattributed), SUM(issues_derived) FROM sb_issue_attribution WHERE run_pk = ?"
                        + " GROUP BY round_no",
                rs -> {
                    out.merge(rs.getInt(1), new IssueAttribution(rs.getLong(2), rs.getLong(3)), IssueAttribution::plus);
                },
                runPk);
        new LearnedRuleStore(jdbc).issueAttribution(runPk).forEach((round, a) -> out.merge(round, a, IssueAttribution::plus));
        return out;
    }

    /** Adds issues attributed in reviews of a round that are not stored as reviews (in the caller's transaction). */
    public void addIssueAttribution(long runPk, int round, String source, IssueAttribution a) {
        if (a.reattributed() == 0 && a.derivedFromDetail() == 0) {
            return;
        }
        int n = jdbc.update("UPDATE sb_issue_attribution SET issues_reattributed = issues_reattributed + ?,"
                        + " issues_derived = issues_derived + ? WHERE run_pk = ? AND round_no = ? AND source = ?",
                a.reattributed(), a.derivedFromDetail(), runPk, round, source);
        if (n == 0) {
            jdbc.update("INSERT INTO sb_issue_attribution (run_pk, round_no, source, issues_reattributed, issues_derived)"
                    + " VALUES (?, ?, ?, ?, ?)", runPk, round, source, a.reattributed(), a.derivedFromDetail());
        }
    }

    /** The issues the review validator attributed in a panel's reviews. */
    public static IssueAttribution attributed(List<dev.santabatch.review.PanelReview> reviews) {
        long re = 0;
        long derived = 0;
        for (dev.santabatch.review.PanelReview r : reviews) {
            if (r.outcome() instanceof dev.santabatch.review.ReviewOutcome.Reviewed ok) {
                re += ok.reattributedIssues();
                derived += ok.derivedIssues();
            }
        }
        return new IssueAttribution(re, derived);
    }

    public void insertReviews(long runPk, int round, List<ReviewRow> rows) {
        jdbc.batchUpdate(
                "INSERT INTO sb_review (run_pk, round_no, item_id, rev, iteration, reviewer, outcome, verdict, review_json,"
                        + " failure, duration_ms, issues_reattributed, issues_derived) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                rows,
                1000,
                (ps, r) -> {
                    ps.setLong(1, runPk);
                    ps.setInt(2, round);
                    ps.setString(3, r.itemId());
                    ps.setInt(4, r.rev());
                    ps.setInt(5, r.iteration());
                    ps.setString(6, r.reviewer());
                    ps.setString(7, r.outcome());
                    ps.setString(8, r.verdict());
                    ps.setString(9, r.reviewJson());
                    ps.setString(10, r.failure());
                    ps.setLong(11, r.durationMillis());
                    ps.setInt(12, r.issuesReattributed());
                    ps.setInt(13, r.issuesDerived());
                });
    }

    /**
     * Stores one review-0 answer as it arrives, in place of whatever is stored under its key (the
     * item, revision, iteration, reviewer and round): a failed attempt's TRANSPORT or INVALID_ANSWER
     * row for that reviewer, or a stored review the retry did not reuse. The delete and the insert
     * are one transaction, so the key never holds both nor neither. The issues attributed in a
     * replaced answer stay counted ({@link #deleteReviews}).
     */
    public void replaceReview(long runPk, int round, ReviewRow row) {
        new org.springframework.transaction.support.TransactionTemplate(new org.springframework.jdbc.datasource.DataSourceTransactionManager(
                java.util.Objects.requireNonNull(jdbc.getDataSource(), "dataSource"))).executeWithoutResult(status -> {
                    deleteReviews(runPk, List.of(row), "round_no = ? AND item_id = ? AND rev = ? AND iteration = ? AND reviewer = ?",
                            round, row.itemId(), row.rev(), row.iteration(), row.reviewer());
                    insertReviews(runPk, round, List.of(row));
                });
    }

    public record IssueRow(String itemId, int seq, @Nullable String criterion, String text, String flaggedBy) {}

    public void insertIssues(long runPk, int round, List<IssueRow> rows) {
        jdbc.batchUpdate(
                "INSERT INTO sb_issue (run_pk, round_no, item_id, seq, criterion, text, flagged_by) VALUES (?, ?, ?, ?, ?, ?, ?)",
                rows,
                1000,
                (ps, r) -> {
                    ps.setLong(1, runPk);
                    ps.setInt(2, round);
                    ps.setString(3, r.itemId());
                    ps.setInt(4, r.seq());
                    ps.setString(5, r.criterion());
                    ps.setString(6, r.text());
                    ps.setString(7, r.flaggedBy());
                });
    }

    public List<IssueRow> issues(long runPk, int round) {
        return jdbc.query(
                "SELECT item_id, seq, criterion, text, flagged_by FROM sb_issue WHERE run_pk = ? AND round_no = ?"
                        + " ORDER BY item_id, seq",
                (rs, n) -> new IssueRow(rs.getString(1), rs.getInt(2), rs.getString(3), rs.getString(4), rs.getString(5)),
                runPk, round);
    }

    /**
     * The review-0 reviews of a round's sampled items: per item, the completed reviews of the
     * revision it was sampled at, stored in this round or reused from an earlier one (a reviewer's
     * latest such review), by item and reviewer. For kappa.
     */
    public List<ReviewRow> firstReviews(long runPk, int round) {
        List<ReviewRow> rows = jdbc.query(
                "SELECT r.item_id, r.rev, r.iteration, r.reviewer, r.outcome, r.verdict, r.review_json, r.failure,"
                        + " r.duration_ms FROM sb_sample s JOIN sb_review r ON r.run_pk = s.run_pk AND r.item_id = s.item_id"
                        + " AND r.rev = s.rev AND r.iteration = 0 AND r.round_no <= s.round_no"
                        + " WHERE s.run_pk = ? AND s.round_no = ? AND r.outcome = 'REVIEWED'"
                        + " ORDER BY r.item_id, r.reviewer, r.round_no",
                (rs, n) -> new ReviewRow(rs.getString(1), rs.getInt(2), rs.getInt(3), rs.getString(4), rs.getString(5),
                        rs.getString(6), rs.getString(7), rs.getString(8), rs.getLong(9)),
                runPk, round);
        java.util.Map<List<String>, ReviewRow> latest = new java.util.LinkedHashMap<>();
        rows.forEach(r -> latest.put(List.of(r.itemId(), r.reviewer()), r));
        return new ArrayList<>(latest.values());
    }

    /**
     * The completed reviews stored for {@code rev} of an item in a review 0 (of any round of the
     * run), by reviewer (the latest per reviewer): the reviews a review of that same revision reuses
     * instead of calling those reviewers again. Reviews of a later iteration are never returned: they
     * are of a fix's text, and the fix of an attempt that was not kept is made again.
     */
    public java.util.Map<String, String> storedFirstReviews(long runPk, String itemId, int rev) {
        java.util.Map<String, String> out = new java.util.LinkedHashMap<>();
        jdbc.query("SELECT reviewer, review_json FROM sb_review WHERE run_pk = ? AND item_id = ? AND rev = ?"
                        + " AND iteration = 0 AND outcome = 'REVIEWED' AND review_json IS NOT NULL ORDER BY round_no",
                rs -> {
                    out.put(rs.getString(1), rs.getString(2));
                },
                runPk, itemId, rev);
        return out;
    }

    /**
     * Removes an item's reviews of {@code round} before a retried attempt's reviews are stored,
     * except the review-0 reviews of {@code rev} by {@code keep} (reused by the retry, so still its
     * reviews). {@code rewritten} are the reviews the caller stores next (the answers kept as they
     * came are among them): the issues attributed in the others stay counted ({@link #deleteReviews}).
     */
    public void deleteSupersededReviews(long runPk, int round, String itemId, int rev, java.util.Collection<String> keep,
            List<ReviewRow> rewritten) {
        if (keep.isEmpty()) {
            deleteReviews(runPk, rewritten, "round_no = ? AND item_id = ?", round, itemId);
            return;
        }
        List<Object> args = new ArrayList<>(List.of(round, itemId, rev));
        args.addAll(keep);
        deleteReviews(runPk, rewritten, "round_no = ? AND item_id = ? AND (iteration <> 0 OR rev <> ? OR reviewer NOT IN ("
                + String.join(", ", java.util.Collections.nCopies(keep.size(), "?")) + "))", args.toArray());
    }

    /**
     * Deletes the run's reviews matching {@code where}. The issues the validator re-attributed or
     * derived in a deleted answer were asked for and answered, so the report keeps counting them
     * (attribution of source {@code superseded}, in the caller's transaction), unless the caller
     * stores the same answer again: a row of {@code rewritten} with its revision, iteration,
     * reviewer and review.
     */
    private void deleteReviews(long runPk, List<ReviewRow> rewritten, String where, Object... args) {
        java.util.Set<List<Object>> again = new java.util.HashSet<>();
        rewritten.forEach(r -> again.add(java.util.Arrays.asList(r.rev(), r.iteration(), r.reviewer(), r.reviewJson())));
        List<Object> all = new ArrayList<>();
        all.add(runPk);
        all.addAll(List.of(args));
        java.util.Map<Integer, IssueAttribution> superseded = new java.util.TreeMap<>();
        jdbc.query("SELECT round_no, rev, iteration, reviewer, review_json, issues_reattributed, issues_derived FROM sb_review"
                        + " WHERE run_pk = ? AND " + where,
                rs -> {
                    if (!again.contains(java.util.Arrays.asList(rs.getInt(2), rs.getInt(3), rs.getString(4), rs.getString(5)))) {
                        superseded.merge(rs.getInt(1), new IssueAttribution(rs.getLong(6), rs.getLong(7)), IssueAttribution::plus);
                    }
                },
                all.toArray());
        superseded.forEach((round, a) -> addIssueAttribution(runPk, round, "superseded", a));
        jdbc.update("DELETE FROM sb_review WHERE run_pk = ? AND " + where, all.toArray());
    }

    /** Reviews stored by the given reviewers (every iteration and round). */
    public long countReviews(long runPk, java.util.Collection<String> reviewers) {
        if (reviewers.isEmpty()) {
            return 0;
        }
        String in = String.join(", ", java.util.Collections.nCopies(reviewers.size(), "?"));
        List<Object> args = new ArrayList<>();
        args.add(runPk);
        args.addAll(reviewers);
        Long n = jdbc.queryForObject("SELECT COUNT(*) FROM sb_review WHERE run_pk = ? AND reviewer IN (" + in + ")",
                Long.class, args.toArray());
        return n == null ? 0 : n;
    }

    /**
     * Removes an item's reviews after a fix that was never kept, from any round: reviews of a
     * revision above {@code baseRev}, the item's current revision (a kept fix would have made its
     * revision current). Called when a new attempt on {@code baseRev} is written: an item left
     * unreviewed after a fix and resampled later has that fix made and reviewed again, and its
     * reviews are stored under the same revision and iteration numbers ({@code rewritten}: as in
     * {@link #deleteSupersededReviews}).
     */
    public void deleteUnkeptFixReviews(long runPk, String itemId, int baseRev, List<ReviewRow> rewritten) {
        deleteReviews(runPk, rewritten, "item_id = ? AND rev > ? AND iteration > 0", itemId, baseRev);
    }

    public long countReviews(long runPk) {
        Long n = jdbc.queryForObject("SELECT COUNT(*) FROM sb_review WHERE run_pk = ?", Long.class, runPk);
        return n == null ? 0 : n;
    }

    // ---------------------------------------------------------------- patterns

    public record PatternRow(int patternNo, String criterion, String label, List<String> items, double share,
            boolean systematic, long matched, long fixed, long escalated) {

        /** The pattern's id, {@code r<round>-p<n>}: {@code report.json}'s {@code rounds[].patterns[].id}. */
        public String id(int round) {
            return id(round, patternNo);
        }

        /** The id of pattern {@code patternNo} of {@code round}. */
        public static String id(int round, int patternNo) {
            return "r" + round + "-p" + patternNo;
        }

        /**
         * How {@code changes.csv} and {@code escalations.csv} name the patterns of a batch-fix
         * revision or escalation: each as its id, criterion and label ({@code r1-p2 original: <label>},
         * the label without its own criterion prefix), several joined by {@code " | "}.
         */
        public static String describe(int round, List<PatternRow> patterns) {
            return String.join(" | ", patterns.stream().map(p -> p.id(round) + " " + p.issue()).toList());
        }

        /**
         * The pattern as an issue, without its id: its criterion and label ({@code original: <label>},
         * the label without its own criterion prefix). What a fixer is shown of it: the run's
         * pattern ids mean nothing to a model.
         */
        public String issue() {
            return criterion + ": " + (dev.santabatch.text.IssueText.criterion(label).filter(criterion::equals).isPresent()
                    ? dev.santabatch.text.IssueText.body(label)
                    : label);
        }
    }

    public void replacePatterns(long runPk, int round, List<PatternRow> rows) {
        jdbc.update("DELETE FROM sb_pattern WHERE run_pk = ? AND round_no = ?", runPk, round);
        for (PatternRow p : rows) {
            jdbc.update(
                    "INSERT INTO sb_pattern (run_pk, round_no, pattern_no, criterion, label, items, item_count, sample_share,"
                            + " systematic, matched, fixed, escalated) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 0, 0, 0)",
                    runPk, round, p.patternNo(), p.criterion(), p.label(), String.join("\n", p.items()), p.items().size(),
                    p.share(), p.systematic());
        }
    }

    public List<PatternRow> patterns(long runPk, int round) {
        return jdbc.query(
                "SELECT pattern_no, criterion, label, items, sample_share, systematic, matched, fixed, escalated FROM sb_pattern"
                        + " WHERE run_pk = ? AND round_no = ? ORDER BY pattern_no",
                (rs, n) -> new PatternRow(rs.getInt(1), rs.getString(2), rs.getString(3),
                        rs.getString(4).isEmpty() ? List.of() : new ArrayList<>(List.of(rs.getString(4).split("\n"))),
                        rs.getDouble(5), rs.getBoolean(6), rs.getLong(7), rs.getLong(8), rs.getLong(9)),
                runPk, round);
    }

    public void addPatternCounts(long runPk, int round, int patternNo, long matched, long fixed, long escalated) {
        jdbc.update(
                "UPDATE sb_pattern SET matched = matched + ?, fixed = fixed + ?, escalated = escalated + ?"
                        + " WHERE run_pk = ? AND round_no = ? AND pattern_no = ?",
                matched, fixed, escalated, runPk, round, patternNo);
    }
}
