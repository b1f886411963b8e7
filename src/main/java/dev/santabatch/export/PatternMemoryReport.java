package dev.santabatch.export;

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

    /** The block; {@code rounds[].patterns} carry the labels of tonight's patterns seen before ({@link RunReport#build}). */
    static Map<String, Object> block(PatternMemory.Memory m, String matchedBy) {
        Map<String, Object> block = new LinkedHashMap<>();
        block.put("earlier_runs", m.earlierRuns());
        block.put("matched_by", matchedBy);
        block.put("seen_again", m.seenAgain().size());
        block.put("new", m.fresh().size());
        block.put("not_seen", m.notSeen().size());
        block.put("not_seen_since_run", m.notSeenSince());
        block.put("seen_again_patterns", m.seenAgain().stream().map(s -> RunReport.ordered("patterns", s.patterns(),
                "criterion", s.criterion(), "label", s.label(), "label_tonight", s.labelTonight(), "first_seen_in",
                s.firstSeenIn(), "last_seen_in", s.lastSeenIn())).toList());
        block.put("new_patterns", groups(m.fresh()));
        block.put("not_seen_patterns", groups(m.notSeen()));
        return block;
    }

    private static List<Map<String, Object>> groups(List<PatternMemory.Group> groups) {
        return groups.stream().map(g -> RunReport.ordered("patterns", g.patterns(), "criterion", g.criterion(),
                "label", g.label())).toList();
    }

    /** The summary's line: how many patterns were seen again (and where first), new, and not seen since the last run. */
    public static List<String> summary(@org.jspecify.annotations.Nullable Map<String, Object> m) {
        if (m == null) {
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
