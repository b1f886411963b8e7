package dev.santabatch.loop;

import java.util.List;

/**
 * Turns a round's failures into patterns: failures of one criterion whose issue texts say the same
 * thing form one pattern.
 */
public interface FailureClassifier {

    /**
     * @param failures one entry per (item, merged critical issue) of the round's first reviews
     * @return patterns, each with its criterion, label (its most central issue text) and items
     */
    List<Pattern> classify(List<Failure> failures);

    record Failure(String itemId, String criterion, String text) {}

    record Pattern(String criterion, String label, List<String> itemIds, List<String> texts) {}
}
