package dev.santabatch.stats;

import dev.santabatch.review.MergedIssue;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.TreeMap;

/**
 * Reviewer agreement on issues (the seed's "% of issues flagged by both reviewers vs. only one"):
 * from merged, de-duplicated issues and the reviewers that flagged each.
 *
 * <pre>
 * flaggedByAll  = issues whose flaggedBy holds every panel member
 * flaggedByOne  = issues flagged by exactly one reviewer
 * flaggedBySome = the others (only with three or more reviewers: more than one, not all)
 * shareByAll    = flaggedByAll / issues   (undefined with no issues)
 * </pre>
 *
 * Low agreement suggests the rubric needs tightening. Immutable; combine per-item values with
 * {@link #plus}.
 *
 * @param panelSize reviewers in the panel
 * @param issues merged issues counted
 * @param flaggedByAll flagged by every reviewer ("by both" for two)
 * @param flaggedByOne flagged by exactly one reviewer
 * @param flaggedBySome flagged by more than one but not all
 * @param onlyBy per reviewer id, the issues flagged by that reviewer alone (sorted by id)
 */
public record Agreement(
        int panelSize, long issues, long flaggedByAll, long flaggedByOne, long flaggedBySome, Map<String, Long> onlyBy) {

    public Agreement {
        if (panelSize < 1) {
            throw new IllegalArgumentException("panel size must be >= 1, was " + panelSize);
        }
        onlyBy = Map.copyOf(new TreeMap<>(onlyBy));
    }

    /** No issues yet. */
    public static Agreement empty(int panelSize) {
        return new Agreement(panelSize, 0, 0, 0, 0, Map.of());
    }

    /** Counts {@code merged} issues for a panel of {@code panelSize} reviewers. */
    public static Agreement of(Collection<MergedIssue> merged, int panelSize) {
        return ofFlaggedBy(merged.stream().map(MergedIssue::flaggedBy).toList(), panelSize);
    }

    /** Counts issues given as the sets of reviewer ids that flagged each. */
    public static Agreement ofFlaggedBy(List<Set<String>> flaggedBy, int panelSize) {
        long all = 0;
        long one = 0;
        long some = 0;
        TreeMap<String, Long> only = new TreeMap<>();
        for (Set<String> by : flaggedBy) {
            if (by.isEmpty()) {
                throw new IllegalArgumentException("an issue flagged by nobody");
            }
            if (by.size() > panelSize) {
                throw new IllegalArgumentException("an issue flagged by " + by.size() + " of " + panelSize + " reviewers");
            }
            if (by.size() == panelSize) {
                all++;
            } else if (by.size() == 1) {
                one++;
            } else {
                some++;
            }
            if (by.size() == 1 && panelSize > 1) {
                only.merge(by.iterator().next(), 1L, Long::sum);
            }
        }
        return new Agreement(panelSize, flaggedBy.size(), all, one, some, only);
    }

    /** The sum of two counts for the same panel. */
    public Agreement plus(Agreement other) {
        if (other.panelSize != panelSize) {
            throw new IllegalArgumentException("panel sizes differ: " + panelSize + " and " + other.panelSize);
        }
        TreeMap<String, Long> only = new TreeMap<>(onlyBy);
        other.onlyBy.forEach((k, v) -> only.merge(k, v, Long::sum));
        return new Agreement(panelSize, issues + other.issues, flaggedByAll + other.flaggedByAll,
                flaggedByOne + other.flaggedByOne, flaggedBySome + other.flaggedBySome, only);
    }

    /** flaggedByAll / issues; empty with no issues. */
    public OptionalDouble shareByAll() {
        return issues == 0 ? OptionalDouble.empty() : OptionalDouble.of((double) flaggedByAll / issues);
    }

    /** flaggedByOne / issues; empty with no issues. */
    public OptionalDouble shareByOne() {
        return issues == 0 ? OptionalDouble.empty() : OptionalDouble.of((double) flaggedByOne / issues);
    }
}
