package dev.santabatch.batchfix.induction;

/** The shapes of accepted fixes a rule can be learned from, and the rule each becomes. */
public enum Shape {
    /** A number replaced by a source column's value: {@code number-grounding}, fix {@code correct}. */
    NUMBER_CORRECTED,
    /** A sentence removed whose wording recurs: {@code forbidden-terms} on the shared phrase, fix {@code remove-sentence}. */
    SENTENCE_REMOVED,
    /** One fixed sentence appended: {@code required-phrase} with a {@code when} condition, fix {@code append}. */
    SENTENCE_APPENDED,
    /** A term replaced by another: {@code forbidden-terms} with its replacement, fix {@code substitute}. */
    TERM_SUBSTITUTED
}
