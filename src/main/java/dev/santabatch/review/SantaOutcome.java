package dev.santabatch.review;

/** How the Santa processor left one item. */
public enum SantaOutcome {
    /** The review after the last fix (or the first review) passed the gate. */
    NICE,
    /** Still naughty after the last allowed fix, or a fix failed: held for a person. */
    ESCALATED,
    /** A reviewer failed to review or the fixer failed for transport reasons: eligible again later. */
    UNREVIEWED
}
