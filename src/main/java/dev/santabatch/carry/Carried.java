package dev.santabatch.carry;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * What an earlier run left of an item that is carried over.
 *
 * @param kind the outcome it inherits
 * @param fromRunPk the run it comes from
 * @param runs the runs in a row it has been carried, this one included (1: the earlier run reviewed it)
 * @param text its current text there (the shipped one; for a held item the last that passed the rules);
 *     {@code null}: its content as ingested, unchanged there
 * @param held for a held item, why it is held; {@code null} otherwise
 */
public record Carried(CarryKind kind, long fromRunPk, int runs, @Nullable String text, @Nullable Held held) {

    /**
     * Why a carried item is held, as the earlier run's {@code escalations.csv} said.
     *
     * @param reason the escalation reason there ({@code MAX_ITERATIONS}, {@code FAIL_UNRESOLVED}, ...)
     * @param pattern the pattern it was held for there, if any
     * @param lastAttempt the last attempted fix there, if any
     * @param issues its open issues there
     */
    public record Held(@Nullable String reason, @Nullable String pattern, @Nullable String lastAttempt, List<String> issues) {
        public Held {
            issues = List.copyOf(issues);
        }
    }
}
