package dev.santabatch.rounds;

/** A round's decision, stored with the round. */
public final class Decision {
    /**
     * Every sampled item was reviewed, and the failures (items not NICE on first review) number at
     * most the acceptance number and form no systematic pattern ({@link dev.santabatch.decide.SampleAcceptance}).
     */
    public static final String CLEAN = "clean";
    /** Nothing left eligible: every item verified NICE or held. */
    public static final String FULLY_REVIEWED = "fully-reviewed";
    /** Not clean, rounds left: resample. */
    public static final String CONTINUE = "continue";
    /** Not clean and no rounds left. */
    public static final String NOT_CLEAN = "not-clean";
    /**
     * A round decided {@link #NOT_CLEAN} whose run was resumed after {@code santa.max-rounds} was
     * raised: the next round was drawn after all. The round's decision is rewritten to this when
     * that round is drawn, so that it reads what happened next.
     */
    public static final String CONTINUE_AFTER_MAX_ROUNDS_RAISED = "continue-after-max-rounds-raised";
    /**
     * Not clean, at once: every failure of the sample is of a pattern the batch fix cannot reach
     * ({@link dev.santabatch.rounds.UnreachablePatterns}); more rounds would only find them again.
     */
    public static final String UNREACHABLE_PATTERN = "unreachable-pattern";
    /**
     * A round decided {@link #UNREACHABLE_PATTERN} whose run was resumed (with the same run id, after
     * the operator raised {@code matcher.max-candidate-share} or wrote a rule): rewritten to this when
     * the next round is drawn, whose patterns then get a fresh batch fix.
     */
    public static final String CONTINUE_AFTER_UNREACHABLE_PATTERN = "continue-after-unreachable-pattern";

    /**
     * Not clean, at once, and for good: the panel does not fit the catalog (its canary sensitivity,
     * false-flag rate or fail share is outside the job's limits, {@link dev.santabatch.canary.PanelFitCheck}). Raising
     * {@code santa.max-rounds} does not resume it: changing the panel is a rubric change, a new run.
     */
    public static final String PANEL_DOES_NOT_FIT = "panel-does-not-fit";

    private Decision() {}

    /**
     * True for the decisions that end a run not clean: {@link #NOT_CLEAN}, {@link #UNREACHABLE_PATTERN}
     * and {@link #PANEL_DOES_NOT_FIT}.
     */
    public static boolean endsNotClean(@org.jspecify.annotations.Nullable String decision) {
        return resumable(decision) || PANEL_DOES_NOT_FIT.equals(decision);
    }

    /** The not-clean ends a resume continues from: {@link #NOT_CLEAN} and {@link #UNREACHABLE_PATTERN}. */
    public static boolean resumable(@org.jspecify.annotations.Nullable String decision) {
        return NOT_CLEAN.equals(decision) || UNREACHABLE_PATTERN.equals(decision);
    }
}
