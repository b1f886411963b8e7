package dev.santabatch.loop;

/** A round's decision, stored with the round. */
public final class Decision {
    /**
     * Every sampled item was reviewed, and the failures (items not NICE on first review) number at
     * most the acceptance number and form no systematic pattern ({@link SampleAcceptance}).
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

    private Decision() {}
}
