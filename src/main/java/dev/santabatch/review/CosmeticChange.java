package dev.santabatch.review;

import dev.santabatch.text.Words;
import java.util.Arrays;
import java.util.List;

/**
 * Whether one text differs from another only cosmetically: in whitespace, punctuation, case, or at
 * most {@value #MAX_WORD_EDITS} words, with every number and currency symbol as it was. Such a change can be the right
 * answer to a false flag, or a non-fix of a real defect (boilerplate reworded by a word); the
 * caller decides which with the run's evidence ({@link FixSubstance}).
 *
 * <p>Texts are compared as sequences of {@link Words normalised words}, so whitespace, punctuation
 * and case never count. The measure is the word-level edit distance (insertions, deletions and
 * substitutions of whole words). A number or a currency symbol is a fact, not wording: a change to
 * the text's {@link Words#isFact facts} (their sequence) is never cosmetic, so correcting "rated 3
 * stars" to "rated 4 stars", or "$45" to "€45", is a real change. Thread-safe.
 */
public final class CosmeticChange {

    /** "A word or two": the most word edits a cosmetic change makes. */
    public static final int MAX_WORD_EDITS = 2;

    private CosmeticChange() {}

    /** True when {@code after} differs from {@code before} only cosmetically (see the class comment). */
    public static boolean isCosmetic(String before, String after) {
        List<String> b = Words.of(before);
        List<String> a = Words.of(after);
        return facts(b).equals(facts(a)) && wordEdits(b, a, MAX_WORD_EDITS) <= MAX_WORD_EDITS;
    }

    /**
     * The word-level edit distance between {@code a} and {@code b}, computed exactly up to
     * {@code limit}: any distance above it is returned as {@code limit + 1}. Only the diagonal band
     * of width {@code 2 * limit + 1} is computed, so comparing long texts with a small limit is cheap.
     */
    public static int wordEdits(List<String> a, List<String> b, int limit) {
        if (Math.abs(a.size() - b.size()) > limit) {
            return limit + 1;
        }
        int over = limit + 1;
        int[] prev = new int[b.size() + 1];
        int[] cur = new int[b.size() + 1];
        for (int j = 0; j <= b.size(); j++) {
            prev[j] = Math.min(j, over);
        }
        for (int i = 1; i <= a.size(); i++) {
            int from = Math.max(1, i - limit);
            int to = Math.min(b.size(), i + limit);
            Arrays.fill(cur, over);
            cur[0] = Math.min(i, over);
            int best = cur[0];
            for (int j = from; j <= to; j++) {
                int substitute = prev[j - 1] + (a.get(i - 1).equals(b.get(j - 1)) ? 0 : 1);
                int d = Math.min(substitute, Math.min(prev[j], cur[j - 1]) + 1);
                cur[j] = Math.min(d, over);
                best = Math.min(best, cur[j]);
            }
            if (best > limit) {
                return over;
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.size()];
    }

    private static List<String> facts(List<String> words) {
        return words.stream().filter(Words::isFact).toList();
    }
}
