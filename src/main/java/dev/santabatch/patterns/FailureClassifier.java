package dev.santabatch.patterns;

import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * Turns a round's failures into patterns: failures of one criterion whose issue texts say the same
 * thing form one pattern.
 */
public interface FailureClassifier {

    /**
     * @param failures one entry per (item, merged critical issue) of the round's first reviews
     * @param sampledItems the number of items the round sampled and reviewed (the denominator of a
     *     pattern's share of the sample), not the number of failures
     * @return patterns, each with its criterion, label (its most central issue text), items and share
     */
    List<Pattern> classify(List<Failure> failures, int sampledItems);

    /**
     * {@link #classify(List, int)}, for a classification long enough to look at a requested stop
     * ({@code stopRequested}) as it goes, ending with
     * {@link dev.santabatch.execution.PreparationStoppedException}. By default it does not look: one
     * pass over the failures, as the exact classifier makes, is short.
     */
    default List<Pattern> classify(List<Failure> failures, int sampledItems, BooleanSupplier stopRequested) {
        return classify(failures, sampledItems);
    }

    record Failure(String itemId, String criterion, String text) {}

    /**
     * @param itemIds the pattern's distinct items, in first-appearance order
     * @param share its items / the round's sampled items
     */
    record Pattern(String criterion, String label, List<String> itemIds, List<String> texts, double share) {}

    /** A pattern's share of the sample: its distinct items over the sampled items (0 with none sampled). */
    static double share(int items, int sampledItems) {
        return sampledItems <= 0 ? 0 : (double) items / sampledItems;
    }
}
