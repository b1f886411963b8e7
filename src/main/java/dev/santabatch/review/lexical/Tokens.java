package dev.santabatch.review.lexical;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/** Word tokens with positions, and hashed word 3-shingles (the same words as {@link dev.santabatch.text.Shingles}). */
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

    /** Number words that state a quantity ("groups of ten", "two and a half hours"): masked like digits. */
    static final Set<String> NUMBER_WORDS = Set.of("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
            "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty",
            "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety", "hundred", "thousand", "half", "dozen");

    /** The placeholder of a number in {@link #masked}. */
    static final String NUMBER = "#n";

    /**
     * The text's words with the item's own facts masked: every number (a word with a digit, or a number
     * word) becomes {@value #NUMBER}, and every whole-word occurrence of one of the item's own source values
     * with a letter (longest first) becomes {@code #} and its column's name. What is left is what the text
     * says beyond its own facts: two texts written from one template about different items then share their
     * template's shingles (which the stop-shingle list drops, as the template is in many items), not their facts.
     */
    static List<String> masked(String text, Map<String, String> source) {
        List<String> w = words(text);
        List<Map.Entry<String, List<String>>> own = new ArrayList<>();
        for (Map.Entry<String, String> e : source.entrySet()) {
            if (e.getValue() == null) {
                continue;
            }
            List<String> v = words(e.getValue());
            if (!v.isEmpty() && v.stream().anyMatch(Tokens::hasLetter)) {
                own.add(Map.entry("#" + e.getKey().toLowerCase(Locale.ROOT), v));
            }
        }
        own.sort((a, b) -> b.getValue().size() - a.getValue().size());
        List<String> out = new ArrayList<>(w.size());
        int i = 0;
        while (i < w.size()) {
            Map.Entry<String, List<String>> hit = null;
            for (Map.Entry<String, List<String>> o : own) {
                List<String> v = o.getValue();
                if (i + v.size() <= w.size() && w.subList(i, i + v.size()).equals(v)) {
                    hit = o;
                    break;
                }
            }
            if (hit != null) {
                out.add(hit.getKey());
                i += hit.getValue().size();
                continue;
            }
            String t = w.get(i);
            out.add(t.chars().anyMatch(Character::isDigit) || NUMBER_WORDS.contains(t) ? NUMBER : t);
            i++;
        }
        return out;
    }

    /**
     * Sorted distinct hashes of the 3-shingles of {@link #masked} words that hold no masked fact: what a text
     * says beyond its own facts. A shingle with one of the item's own facts in it is template wording about
     * this item (shared templates are not boilerplate), so it never counts towards a near-duplicate.
     */
    static long[] factFreeShingleHashes(List<String> masked) {
        long[] out = new long[Math.max(0, masked.size() - 2)];
        int n = 0;
        for (int i = 0; i + 2 < masked.size(); i++) {
            String a = masked.get(i);
            String b = masked.get(i + 1);
            String c = masked.get(i + 2);
            if (a.startsWith("#") || b.startsWith("#") || c.startsWith("#")) {
                continue;
            }
            out[n++] = fnv(a + ' ' + b + ' ' + c);
        }
        return Arrays.stream(out, 0, n).sorted().distinct().toArray();
    }

    static long fnv(String s) {
        long h = 0xcbf29ce484222325L;
        for (int i = 0; i < s.length(); i++) {
            h ^= s.charAt(i);
            h *= 0x100000001b3L;
        }
        return h;
    }

    /** Elements two sorted distinct arrays share. */
    static int shared(long[] a, long[] b) {
        int i = 0;
        int j = 0;
        int n = 0;
        while (i < a.length && j < b.length) {
            if (a[i] == b[j]) {
                n++;
                i++;
                j++;
            } else if (a[i] < b[j]) {
                i++;
            } else {
                j++;
            }
        }
        return n;
    }

    /** Jaccard of two sorted distinct arrays (0 when both are empty). */
    static double jaccard(long[] a, long[] b) {
        if (a.length == 0 && b.length == 0) {
            return 0;
        }
        int inter = shared(a, b);
        return (double) inter / (a.length + b.length - inter);
    }
}
