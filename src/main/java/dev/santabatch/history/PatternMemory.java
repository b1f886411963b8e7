package dev.santabatch.history;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.BiPredicate;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Which of a run's failure patterns the job has seen before. Two patterns are <em>the same</em>
 * when they name the same criterion and their labels are equal without regard to case and runs of
 * whitespace, or similar by the job's pattern similarity (the test that joins two failures into one
 * pattern within a run, given by the caller). A run's patterns are those of every round, the same
 * ones counted once. A pattern is <em>seen again</em> when an earlier run of the same job (any run
 * of the job created before it, on the same store) had the same pattern; it is then known by the
 * label it had when first seen. Otherwise it is <em>new</em>. The patterns of the job's last
 * exported run before it that it does not have are <em>not seen</em> tonight.
 */
public final class PatternMemory {

    /** A failure pattern as the store keeps it ({@code sb_pattern}): its criterion and label. */
    public record Pattern(String criterion, String label) {}

    /** A run's distinct patterns: how many are new, how many were seen again. */
    public record Counts(int fresh, int seenAgain) {}

    /**
     * A pattern of a run.
     *
     * @param id its id in the run: {@code r<round>-p<n>}
     */
    public record RunPattern(String runId, String id, String criterion, String label) {}

    /**
     * Tonight's pattern that an earlier run had.
     *
     * @param label its label when first seen
     * @param labelTonight its label tonight (the first of {@code patterns})
     * @param patterns tonight's patterns that are it
     * @param firstSeenIn the earliest run that had it
     * @param lastSeenIn the latest earlier run that had it
     */
    public record SeenAgain(String criterion, String label, String labelTonight, List<String> patterns, String firstSeenIn,
            String lastSeenIn) {}

    /** A pattern of one run, the same ones together: its criterion, its first label, the patterns that are it. */
    public record Group(String criterion, String label, List<String> patterns) {}

    /**
     * A run's patterns against the job's earlier runs'.
     *
     * @param earlierRuns the earlier runs of the job that had patterns
     * @param fresh tonight's patterns no earlier run had
     * @param notSeenSince the job's last exported run before this one; {@code null} when none
     * @param notSeen that run's patterns this one does not have
     */
    public record Memory(int earlierRuns, List<SeenAgain> seenAgain, List<Group> fresh, @Nullable String notSeenSince,
            List<Group> notSeen) {

        public Counts counts() {
            return new Counts(fresh.size(), seenAgain.size());
        }
    }

    /** Labels compared as text only (case and spacing aside). */
    public static final BiPredicate<String, String> EXACT = (a, b) -> false;

    private PatternMemory() {}

    /** {@link #match(List, List, String, BiPredicate)} by text alone, counted. */
    public static Counts match(Collection<Pattern> tonight, Collection<Pattern> earlier) {
        return match(tonight.stream().map(p -> new RunPattern("", "", p.criterion(), p.label())).toList(),
                earlier.stream().map(p -> new RunPattern("", "", p.criterion(), p.label())).toList(), null, EXACT).counts();
    }

    /**
     * The matching itself: tonight's patterns against the earlier runs'.
     *
     * @param earlier the earlier runs' patterns, oldest run first
     * @param since the run whose patterns tonight has not seen are listed ({@code null}: none)
     * @param similarLabels whether two labels name one problem, beyond equal text
     */
    public static Memory match(List<RunPattern> tonight, List<RunPattern> earlier, @Nullable String since,
            BiPredicate<String, String> similarLabels) {
        BiPredicate<RunPattern, RunPattern> same = (a, b) -> normalise(a.criterion()).equals(normalise(b.criterion()))
                && (normalise(a.label()).equals(normalise(b.label())) || similarLabels.test(a.label(), b.label()));
        List<SeenAgain> again = new ArrayList<>();
        List<Group> fresh = new ArrayList<>();
        for (Group g : groups(tonight, same)) {
            RunPattern mine = new RunPattern("", "", g.criterion(), g.label());
            List<RunPattern> matches = earlier.stream().filter(e -> same.test(mine, e)).toList();
            if (matches.isEmpty()) {
                fresh.add(g);
            } else {
                RunPattern first = matches.get(0);
                again.add(new SeenAgain(g.criterion(), first.label(), g.label(), g.patterns(), first.runId(),
                        matches.get(matches.size() - 1).runId()));
            }
        }
        List<Group> notSeen = new ArrayList<>();
        if (since != null) {
            for (Group g : groups(earlier.stream().filter(e -> since.equals(e.runId())).toList(), same)) {
                RunPattern theirs = new RunPattern(since, "", g.criterion(), g.label());
                if (tonight.stream().noneMatch(t -> same.test(t, theirs))) {
                    notSeen.add(g);
                }
            }
        }
        int runs = (int) earlier.stream().map(RunPattern::runId).distinct().count();
        return new Memory(runs, List.copyOf(again), List.copyOf(fresh), since, List.copyOf(notSeen));
    }

    /** One run's patterns, each joined to the first before it that is the same pattern. */
    private static List<Group> groups(List<RunPattern> patterns, BiPredicate<RunPattern, RunPattern> same) {
        Map<RunPattern, List<String>> groups = new LinkedHashMap<>();
        for (RunPattern p : patterns) {
            RunPattern head = groups.keySet().stream().filter(h -> same.test(h, p)).findFirst().orElse(p);
            groups.computeIfAbsent(head, k -> new ArrayList<>()).add(p.id());
        }
        List<Group> out = new ArrayList<>();
        groups.forEach((h, ids) -> out.add(new Group(h.criterion(), h.label(), List.copyOf(ids))));
        return out;
    }

    private static String normalise(String s) {
        return s.strip().replaceAll("\\s+", " ").toLowerCase(Locale.ROOT);
    }

    /**
     * The run's patterns against those of the job's runs created before it, from the store; the
     * patterns not seen are those of the job's last exported run before it.
     */
    public static Memory of(JdbcTemplate jdbc, String jobName, long runPk, BiPredicate<String, String> similarLabels) {
        org.springframework.jdbc.core.RowMapper<RunPattern> row = (rs, n) -> new RunPattern(rs.getString(1),
                "r" + rs.getInt(2) + "-p" + rs.getInt(3), rs.getString(4), rs.getString(5));
        String select = "SELECT r.run_id, p.round_no, p.pattern_no, p.criterion, p.label FROM sb_pattern p"
                + " JOIN sb_run r ON r.run_pk = p.run_pk";
        List<RunPattern> tonight = jdbc.query(select + " WHERE p.run_pk = ? ORDER BY p.round_no, p.pattern_no", row, runPk);
        List<RunPattern> earlier = jdbc.query(select + " WHERE r.job_name = ? AND p.run_pk < ?"
                + " ORDER BY p.run_pk, p.round_no, p.pattern_no", row, jobName, runPk);
        String since = jdbc.queryForList("SELECT run_id FROM sb_run WHERE job_name = ? AND run_pk < ? AND exported_at IS NOT NULL"
                + " ORDER BY run_pk DESC", String.class, jobName, runPk).stream().findFirst().orElse(null);
        return match(tonight, earlier, since, similarLabels);
    }
}
