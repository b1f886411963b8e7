package dev.santabatch.prepass.rules;

import dev.santabatch.config.RuleSpec;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Forbidden terms: case-insensitive, whole word, with the inflections of the term's last word
 * (-s/-es/-ies, -ed/-d/-ied, -ing, doubled final consonant, and -ise/-ize spellings). Words of a
 * multi-word term match across any whitespace; a hyphen also matches whitespace and vice versa.
 * A different word that merely starts with the term ("curator", "miraculous") is not a hit.
 * Regex patterns match case-insensitively as written.
 *
 * <p>SUBSTITUTE replaces the matched span with the term's replacement, carrying the verb
 * inflection (-s, -ed, -ing) over to the replacement's last word unless the replacement looks like
 * an adjective (-able, -ful, ...), and the case (Cures → Relieves, MIRACLE → REMARKABLE). A pattern
 * is substituted only when {@code replacements} has an entry keyed by the pattern itself.
 */
final class ForbiddenTermsRule extends Rule {

    enum Form {
        BASE,
        S,
        ED,
        ING
    }

    private record Term(String term, Pattern pattern, List<String[]> forms) {}

    private final RuleSpec.ForbiddenTerms spec;
    private final List<Term> terms = new ArrayList<>();
    private final List<Pattern> patterns = new ArrayList<>();

    ForbiddenTermsRule(String criterionId, RuleSpec.ForbiddenTerms spec) {
        super(criterionId);
        this.spec = spec;
        for (String t : spec.terms()) {
            terms.add(compile(t));
        }
        for (String p : spec.patterns()) {
            patterns.add(Pattern.compile(p, Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE));
        }
    }

    @Override
    RuleSpec spec() {
        return spec;
    }

    @Override
    List<Finding> find(String text, Map<String, String> sourceFields) {
        List<Finding> out = new ArrayList<>();
        for (Term t : terms) {
            Matcher m = t.pattern().matcher(text);
            while (m.find()) {
                String matched = m.group();
                String replacement = replacementFor(t, matched);
                out.add(new Finding(
                        violation(m.start(), m.end(), "uses the banned term \"" + matched + "\" (" + t.term() + ")"),
                        m.start(), m.end(), replacement));
            }
        }
        for (int i = 0; i < patterns.size(); i++) {
            Matcher m = patterns.get(i).matcher(text);
            String key = spec.patterns().get(i);
            while (m.find()) {
                if (m.end() == m.start()) {
                    continue;
                }
                String rep = spec.replacements().get(key);
                out.add(new Finding(
                        violation(m.start(), m.end(), "matches the banned pattern " + key + ": \"" + m.group() + "\""),
                        m.start(), m.end(), rep == null ? null : applyCase(m.group(), rep)));
            }
        }
        out.sort(Comparator.comparingInt(f -> f.violation().start()));
        // drop findings overlapping an earlier one (e.g. a term also matched by a pattern)
        List<Finding> distinct = new ArrayList<>();
        int end = -1;
        for (Finding f : out) {
            if (f.violation().start() >= end) {
                distinct.add(f);
                end = f.violation().end();
            }
        }
        return distinct;
    }

    private @Nullable String replacementFor(Term t, String matched) {
        String rep = spec.replacements().get(t.term());
        if (rep == null) {
            return null;
        }
        Form form = formOf(t, matched);
        return applyCase(matched, inflect(rep, form));
    }

    private static Form formOf(Term t, String matched) {
        String lower = matched.toLowerCase(Locale.ROOT);
        for (String[] f : t.forms()) {
            if (lower.endsWith(f[0])) {
                return Form.valueOf(f[1]);
            }
        }
        return Form.BASE;
    }

    // ------------------------------------------------------------------ compiling

    private static Term compile(String term) {
        String t = term.trim().toLowerCase(Locale.ROOT);
        String[] words = t.split("[\\s\\-\u2010\u2011]+");
        StringBuilder prefix = new StringBuilder();
        for (int i = 0; i < words.length - 1; i++) {
            prefix.append(Pattern.quote(words[i])).append("(?:\\s*[-\u2010\u2011]\\s*|\\s+)");
        }
        String last = words[words.length - 1];
        List<String[]> forms = inflections(last); // {suffix form, Form}
        Set<String> alternatives = new LinkedHashSet<>();
        for (String[] f : forms) {
            alternatives.add(Pattern.quote(f[0]));
        }
        String regex = "(?<![\\p{L}\\p{N}_])" + prefix + "(?:" + String.join("|", sortedByLength(alternatives))
                + ")(?![\\p{L}\\p{N}_])";
        // longest forms first so that formOf picks the most specific ending
        List<String[]> byLength = new ArrayList<>(forms);
        byLength.sort(Comparator.comparingInt((String[] f) -> f[0].length()).reversed());
        return new Term(term, Pattern.compile(regex, Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE), byLength);
    }

    private static List<String> sortedByLength(Set<String> s) {
        List<String> l = new ArrayList<>(s);
        l.sort(Comparator.comparingInt(String::length).reversed());
        return l;
    }

    /** The word's forms: {form text, Form name}, including -ise/-ize spellings. */
    static List<String[]> inflections(String w) {
        List<String[]> out = new ArrayList<>();
        addInflections(w, out);
        if (w.endsWith("ize")) {
            addInflections(w.substring(0, w.length() - 3) + "ise", out);
        } else if (w.endsWith("ise") && w.length() > 5) {
            addInflections(w.substring(0, w.length() - 3) + "ize", out);
        }
        return out;
    }

    private static void addInflections(String w, List<String[]> out) {
        out.add(new String[] {w, "BASE"});
        if (!w.chars().allMatch(Character::isLetter)) {
            return;
        }
        int n = w.length();
        char lastChar = w.charAt(n - 1);
        if (lastChar == 'e') {
            out.add(new String[] {w + "s", "S"});
            out.add(new String[] {w + "d", "ED"});
            out.add(new String[] {w.substring(0, n - 1) + "ing", "ING"});
        } else if (lastChar == 'y' && n > 1 && !isVowel(w.charAt(n - 2))) {
            String stem = w.substring(0, n - 1);
            out.add(new String[] {stem + "ies", "S"});
            out.add(new String[] {stem + "ied", "ED"});
            out.add(new String[] {w + "ing", "ING"});
        } else if (w.endsWith("s") || w.endsWith("x") || w.endsWith("z") || w.endsWith("ch") || w.endsWith("sh")) {
            out.add(new String[] {w + "es", "S"});
            out.add(new String[] {w + "ed", "ED"});
            out.add(new String[] {w + "ing", "ING"});
        } else {
            out.add(new String[] {w + "s", "S"});
            out.add(new String[] {w + "ed", "ED"});
            out.add(new String[] {w + "ing", "ING"});
            if (n >= 3 && !isVowel(lastChar) && isVowel(w.charAt(n - 2)) && !isVowel(w.charAt(n - 3))
                    && "wxy".indexOf(lastChar) < 0) {
                out.add(new String[] {w + lastChar + "ed", "ED"});
                out.add(new String[] {w + lastChar + "ing", "ING"});
            }
        }
    }

    private static boolean isVowel(char c) {
        return "aeiou".indexOf(Character.toLowerCase(c)) >= 0;
    }

    // ------------------------------------------------------------------ substitution

    private static final Pattern ADJECTIVE = Pattern.compile(
            ".*(able|ible|al|ful|ous|ive|ic|less|ent|ant|ary|ory|ish|y|-\\p{L}+)$");

    /** Inflects the replacement's last word like the matched term, unless it is an adjective. */
    static String inflect(String replacement, Form form) {
        if (form == Form.BASE || replacement.isBlank()) {
            return replacement;
        }
        int cut = lastWordStart(replacement);
        String head = replacement.substring(0, cut);
        String word = replacement.substring(cut);
        if (!word.chars().allMatch(Character::isLetter)
                || ADJECTIVE.matcher(replacement.toLowerCase(Locale.ROOT)).matches() && !word.endsWith("ify")) {
            return replacement;
        }
        for (String[] f : inflections(word.toLowerCase(Locale.ROOT))) {
            if (f[1].equals(form.name())) {
                return head + f[0];
            }
        }
        return replacement;
    }

    private static int lastWordStart(String s) {
        int i = s.length();
        while (i > 0 && Character.isLetter(s.charAt(i - 1))) {
            i--;
        }
        return i;
    }

    /** Carries the case of the matched text over: all upper, capitalised, or as given. */
    static String applyCase(String matched, String replacement) {
        String letters = matched.replaceAll("[^\\p{L}]", "");
        if (letters.length() > 1 && letters.equals(letters.toUpperCase(Locale.ROOT))) {
            return replacement.toUpperCase(Locale.ROOT);
        }
        if (!letters.isEmpty() && Character.isUpperCase(letters.charAt(0)) && !replacement.isEmpty()) {
            int cp = replacement.codePointAt(0);
            return new StringBuilder().appendCodePoint(Character.toUpperCase(cp))
                    .append(replacement.substring(Character.charCount(cp))).toString();
        }
        return replacement;
    }
}
