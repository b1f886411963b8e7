package dev.santabatch.review.lexical;

/**
 * A sentence the lexical reviewer localised an on-specification failure to.
 *
 * @param index 1-based sentence number
 * @param start start offset in the content
 * @param end end offset (exclusive)
 * @param text the sentence
 * @param reason what it names, for people
 */
public record SentenceSpan(int index, int start, int end, String text, String reason) {}
