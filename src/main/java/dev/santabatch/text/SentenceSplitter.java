package dev.santabatch.text;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

/**
 * Splits text into sentences, deterministically. A sentence ends at {@code .}, {@code !} or
 * {@code ?} (optionally followed by more terminal punctuation and closing quotes or brackets) when
 * whitespace and then an upper-case letter, a digit or an opening quote or bracket follows, except
 * after a common abbreviation (e.g., i.e., Dr., Mr., No., vs., ...). A blank line (two line breaks)
 * also ends a sentence. Decimals ({@code 2.5}) never split, since no whitespace follows the point.
 */
public final class SentenceSplitter {

    /** A sentence: {@code [start, end)} in the text, without surrounding whitespace. */
    public record Span(int start, int end) {
        public String of(String text) {
            return text.substring(start, end);
        }

        public boolean contains(int offset) {
            return offset >= start && offset < end;
        }
    }

    private static final Set<String> ABBREVIATIONS = Set.of(
            "e.g", "i.e", "dr", "mr", "mrs", "ms", "no", "nos", "vs", "st", "jr", "sr", "prof", "approx", "fig", "cf",
            "ca", "mt", "inc", "ltd", "co", "corp", "dept", "est", "vol", "u.s", "u.k");

    private SentenceSplitter() {}

    /** The sentences of the text, in order. */
    public static List<Span> split(String text) {
        List<Span> out = new ArrayList<>();
        int n = text.length();
        int start = skipWhitespace(text, 0);
        int i = start;
        while (i < n) {
            char c = text.charAt(i);
            if (c == '.' || c == '!' || c == '?') {
                int j = i + 1;
                while (j < n && isTerminal(text.charAt(j))) {
                    j++;
                }
                while (j < n && isCloser(text.charAt(j))) {
                    j++;
                }
                if (j < n && Character.isWhitespace(text.charAt(j))) {
                    int k = skipWhitespace(text, j);
                    if (k < n && startsSentence(text.charAt(k)) && !(c == '.' && j == i + 1 && isAbbreviation(text, i))) {
                        out.add(new Span(start, j));
                        start = k;
                        i = k;
                        continue;
                    }
                }
                i = j;
                continue;
            }
            if (c == '\n' && i > start) {
                int k = i + 1;
                int newlines = 1;
                while (k < n && Character.isWhitespace(text.charAt(k))) {
                    if (text.charAt(k) == '\n') {
                        newlines++;
                    }
                    k++;
                }
                if (newlines >= 2 && k < n) {
                    out.add(new Span(start, trimEnd(text, start, i)));
                    start = k;
                    i = k;
                    continue;
                }
            }
            i++;
        }
        if (start < n) {
            int end = trimEnd(text, start, n);
            if (end > start) {
                out.add(new Span(start, end));
            }
        }
        return out;
    }

    /** The sentences' texts. */
    public static List<String> sentences(String text) {
        return split(text).stream().map(s -> s.of(text)).toList();
    }

    /** The sentence holding the offset, or the nearest one before it (offset in whitespace). */
    public static Span sentenceAt(String text, int offset) {
        List<Span> spans = split(text);
        if (spans.isEmpty()) {
            return new Span(0, 0);
        }
        Span best = spans.get(0);
        for (Span s : spans) {
            if (s.start() <= offset) {
                best = s;
            }
        }
        return best;
    }

    /**
     * Removes one sentence and the whitespace run that separates it from its neighbour on one side:
     * the run before it, or, for the first sentence, the run after it; between two sentences the
     * run with fewer line breaks goes, so a paragraph break survives ("A. B. C." without B is
     * "A. C."; "A.\n\nB. C." without B is "A.\n\nC."). The rest of the text is unchanged.
     */
    public static String remove(String text, Span sentence) {
        int s = sentence.start();
        int e = sentence.end();
        int before = s;
        while (before > 0 && Character.isWhitespace(text.charAt(before - 1))) {
            before--;
        }
        int after = skipWhitespace(text, e);
        boolean hasBefore = before > 0 && before < s;
        boolean hasAfter = after < text.length() && after > e;
        boolean dropBefore;
        if (hasBefore && hasAfter) {
            // keep the stronger separator (a paragraph break over a space)
            dropBefore = newlines(text, before, s) <= newlines(text, e, after);
        } else {
            dropBefore = hasBefore;
        }
        if (dropBefore) {
            return text.substring(0, before) + text.substring(e);
        }
        if (hasAfter) {
            return text.substring(0, s) + text.substring(after);
        }
        return text.substring(0, s) + text.substring(e);
    }

    private static int newlines(String text, int from, int to) {
        int n = 0;
        for (int i = from; i < to; i++) {
            if (text.charAt(i) == '\n') {
                n++;
            }
        }
        return n;
    }

    /** Removes every sentence holding one of the offsets (each sentence once). */
    public static String removeSentencesAt(String text, Collection<Integer> offsets) {
        TreeSet<Span> targets = new TreeSet<>((a, b) -> Integer.compare(b.start(), a.start()));
        for (int offset : offsets) {
            Span s = sentenceAt(text, offset);
            if (s.end() > s.start()) {
                targets.add(s);
            }
        }
        String out = text;
        for (Span s : targets) { // from the last: earlier offsets stay valid
            out = remove(out, s);
        }
        return out;
    }

    private static boolean isAbbreviation(String text, int dot) {
        int b = dot;
        while (b > 0 && (Character.isLetter(text.charAt(b - 1)) || text.charAt(b - 1) == '.')) {
            b--;
        }
        String word = text.substring(b, dot).toLowerCase(Locale.ROOT);
        return ABBREVIATIONS.contains(word);
    }

    private static boolean isTerminal(char c) {
        return c == '.' || c == '!' || c == '?';
    }

    private static boolean isCloser(char c) {
        return c == '"' || c == '\'' || c == ')' || c == ']' || c == '\u201D' || c == '\u2019' || c == '\u00BB';
    }

    private static boolean startsSentence(char c) {
        return Character.isUpperCase(c) || Character.isDigit(c) || c == '"' || c == '\'' || c == '(' || c == '['
                || c == '\u201C' || c == '\u2018' || c == '\u00AB';
    }

    private static int skipWhitespace(String text, int i) {
        while (i < text.length() && Character.isWhitespace(text.charAt(i))) {
            i++;
        }
        return i;
    }

    private static int trimEnd(String text, int start, int end) {
        while (end > start && Character.isWhitespace(text.charAt(end - 1))) {
            end--;
        }
        return end;
    }
}
