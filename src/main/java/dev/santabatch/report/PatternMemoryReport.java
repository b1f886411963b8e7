package dev.santabatch.report;

import dev.santabatch.history.PatternMemory;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code report.json}'s {@code pattern_memory}: the run's failure patterns against the job's earlier
 * runs' ({@link PatternMemory}): seen again (with the run that first had them and the label they had
 * there, which also labels tonight's patterns in {@code rounds[].patterns}), new, and the last
 * exported run's patterns not seen tonight. Its counts are those {@code history} lists.
 */
public final class PatternMemoryReport {

    private PatternMemoryReport() {}

    /** The report with the block after {@code learned_rules}, and tonight's patterns seen before labelled. */
    public static Map<String, Object> apply(Map<String, Object> report, PatternMemory.Memory m, String matchedBy) {
        Map<String, Object> block = new LinkedHashMap<>();
        block.put("earlier_runs", m.earlierRuns());
        block.put("matched_by", matchedBy);
        block.put("seen_again", m.seenAgain().size());
        block.put("new", m.fresh().size());
        block.put("not_seen", m.notSeen().size());
        block.put("not_seen_since_run", m.notSeenSince());
        List<Map<String, Object>> again = new ArrayList<>();
        Map<String, PatternMemory.SeenAgain> byPattern = new LinkedHashMap<>();
        for (PatternMemory.SeenAgain s : m.seenAgain()) {
            again.add(RunReport.ordered("patterns", s.patterns(), "criterion", s.criterion(), "label", s.label(),
                    "label_tonight", s.labelTonight(), "first_seen_in", s.firstSeenIn(), "last_seen_in", s.lastSeenIn()));
            s.patterns().forEach(p -> byPattern.put(p, s));
        }
        block.put("seen_again_patterns", again);
        block.put("new_patterns", groups(m.fresh()));
        block.put("not_seen_patterns", groups(m.notSeen()));
        for (Object round : report.get("rounds") instanceof List<?> l ? l : List.of()) {
            for (Object p : ((Map<?, ?>) round).get("patterns") instanceof List<?> ps ? ps : List.of()) {
                @SuppressWarnings("unchecked")
                Map<String, Object> pattern = (Map<String, Object>) p;
                PatternMemory.SeenAgain s = byPattern.get(String.valueOf(pattern.get("id")));
                if (s != null) {
                    pattern.put("first_seen_in", s.firstSeenIn());
                    pattern.put("known_as", s.label());
                }
            }
        }
        return RunReport.after(report, "learned_rules", "pattern_memory", block);
    }

    private static List<Map<String, Object>> groups(List<PatternMemory.Group> groups) {
        return groups.stream().map(g -> RunReport.ordered("patterns", g.patterns(), "criterion", g.criterion(),
                "label", g.label())).toList();
    }

    /** The summary's line: how many patterns were seen again (and where first), new, and not seen since the last run. */
    public static List<String> summary(Map<String, Object> report) {
        if (!(report.get("pattern_memory") instanceof Map<?, ?> m)) {
            return List.of();
        }
        List<String> first = new ArrayList<>();
        for (Object o : m.get("seen_again_patterns") instanceof List<?> l ? l : List.of()) {
            Map<?, ?> s = (Map<?, ?>) o;
            first.add(String.join("+", ((List<?>) s.get("patterns")).stream().map(String::valueOf).toList()) + " first seen in '"
                    + s.get("first_seen_in") + "'");
        }
        return List.of("patterns: " + m.get("seen_again") + " seen again" + (first.isEmpty() ? "" : " (" + String.join(", ", first) + ")")
                + ", " + m.get("new") + " new" + (m.get("not_seen_since_run") == null ? ""
                        : "; " + m.get("not_seen") + " of run '" + m.get("not_seen_since_run") + "' not seen tonight")
                + " (of " + m.get("earlier_runs") + " earlier run(s) of the job)");
    }
}
