package dev.santabatch.model;

import java.util.Map;
import java.util.TreeMap;

/**
 * Spend and errors of a run or a round.
 *
 * @param total all roles together
 * @param byRole per role ({@code reviewer:B}, {@code fixer}, {@code matcher}; see {@link LlmRoles})
 * @param errorsByKind counts by {@link ErrorKind#label()}
 */
public record Tally(CallCounts total, Map<String, CallCounts> byRole, Map<String, Long> errorsByKind) {

    public static final Tally EMPTY = new Tally(CallCounts.ZERO, Map.of(), Map.of());

    public Tally {
        byRole = java.util.Collections.unmodifiableMap(new TreeMap<>(byRole));
        errorsByKind = java.util.Collections.unmodifiableMap(new TreeMap<>(errorsByKind));
    }

    public long errors(ErrorKind kind) {
        return errorsByKind.getOrDefault(kind.label(), 0L);
    }

    public CallCounts role(String role) {
        return byRole.getOrDefault(role, CallCounts.ZERO);
    }
}
