package dev.santabatch.carry;

import dev.santabatch.persistence.ItemState;

/** The outcome an item inherits from an earlier run, as stored in {@code sb_item.carry}. */
public enum CarryKind {
    /** NICE on its final revision there: shipped with that revision, not reviewed again. */
    NICE(ItemState.NICE),
    /** Held for a person there ({@code escalations.csv}): held again, not reviewed again. */
    HELD(ItemState.ESCALATED),
    /**
     * Shipped there under a clean sample without a review of its own: carried with its shipped text
     * and eligible for sampling as any item.
     */
    COVERED(ItemState.ACTIVE);

    private final String state;

    CarryKind(String state) {
        this.state = state;
    }

    /** The name stored and reported ({@code nice}, {@code held}, {@code covered}): the lower-case name. */
    public String key() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }

    /** The item state a carried item of this kind has in the run that carried it. */
    public String state() {
        return state;
    }
}
