package dev.santabatch.text;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/** Lower-cased word 3-shingles and their Jaccard similarity, the measure the catalog's "clean items differ" promise uses. */
public final class Shingles {
    private static final Pattern NON_WORD = Pattern.compile("[^\\p{L}\\p{N}]+");

    private Shingles() {}

    /** Words of the text: lower-cased (Locale.ROOT), split on anything that is not a letter or digit. */
    public static List<String> words(String text) {
        List<String> out = new ArrayList<>();
        for (String w : NON_WORD.split(text.toLowerCase(Locale.ROOT))) {
            if (!w.isEmpty()) {
                out.add(w);
            }
        }
        return out;
    }

    /** The set of word 3-shingles ("a b c") of the text; a text of fewer than 3 words gives its words joined. */
    public static Set<String> of(String text) {
        List<String> w = words(text);
        Set<String> out = new HashSet<>();
        if (w.size() < 3) {
            out.add(String.join(" ", w));
            return out;
        }
        for (int i = 0; i + 2 < w.size(); i++) {
            out.add(w.get(i) + ' ' + w.get(i + 1) + ' ' + w.get(i + 2));
        }
        return out;
    }

    /** Jaccard similarity |a ∩ b| / |a ∪ b| (0 for two empty sets). */
    public static double jaccard(Set<String> a, Set<String> b) {
        if (a.isEmpty() && b.isEmpty()) {
            return 0;
        }
        Set<String> small = a.size() <= b.size() ? a : b;
        Set<String> large = small == a ? b : a;
        int inter = 0;
        for (String s : small) {
            if (large.contains(s)) {
                inter++;
            }
        }
        return (double) inter / (a.size() + b.size() - inter);
    }

    /** A 64-bit FNV-1a hash of a shingle, for compact bounded indexes. */
    public static long hash(String s) {
        long h = 0xcbf29ce484222325L;
        for (int i = 0; i < s.length(); i++) {
            h ^= s.charAt(i);
            h *= 0x100000001b3L;
        }
        return h;
    }
}
