package dev.santabatch.batchfix;

import dev.santabatch.review.CosmeticChange;
import dev.santabatch.review.FixExample;
import dev.santabatch.text.Words;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What the accepted Santa fixes of a pattern's sampled items changed, so that a batch-fix revision
 * of another item is stored only when it changes the pattern's evidence the same way. A matcher
 * that says an item shows the pattern and then rewords it somewhere else has not fixed it; storing
 * its text as a fix would take a defective item out of the eligible catalog. The revision must:
 *
 * <ul>
 *   <li>remove what every sample fix removed (there being at least two), where the item has it: a
 *       run of words all of them removed (boilerplate, a banned term). A run only some removed says
 *       nothing about this item: the two sentences of a contradiction are both common, and fixes
 *       remove either. Runs with a number or currency are the item's own facts and are not looked
 *       for in other items;
 *   <li>change the text's numbers when every sample fix did (a wrong number);
 *   <li>remove a passage of at least {@value #PASSAGE_WORDS} words when every sample fix did (an
 *       off-topic sentence worded differently in every item);
 *   <li>be more than {@link CosmeticChange cosmetic} when every sample fix was.
 * </ul>
 *
 * Words are compared {@link Words normalised}; the runs a fix removed are the words of its before
 * text outside a longest common word subsequence with its after text. With no sample fix to compare
 * with, every revision is accepted. Immutable and thread-safe.
 */
final class SampleFixShape {

    /** A removed run of at least this many words is a passage (a sentence, not a term or a number). */
    static final int PASSAGE_WORDS = 4;

    private final Set<List<String>> removedEvidence;
    private final boolean changesNumbers;
    private final boolean removesPassage;
    private final boolean moreThanCosmetic;
    private final boolean none;

    private SampleFixShape(Set<List<String>> removedEvidence, boolean changesNumbers, boolean removesPassage,
            boolean moreThanCosmetic, boolean none) {
        this.removedEvidence = removedEvidence;
        this.changesNumbers = changesNumbers;
        this.removesPassage = removesPassage;
        this.moreThanCosmetic = moreThanCosmetic;
        this.none = none;
    }

    /** The shape of a pattern's sample fixes (before → after, as the batch fix gives them to the matcher). */
    static SampleFixShape of(List<FixExample> fixes) {
        Map<List<String>, Integer> removedBy = new HashMap<>();
        boolean numbers = true;
        boolean passage = true;
        boolean substantial = true;
        for (FixExample f : fixes) {
            List<String> before = Words.of(f.before());
            List<String> after = Words.of(f.after());
            List<List<String>> removed = removedRuns(before, after);
            for (List<String> run : new LinkedHashSet<>(removed)) {
                if (run.stream().noneMatch(Words::isFact)) {
                    removedBy.merge(run, 1, Integer::sum);
                }
            }
            numbers &= !numbers(before).equals(numbers(after));
            passage &= removed.stream().anyMatch(r -> r.size() >= PASSAGE_WORDS);
            substantial &= !CosmeticChange.isCosmetic(f.before(), f.after());
        }
        Set<List<String>> evidence = new LinkedHashSet<>();
        if (fixes.size() >= 2) {
            removedBy.forEach((run, n) -> {
                if (n == fixes.size()) {
                    evidence.add(run);
                }
            });
        }
        return new SampleFixShape(evidence, numbers, passage, substantial, fixes.isEmpty());
    }

    /**
     * Why the revision {@code before → after} does not change what the sample's fixes changed;
     * empty when it does.
     */
    Optional<String> unlike(String before, String after) {
        if (none) {
            return Optional.empty();
        }
        List<String> b = Words.of(before);
        List<String> a = Words.of(after);
        for (List<String> e : removedEvidence) {
            int had = Words.occurrences(b, e);
            if (had > 0 && Words.occurrences(a, e) >= had) {
                return Optional.of("keeps \"" + String.join(" ", e) + "\", which the sample's fixes removed");
            }
        }
        if (changesNumbers && numbers(b).equals(numbers(a))) {
            return Optional.of("changes no number, as every sample fix did");
        }
        if (removesPassage && removedRuns(b, a).stream().noneMatch(r -> r.size() >= PASSAGE_WORDS)) {
            return Optional.of("removes no passage of " + PASSAGE_WORDS + " words or more, as every sample fix did");
        }
        if (moreThanCosmetic && CosmeticChange.isCosmetic(before, after)) {
            return Optional.of("only a cosmetic change, where every sample fix changed more");
        }
        return Optional.empty();
    }

    /**
     * The maximal runs of {@code before}'s words that are not in a longest common subsequence with
     * {@code after}: what the change removed or replaced, in order.
     */
    static List<List<String>> removedRuns(List<String> before, List<String> after) {
        int n = before.size();
        int m = after.size();
        int[][] lcs = new int[n + 1][m + 1];
        for (int i = n - 1; i >= 0; i--) {
            for (int j = m - 1; j >= 0; j--) {
                lcs[i][j] = before.get(i).equals(after.get(j)) ? lcs[i + 1][j + 1] + 1
                        : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
            }
        }
        List<List<String>> runs = new ArrayList<>();
        List<String> run = new ArrayList<>();
        int i = 0;
        int j = 0;
        while (i < n) {
            if (j < m && before.get(i).equals(after.get(j))) {
                i++;
                j++;
                flush(run, runs);
            } else if (j < m && lcs[i][j + 1] >= lcs[i + 1][j]) {
                j++; // a word the change inserted
            } else {
                run.add(before.get(i++));
            }
        }
        flush(run, runs);
        return runs;
    }

    private static void flush(List<String> run, List<List<String>> runs) {
        if (!run.isEmpty()) {
            runs.add(List.copyOf(run));
            run.clear();
        }
    }

    private static List<String> numbers(List<String> words) {
        return words.stream().filter(Words::isFact).toList();
    }
}
