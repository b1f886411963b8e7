package dev.santabatch.review;

/** Why an item ended ESCALATED or UNREVIEWED. */
public enum SantaReason {
    /** ESCALATED: the review after the last allowed fix was still naughty. */
    STILL_NAUGHTY,
    /** ESCALATED: naughty only because some Santa criterion was judged by no reviewer (nothing to fix). */
    CRITERION_NOT_JUDGED,
    /** ESCALATED: the fix was blank, twice. */
    FIX_EMPTY,
    /** ESCALATED: the fix was truncated, twice. */
    FIX_TRUNCATED,
    /**
     * ESCALATED: the fix did not change the text, twice; or the last allowed fix changed nothing its
     * issues flag (a quoted passage left in place, or a cosmetic change no reviewer's evidence
     * excuses: {@link FixSubstance}).
     */
    FIX_UNCHANGED,
    /**
     * ESCALATED: the fixer has no fix for the issues ({@link FixOutcome.CannotFix}; e.g. the offline
     * fixer when the reviewers do not localise the same whole sentences).
     */
    NO_FIX,
    /** ESCALATED: the fixed text breaks a deterministic rule. */
    FIX_BREAKS_RULES,
    /** UNREVIEWED: a reviewer failed to review. */
    REVIEWER_FAILED,
    /** UNREVIEWED: the fixer failed for transport reasons. */
    FIXER_FAILED;
}
