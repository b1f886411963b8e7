package dev.santabatch.review;

import java.util.List;
import java.util.Map;

/**
 * Re-checks a revision with the deterministic rules (implemented over the rules engine, package
 * {@code dev.santabatch.prepass.rules}). A revision with any violation is a failed fix, never shipped.
 */
@FunctionalInterface
public interface RevisionCheck {

    /** A check that finds nothing (for jobs without rules). */
    RevisionCheck NONE = (content, source) -> List.of();

    /**
     * @param content the revised text
     * @param source the item's source fields
     * @return one readable line per violation (e.g. {@code "rule forbidden-terms: 'guaranteed'"}); empty when clean
     */
    List<String> violations(String content, Map<String, String> source);
}
