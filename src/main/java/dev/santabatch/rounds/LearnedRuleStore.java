package dev.santabatch.rounds;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The learned rules of a run: one row per rule with its status and evidence, the reviews its
 * validation paid for (so that a restart reuses them and never pays twice), and its re-validation
 * on every later round's sample. Portable between H2 and PostgreSQL.
 */
public final class LearnedRuleStore {

    public static final String CANDIDATE = "candidate";
    public static final String REJECTED = "rejected";
    public static final String RETIRED = "retired";

    /** A review made to validate a rule: of a passed sampled item (fresh) or of an item the rule fixed (check). */
    public enum ReviewKind {
        FRESH,
        CHECK
    }

    /**
     * One learned rule and its evidence.
     *
     * @param fragment the rule as a job-file {@code rules:} entry
     * @param reason why it was rejected or retired
     * @param flagged eligible items it flagged when it was validated
     * @param cap the most eligible items it was allowed to flag
     * @param freshReviews passed sampled items it flagged that were reviewed again
     * @param checked unsampled items it fixed that both reviewers reviewed before it fixed the rest
     * @param checkFailed of those, the ones the reviewers failed on the pattern's criterion
     * @param fixed items it fixed (batch-fix revisions)
     * @param applied whether its fixes were written (a restart does not apply it again)
     * @param laterFlagged items of later rounds' samples it flags
     * @param laterConfirmed of those, the ones the reviewers failed on its criterion
     */
    public record Row(String ruleId, int round, int patternNo, String criterion, String shape, String fragment,
            String status, @Nullable String reason, int support, double looRecall, int flagged, int eligible, double cap,
            int freshReviews, int checked, int checkFailed, long fixed, boolean applied, int laterFlagged,
            int laterConfirmed) {

        /** Precision on later samples; null before a later sample flagged anything. */
        public @Nullable Double laterPrecision() {
            return laterFlagged == 0 ? null : laterConfirmed / (double) laterFlagged;
        }
    }

    /**
     * A learned rule of an earlier run of the job, as that run left it.
     *
     * @param learnedRunId the run that learned it: this run, or the one an earlier carry-in names
     * @param learnedRuleId its id there
     */
    public record EarlierRule(String runId, String ruleId, String criterion, String shape, String fragment, String status,
            int support, double looRecall, String learnedRunId, String learnedRuleId) {}

    /**
     * An earlier run's rule carried into a run ({@code learned-r1-m<n>}), with its re-validation on
     * the run's round-1 sample.
     *
     * @param fromRunId the earlier run whose row was carried in (the newest that has the rule)
     * @param learnedRunId the run that first learned it
     * @param fragment the rule under this run's id
     * @param flagged round 1's sampled items it flags
     * @param confirmed of those, the ones the reviewers failed on its criterion
     * @param patternNo round 1's pattern of its criterion holding most of the confirmed items; 0: none
     * @param verdict {@code revalidated}, {@code retired}, {@code no-evidence} or {@code too-little-evidence}
     */
    public record Remembered(String ruleId, String fromRunId, String fromRuleId, String learnedRunId,
            String learnedRuleId, String criterion, String shape, String fragment, int support, double looRecall,
            int flagged, int confirmed, int patternNo, String verdict) {

        /** Precision on round 1's sample; null when it flagged none of it. */
        public @Nullable Double precision() {
            return flagged == 0 ? null : confirmed / (double) flagged;
        }
    }

    private final JdbcTemplate jdbc;

    public LearnedRuleStore(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    private static final org.springframework.jdbc.core.RowMapper<Row> ROW = (rs, n) -> new Row(rs.getString(1),
            rs.getInt(2), rs.getInt(3), rs.getString(4), rs.getString(5), rs.getString(6), rs.getString(7),
            rs.getString(8), rs.getInt(9), rs.getDouble(10), rs.getInt(11), rs.getInt(12), rs.getDouble(13),
            rs.getInt(14), rs.getInt(15), rs.getInt(16), rs.getLong(17), rs.getBoolean(18), rs.getInt(19), rs.getInt(20));

    private static final String COLUMNS = "rule_id, round_no, pattern_no, criterion, shape, fragment, status, reason,"
            + " support, loo_recall, flagged, eligible, cap, fresh_reviews, checked, check_failed, fixed, applied,"
            + " later_flagged, later_confirmed";

    /** The run's learned rules, in the order they were learned. */
    public List<Row> rules(long runPk) {
        return jdbc.query("SELECT " + COLUMNS + " FROM sb_learned_rule WHERE run_pk = ? ORDER BY round_no, pattern_no",
                ROW, runPk);
    }

    public Optional<Row> rule(long runPk, String ruleId) {
        return jdbc.query("SELECT " + COLUMNS + " FROM sb_learned_rule WHERE run_pk = ? AND rule_id = ?", ROW, runPk,
                ruleId).stream().findFirst();
    }

    /** Writes a rule's row (replacing an earlier one of the same id). */
    public void save(long runPk, Row r) {
        jdbc.update("DELETE FROM sb_learned_rule WHERE run_pk = ? AND rule_id = ?", runPk, r.ruleId());
        jdbc.update("INSERT INTO sb_learned_rule (run_pk, " + COLUMNS + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?,"
                        + " ?, ?, ?, ?, ?, ?, ?, ?)",
                runPk, r.ruleId(), r.round(), r.patternNo(), r.criterion(), r.shape(), r.fragment(), r.status(), r.reason(),
                r.support(), r.looRecall(), r.flagged(), r.eligible(), r.cap(), r.freshReviews(), r.checked(),
                r.checkFailed(), r.fixed(), r.applied(), r.laterFlagged(), r.laterConfirmed());
    }

    /** The stored validation reviews of a rule of one kind: item id to whether the reviewers failed it. */
    public Map<String, Boolean> reviews(long runPk, String ruleId, ReviewKind kind) {
        Map<String, Boolean> out = new java.util.LinkedHashMap<>();
        jdbc.query("SELECT item_id, failed FROM sb_learned_review WHERE run_pk = ? AND rule_id = ? AND kind = ?",
                rs -> {
                    out.put(rs.getString(1), rs.getBoolean(2));
                },
                runPk, ruleId, kind.name());
        return out;
    }

    /**
     * The stored validation reviews of a rule of one kind that some reviewer failed, on any criterion:
     * item id to the FAILs, each as {@code <reviewer>: <issue>}.
     */
    public Map<String, List<String>> failIssues(long runPk, String ruleId, ReviewKind kind) {
        Map<String, List<String>> out = new java.util.LinkedHashMap<>();
        jdbc.query("SELECT item_id, fail_issues FROM sb_learned_review WHERE run_pk = ? AND rule_id = ? AND kind = ?"
                        + " AND fail_issues IS NOT NULL",
                rs -> {
                    out.put(rs.getString(1), List.of(rs.getString(2).split("\n")));
                },
                runPk, ruleId, kind.name());
        return out;
    }

    /**
     * The items a fresh review of one of a round's rules failed, on any criterion (and so flagged:
     * {@link dev.santabatch.rounds.FailOnCurrentText}). A round's rules are those whose id ({@link dev.santabatch.batchfix.LearnedRules#ruleId}) names it.
     */
    public java.util.Set<String> freshFailed(long runPk, int round) {
        return new java.util.HashSet<>(jdbc.queryForList("SELECT item_id FROM sb_learned_review WHERE run_pk = ? AND kind = ?"
                + " AND fail_issues IS NOT NULL AND rule_id LIKE ?", String.class, runPk, ReviewKind.FRESH.name(),
                "learned-r" + round + "-p%"));
    }

    /**
     * @param failed whether the panel failed the item on the rule's criterion
     * @param failIssues every FAIL of the panel's reviews, on any criterion ({@link dev.santabatch.rounds.FailOnCurrentText#issues}); empty when none
     * @param attributed the issues the review validator attributed in the panel's reviews of the item
     */
    public void saveReview(long runPk, String ruleId, String itemId, ReviewKind kind, boolean failed, List<String> failIssues,
            LoopStore.IssueAttribution attributed) {
        jdbc.update("INSERT INTO sb_learned_review (run_pk, rule_id, item_id, kind, failed, fail_issues, issues_reattributed,"
                        + " issues_derived) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                runPk, ruleId, itemId, kind.name(), failed, failIssues.isEmpty() ? null : String.join("\n", failIssues),
                attributed.reattributed(), attributed.derivedFromDetail());
    }

    /** The issues attributed in the validation reviews of each round's rules, by round (from the rule id). */
    public java.util.Map<Integer, LoopStore.IssueAttribution> issueAttribution(long runPk) {
        java.util.Map<Integer, LoopStore.IssueAttribution> out = new java.util.TreeMap<>();
        java.util.regex.Pattern id = java.util.regex.Pattern.compile("learned-r(\\d+)-[pm]\\d+");
        jdbc.query("SELECT rule_id, SUM(issues_reattributed), SUM(issues_derived) FROM sb_learned_review WHERE run_pk = ?"
                        + " GROUP BY rule_id",
                rs -> {
                    java.util.regex.Matcher m = id.matcher(rs.getString(1));
                    if (m.matches()) {
                        out.merge(Integer.parseInt(m.group(1)), new LoopStore.IssueAttribution(rs.getLong(2), rs.getLong(3)),
                                LoopStore.IssueAttribution::plus);
                    }
                },
                runPk);
        return out;
    }

    /** Whether a rule was re-validated on a round's sample. */
    public boolean checked(long runPk, String ruleId, int round) {
        Integer n = jdbc.queryForObject("SELECT COUNT(*) FROM sb_learned_check WHERE run_pk = ? AND rule_id = ? AND round_no = ?",
                Integer.class, runPk, ruleId, round);
        return n != null && n > 0;
    }

    /** Records a re-validation on a round's sample and adds it to the rule's later precision counts. */
    public void saveCheck(long runPk, String ruleId, int round, int flagged, int confirmed) {
        jdbc.update("INSERT INTO sb_learned_check (run_pk, rule_id, round_no, flagged, confirmed) VALUES (?, ?, ?, ?, ?)",
                runPk, ruleId, round, flagged, confirmed);
        jdbc.update("UPDATE sb_learned_rule SET later_flagged = later_flagged + ?, later_confirmed = later_confirmed + ?"
                + " WHERE run_pk = ? AND rule_id = ?", flagged, confirmed, runPk, ruleId);
    }

    /**
     * The learned rules of the job's earlier runs whose export finished, newest run first (within a
     * run, the latest round's first), each with the run that first learned it.
     */
    public List<EarlierRule> earlierRules(String jobName, long beforeRunPk) {
        return jdbc.query("SELECT r.run_id, l.rule_id, l.criterion, l.shape, l.fragment, l.status, l.support, l.loo_recall,"
                        + " m.learned_run_id, m.learned_rule_id FROM sb_learned_rule l JOIN sb_run r ON r.run_pk = l.run_pk"
                        + " LEFT JOIN sb_memory_rule m ON m.run_pk = l.run_pk AND m.rule_id = l.rule_id"
                        + " WHERE r.job_name = ? AND r.run_pk < ? AND r.exported_at IS NOT NULL"
                        + " ORDER BY r.run_pk DESC, l.round_no DESC, l.pattern_no DESC, l.rule_id DESC",
                (rs, n) -> new EarlierRule(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4),
                        rs.getString(5), rs.getString(6), rs.getInt(7), rs.getDouble(8),
                        rs.getString(9) != null ? rs.getString(9) : rs.getString(1),
                        rs.getString(10) != null ? rs.getString(10) : rs.getString(2)),
                jobName, beforeRunPk);
    }

    /** The rules carried into a run, in the order they were carried in. */
    public List<Remembered> remembered(long runPk) {
        return jdbc.query("SELECT rule_id, from_run_id, from_rule_id, learned_run_id, learned_rule_id, criterion, shape,"
                        + " fragment, support, loo_recall, flagged, confirmed, pattern_no, verdict FROM sb_memory_rule"
                        + " WHERE run_pk = ? ORDER BY carried_no",
                (rs, n) -> new Remembered(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4),
                        rs.getString(5), rs.getString(6), rs.getString(7), rs.getString(8), rs.getInt(9), rs.getDouble(10),
                        rs.getInt(11), rs.getInt(12), rs.getInt(13), rs.getString(14)),
                runPk);
    }

    public void saveRemembered(long runPk, int carriedNo, Remembered m) {
        jdbc.update("INSERT INTO sb_memory_rule (run_pk, rule_id, carried_no, from_run_id, from_rule_id, learned_run_id,"
                        + " learned_rule_id, criterion, shape, fragment, support, loo_recall, flagged, confirmed, pattern_no,"
                        + " verdict) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                runPk, m.ruleId(), carriedNo, m.fromRunId(), m.fromRuleId(), m.learnedRunId(), m.learnedRuleId(),
                m.criterion(), m.shape(), m.fragment(), m.support(), m.looRecall(), m.flagged(), m.confirmed(),
                m.patternNo(), m.verdict());
    }

    public void retire(long runPk, String ruleId, String reason) {
        jdbc.update("UPDATE sb_learned_rule SET status = ?, reason = ? WHERE run_pk = ? AND rule_id = ?", RETIRED, reason,
                runPk, ruleId);
    }
}
