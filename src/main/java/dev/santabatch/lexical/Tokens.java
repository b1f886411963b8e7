package dev.santabatch.lexical;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/** Word tokens with positions, and hashed word 3-shingles (the same words as {@code sampledata.Shingles}). */
final class Tokens {

    /** One word: lower-cased, whether it starts with an upper-case letter, and its span. */
    record Tok(String lower, boolean capital, int start, int end) {}

    /** Function words that never make a term or a phrase on their own. */
    static final Set<String> STOP = Set.of("a", "an", "the", "and", "or", "of", "for", "to", "in", "on", "by", "with",
            "from", "at", "it", "its", "is", "are", "be", "this", "that", "your", "you", "our", "we", "as", "s", "co",
            "inc", "ltd", "but", "not", "no", "so", "if", "than", "also", "more", "most", "all", "any", "each", "every",
            "up", "out", "can", "will", "has", "have", "one", "two", "three");

    private Tokens() {}

    static List<Tok> tokens(String text) {
        List<Tok> out = new ArrayList<>();
        int n = text.length();
        int i = 0;
        while (i < n) {
            int cp = text.codePointAt(i);
            if (Character.isLetterOrDigit(cp)) {
                int s = i;
                while (i < n && Character.isLetterOrDigit(text.codePointAt(i))) {
                    i += Character.charCount(text.codePointAt(i));
                }
                String w = text.substring(s, i);
                out.add(new Tok(w.toLowerCase(Locale.ROOT), Character.isUpperCase(w.codePointAt(0)), s, i));
            } else {
                i += Character.charCount(cp);
            }
        }
        return out;
    }

    static List<String> words(String text) {
        return tokens(text).stream().map(Tok::lower).toList();
    }

    static boolean hasLetter(String w) {
        return w.chars().anyMatch(Character::isLetter);
    }

    /** Sorted distinct 64-bit hashes of the text's word 3-shingles (a text of under 3 words: its words joined). */
    static long[] shingleHashes(String text) {
        List<String> w = words(text);
        if (w.isEmpty()) {
            return new long[0];
        }
        long[] out;
        if (w.size() < 3) {
            out = new long[] {fnv(String.join(" ", w))};
        } else {
            out = new long[w.size() - 2];
            for (int i = 0; i + 2 < w.size(); i++) {
                out[i] = fnv(w.get(i) + ' ' + w.get(i + 1) + ' ' + w.get(i + 2));
            }
        }
        return Arrays.stream(out).sorted().distinct().toArray();
    }

    static long fnv(String s) {
        long h = 0xcbf29ce484222325L;
        for (int i = 0; i < s.length(); i++) {
            h ^= s.charAt(i);
            h *= 0x100000001b3L;
        }
        return h;
    }

    /** Jaccard of two sorted distinct arrays (0 when both are empty). */
    static double jaccard(long[] a, long[] b) {
        if (a.length == 0 && b.length == 0) {
            return 0;
        }
        int i = 0;
        int j = 0;
        int inter = 0;
        while (i < a.length && j < b.length) {
            if (a[i] == b[j]) {
                inter++;
                i++;
                j++;
            } else if (a[i] < b[j]) {
                i++;
            } else {
                j++;
            }
        }
        return (double) inter / (a.length + b.length - inter);
    }
}
