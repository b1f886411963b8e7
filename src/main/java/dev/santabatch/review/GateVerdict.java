package dev.santabatch.review;

/** Phase 3's verdict on one panel round. */
public enum GateVerdict {
    /** No reviewer failed any criterion and every Santa criterion was judged by at least one reviewer. */
    NICE,
    /**
     * Some reviewer failed a criterion (also when another failed to review), or some Santa criterion
     * was judged by nobody.
     */
    NAUGHTY,
    /** Some reviewer failed to review and none returned a FAIL: the panel has no verdict this round. */
    UNREVIEWED
}
