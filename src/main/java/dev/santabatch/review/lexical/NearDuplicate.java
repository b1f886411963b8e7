package dev.santabatch.review.lexical;

/**
 * Another snapshot item whose text is a near-duplicate.
 *
 * @param itemId the other item
 * @param jaccard the exact informative-shingle Jaccard
 */
public record NearDuplicate(String itemId, double jaccard) {}
