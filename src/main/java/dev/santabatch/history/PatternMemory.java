package dev.santabatch.history;

import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Which of a run's failure patterns the job has seen before. A pattern is <em>seen again</em> when
 * an earlier run of the same job (any run of the job created before it, on the same store) had a
 * pattern with the same criterion and label, compared without regard to case and runs of
 * whitespace; otherwise it is <em>new</em>. A run's patterns are those of every round, each
 * counted once.
 */
public final class PatternMemory {

    /** A failure pattern as the store keeps it ({@code sb_pattern}): its criterion and label. */
    public record Pattern(String criterion, String label) {}

    /** A run's distinct patterns: how many are new, how many were seen again. */
    public record Counts(int fresh, int seenAgain) {}

    private PatternMemory() {}

    /**
     * The matching itself: tonight's patterns against every earlier run's. Kept in this one
     * function so another matching (by meaning, say) replaces it alone.
     */
    public static Counts match(Collection<Pattern> tonight, Collection<Pattern> earlier) {
        Set<String> known = new HashSet<>();
        earlier.forEach(p -> known.add(key(p)));
        Set<String> mine = new HashSet<>();
        tonight.forEach(p -> mine.add(key(p)));
        int again = (int) mine.stream().filter(known::contains).count();
        return new Counts(mine.size() - again, again);
    }

    private static String key(Pattern p) {
        return normalise(p.criterion()) + "\n" + normalise(p.label());
    }

    private static String normalise(String s) {
        return s.strip().replaceAll("\\s+", " ").toLowerCase(Locale.ROOT);
    }

    /** The run's patterns against those of the job's runs created before it, from the store. */
    public static Counts of(JdbcTemplate jdbc, String jobName, long runPk) {
        List<Pattern> tonight = jdbc.query("SELECT criterion, label FROM sb_pattern WHERE run_pk = ?",
                (rs, n) -> new Pattern(rs.getString(1), rs.getString(2)), runPk);
        if (tonight.isEmpty()) {
            return new Counts(0, 0);
        }
        List<Pattern> earlier = jdbc.query("SELECT DISTINCT p.criterion, p.label FROM sb_pattern p JOIN sb_run r ON r.run_pk = p.run_pk"
                        + " WHERE r.job_name = ? AND p.run_pk < ?",
                (rs, n) -> new Pattern(rs.getString(1), rs.getString(2)), jobName, runPk);
        return match(tonight, earlier);
    }
}
