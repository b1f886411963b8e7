package dev.santabatch.model;

import java.util.Map;
import java.util.TreeMap;

/**
 * What the governor has counted: for the report, and stored with the run so that a resumed run
 * counts spend cumulatively ({@link CallGovernor}'s constructor takes it back).
 *
 * @param round the current round (0 before the first {@link CallGovernor#startRound(int)})
 * @param run the whole run
 * @param rounds per round, by round number
 */
public record SpendSnapshot(int round, Tally run, Map<Integer, Tally> rounds) {

    /** Nothing spent yet. */
    public static final SpendSnapshot NONE = new SpendSnapshot(0, Tally.EMPTY, Map.of());

    public SpendSnapshot {
        rounds = java.util.Collections.unmodifiableMap(new TreeMap<>(rounds));
    }

    /** The current round's tally (empty if nothing was spent in it). */
    public Tally currentRound() {
        return rounds.getOrDefault(round, Tally.EMPTY);
    }
}
