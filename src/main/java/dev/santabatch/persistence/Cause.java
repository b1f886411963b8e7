package dev.santabatch.persistence;

import java.util.Locale;

/**
 * What made a revision or held an item ({@code sb_revision.cause}, {@code sb_escalation.cause}),
 * stored, exported and reported as {@link #value()}.
 */
public enum Cause {
    /** The rules pre-pass. */
    RULES,
    /** Carry-over: the text and outcome of an earlier run of the job. */
    CARRY_OVER,
    /** The Santa fixer in review; also an item held at export for an unresolved FAIL. */
    SANTA_FIX,
    /** The batch fix of a systematic pattern (model fixer, offline fixer or learned rule). */
    BATCH_FIX;

    /** The stored name: {@code rules}, {@code carry-over}, {@code santa-fix}, {@code batch-fix}. */
    public String value() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
