package dev.santabatch.carry;

/** The outcome an item inherits from an earlier run, as stored in {@code sb_item.carry}. */
public enum CarryKind {
    /** NICE on its final revision there: shipped with that revision, not reviewed again. */
    NICE("nice", "NICE"),
    /** Held for a person there ({@code escalations.csv}): held again, not reviewed again. */
    HELD("held", "ESCALATED"),
    /**
     * Shipped there under a clean sample without a review of its own: carried with its shipped text
     * and eligible for sampling as any item.
     */
    COVERED("covered", "ACTIVE");

    private final String key;
    private final String state;

    CarryKind(String key, String state) {
        this.key = key;
        this.state = state;
    }

    /** The name stored and reported ({@code nice}, {@code held}, {@code covered}). */
    public String key() {
        return key;
    }

    /** The item state a carried item of this kind has in the run that carried it. */
    public String state() {
        return state;
    }

    public static CarryKind ofKey(String key) {
        for (CarryKind k : values()) {
            if (k.key.equals(key)) {
                return k;
            }
        }
        throw new IllegalArgumentException("unknown carry kind '" + key + "'");
    }
}
