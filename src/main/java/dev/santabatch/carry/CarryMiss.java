package dev.santabatch.carry;

/** Why an item an earlier run of the job judged is judged afresh, as counted in {@code report.json}. */
public enum CarryMiss {
    /** Its content or a source fact differs from what the earlier run ingested. */
    CHANGED,
    /** The earlier run was made under another verification fingerprint or other prompt templates. */
    VERIFICATION_CHANGED,
    /** It has been carried {@code carry-over.max-age - 1} runs in a row. */
    MAX_AGE,
    /** The earlier run did not verify it (left unverified: not shipped, not held). */
    NOT_VERIFIED,
    /** A rule changed its carried text, or found a violation in it. */
    RULES,
    /**
     * A person's verdict on it there ({@code santa-batch audit}) is {@code defective}: shipped there,
     * it is not shipped again on that run's word.
     */
    AUDITED;

    /** The name counted in {@code report.json}: the lower-case name. */
    public String key() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
