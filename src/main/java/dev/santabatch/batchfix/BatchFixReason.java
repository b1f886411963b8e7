package dev.santabatch.batchfix;

import dev.santabatch.model.ErrorKind;

/**
 * Why the model batch fix escalated an item, when its model matcher gave no usable corrected text
 * or a learned rule could not fix an item a fresh review failed ({@link #LEARNED_RULE_CANNOT_FIX}),
 * or ({@link #MATCH_FIX_UNLIKE_SAMPLE}) why it did not store a matched item's correction
 * (the {@code reason} column of {@code escalations.csv}, beside {@link dev.santabatch.review.SantaReason}'s
 * names; a matched item whose correction breaks a rule is {@code FIX_BREAKS_RULES}). Both of the
 * matcher's answers said the item shows the pattern; neither corrected text was usable.
 */
enum BatchFixReason {
    /** Both corrected texts were the text unchanged. */
    MATCH_FIX_UNCHANGED,
    /** Both answers said "shows the pattern" without a corrected text. */
    MATCH_FIX_EMPTY,
    /** Both answers were cut at the output-token limit after saying "shows the pattern". */
    MATCH_FIX_TRUNCATED,
    /** The two answers were unusable for different reasons (the issues name both). */
    MATCHER_INVALID_ANSWER,
    /**
     * A learned rule's fresh review failed a passed sampled item the rule flags, on the rule's
     * criterion, and the rule's fix would not change it or would not leave it within the job's rules.
     */
    LEARNED_RULE_CANNOT_FIX,
    /**
     * Not an escalation: the matcher said the item shows the pattern, but its corrected text does
     * not change the pattern's evidence as the sample's fixes did ({@link SampleFixShape}); the
     * correction is not stored and the item stays eligible (counted as matched, neither fixed nor
     * escalated; the candidate's state is {@code unlike-sample}), flagged on its revision so that no
     * clean sample covers it (held {@code FAIL_UNRESOLVED} unless a later round fixes it).
     */
    MATCH_FIX_UNLIKE_SAMPLE;

    /** The reason for a matcher's failure to give a usable correction. */
    static BatchFixReason of(MatchOutcome.FailedToMatch failure) {
        ErrorKind e = failure.answerError();
        if (e == null) {
            return MATCHER_INVALID_ANSWER;
        }
        return switch (e) {
            case UNCHANGED -> MATCH_FIX_UNCHANGED;
            case EMPTY_ANSWER -> MATCH_FIX_EMPTY;
            case TRUNCATED -> MATCH_FIX_TRUNCATED;
            default -> MATCHER_INVALID_ANSWER;
        };
    }
}
