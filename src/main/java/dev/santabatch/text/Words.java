package dev.santabatch.text;

import java.text.Normalizer;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Texts as sequences of normalised words, for comparing a text with its fix: Unicode NFKC, lower
 * case (root locale), words being runs of letters and digits, kept whole across an inner apostrophe
 * or a decimal or thousands separator ({@code don't}, {@code 4.5}, {@code 1,200}), and each currency
 * symbol a word of its own ({@code $45} is {@code $ 45}: a price in another currency is another
 * fact); whitespace, punctuation and other symbols only separate words. Thread-safe.
 */
public final class Words {

    private static final Pattern WORD = Pattern.compile("[\\p{L}\\p{N}]+(?:['.,][\\p{L}\\p{N}]+)*|\\p{Sc}");

    private static final java.util.Set<String> NUMBER_WORDS = java.util.Set.of("zero", "one", "two", "three", "four",
            "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen",
            "sixteen", "seventeen", "eighteen", "nineteen", "twenty", "thirty", "forty", "fifty", "sixty", "seventy",
            "eighty", "ninety", "hundred", "thousand", "million", "half", "dozen");

    private Words() {}

    /** The normalised words of {@code text}, in order. */
    public static List<String> of(String text) {
        String s = Normalizer.normalize(text, Normalizer.Form.NFKC).toLowerCase(Locale.ROOT).replace('\u2019', '\'');
        List<String> out = new ArrayList<>();
        Matcher m = WORD.matcher(s);
        while (m.find()) {
            out.add(m.group());
        }
        return out;
    }

    /** How often {@code phrase} occurs in {@code words} as a run of whole words (0 for an empty phrase). */
    public static int occurrences(List<String> words, List<String> phrase) {
        if (phrase.isEmpty()) {
            return 0;
        }
        int n = 0;
        for (int i = 0; i + phrase.size() <= words.size(); i++) {
            if (words.subList(i, i + phrase.size()).equals(phrase)) {
                n++;
            }
        }
        return n;
    }

    /**
     * True when the word is a number (it contains a digit, or is an English number word such as
     * {@code five}, {@code twenty} or {@code hundred}: fixers write numbers either way) or a currency
     * symbol: a fact rather than wording.
     */
    public static boolean isFact(String word) {
        return NUMBER_WORDS.contains(word)
                || word.chars().anyMatch(c -> Character.isDigit(c) || Character.getType(c) == Character.CURRENCY_SYMBOL);
    }
}
