package dev.santabatch.review;

/** Phase 3's verdict on one panel round. */
public enum GateVerdict {
    /** No reviewer failed any criterion and every Santa criterion was judged by at least one reviewer. */
    NICE,
    /** Some reviewer failed a criterion, or some Santa criterion was judged by nobody. */
    NAUGHTY,
    /** Some reviewer failed to review: the panel has no verdict this round. */
    UNREVIEWED
}
