package dev.santabatch.persistence;

/** An item's state ({@code sb_item.state}): constants, so SQL text and switches use them as written. */
public final class ItemState {

    /** Eligible: not verified NICE on its current revision, not held. */
    public static final String ACTIVE = "ACTIVE";
    /** Reviewed NICE on its current revision. */
    public static final String NICE = "NICE";
    /** Held for a person ({@code escalations.csv}). */
    public static final String ESCALATED = "ESCALATED";

    private ItemState() {}
}
