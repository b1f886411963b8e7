package dev.santabatch.export;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import dev.santabatch.history.PatternMemory;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * {@code report.json}'s {@code pattern_memory}: the run's failure patterns against the job's earlier
 * runs' ({@link PatternMemory}): seen again (with the run that first had them and the label they had
 * there, which also labels tonight's patterns in {@code rounds[].patterns}), new, and the last
 * exported run's patterns not seen tonight. Its counts are those {@code history} lists.
 */
public final class PatternMemoryReport {

    private PatternMemoryReport() {}

    /** The block; {@code rounds[].patterns} carry the labels of tonight's patterns seen before ({@link RunReport#build}). */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Block(int earlierRuns, String matchedBy, int seenAgain, @JsonProperty("new") int fresh, int notSeen,
            @Nullable String notSeenSinceRun, List<SeenAgain> seenAgainPatterns, List<Group> newPatterns,
            List<Group> notSeenPatterns) {}

    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record SeenAgain(List<String> patterns, String criterion, String label, String labelTonight,
            String firstSeenIn, String lastSeenIn) {}

    public record Group(List<String> patterns, String criterion, String label) {}

    static Block block(PatternMemory.Memory m, String matchedBy) {
        return new Block(m.earlierRuns(), matchedBy, m.seenAgain().size(), m.fresh().size(), m.notSeen().size(),
                m.notSeenSince(), m.seenAgain().stream().map(s -> new SeenAgain(s.patterns(), s.criterion(), s.label(),
                        s.labelTonight(), s.firstSeenIn(), s.lastSeenIn())).toList(), groups(m.fresh()),
                groups(m.notSeen()));
    }

    private static List<Group> groups(List<PatternMemory.Group> groups) {
        return groups.stream().map(g -> new Group(g.patterns(), g.criterion(), g.label())).toList();
    }

    /** The summary's line: how many patterns were seen again (and where first), new, and not seen since the last run. */
    public static List<String> summary(@Nullable Block m) {
        if (m == null) {
            return List.of();
        }
        List<String> first = m.seenAgainPatterns().stream()
                .map(s -> String.join("+", s.patterns()) + " first seen in '" + s.firstSeenIn() + "'").toList();
        return List.of("patterns: " + m.seenAgain() + " seen again" + (first.isEmpty() ? "" : " (" + String.join(", ", first) + ")")
                + ", " + m.fresh() + " new" + (m.notSeenSinceRun() == null ? ""
                        : "; " + m.notSeen() + " of run '" + m.notSeenSinceRun() + "' not seen tonight")
                + " (of " + m.earlierRuns() + " earlier run(s) of the job)");
    }
}
