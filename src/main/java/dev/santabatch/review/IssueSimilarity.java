package dev.santabatch.review;

import java.text.Normalizer;
import java.util.Locale;

/**
 * Decides whether two issue texts say the same thing, for merging reviewers' issues. The default
 * compares {@link #normalise normalised} texts for equality; a later issue plugs in embedding
 * similarity. Implementations must be thread-safe.
 */
@FunctionalInterface
public interface IssueSimilarity {

    boolean same(String a, String b);

    /** Equal after {@link #normalise}. */
    static IssueSimilarity exactNormalised() {
        return (a, b) -> normalise(a).equals(normalise(b));
    }

    /**
     * Lower case (root locale), Unicode NFKC, punctuation and symbols turned into blanks, runs of
     * blanks collapsed, trimmed: {@code "Compliance:  Uses 'BEST-in-class'!"} becomes
     * {@code "compliance uses best in class"}.
     */
    static String normalise(String text) {
        String s = Normalizer.normalize(text, Normalizer.Form.NFKC).toLowerCase(Locale.ROOT);
        s = s.replaceAll("[\\p{P}\\p{S}]+", " ");
        return s.replaceAll("\\s+", " ").strip();
    }
}
