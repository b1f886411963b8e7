package dev.santabatch.batchfix.induction;

import dev.santabatch.config.Unit;
import dev.santabatch.text.SentenceSplitter;
import dev.santabatch.prepass.rules.StatedQuantities;
import dev.santabatch.prepass.rules.StatedQuantities.Stated;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Reads the shape of one accepted fix from its before and after text. */
final class FixShapes {

    /** The shape of one fix, with what the rule of that shape needs from it. */
    sealed interface FixShape permits Number, Removed, Appended, Substituted {}

    /**
     * Numbers replaced by a source column's value.
     *
     * @param columns the (column, unit) pairs every corrected number equals
     * @param corrected the wrong quantities in the before text
     */
    record Number(Set<ColumnUnit> columns, List<Stated> corrected) implements FixShape {}

    record ColumnUnit(String column, Unit unit) {}

    /** Whole sentences removed, the rest unchanged. */
    record Removed(List<String> sentences) implements FixShape {}

    /** One sentence added, the rest unchanged. */
    record Appended(String sentence) implements FixShape {}

    /** Short runs of words replaced by others, the rest unchanged. */
    record Substituted(List<Substitution> substitutions) implements FixShape {}

    record Substitution(String term, String replacement) {}

    private static final Pattern WORD = Pattern.compile("[\\p{L}\\p{N}]+(?:['\u2019\\-][\\p{L}\\p{N}]+)*");
    private static final Pattern SOURCE_NUMBER = Pattern.compile("^\\s*([0-9][0-9,]*(?:\\.[0-9]+)?)");
    private static final int MAX_TERM_WORDS = 3;
    private static final int MAX_REPLACEMENT_WORDS = 4;

    private FixShapes() {}

    static Optional<FixShape> of(AcceptedFix fix) {
        Optional<FixShape> number = number(fix);
        if (number.isPresent()) {
            return number;
        }
        List<String> before = sentences(fix.before());
        List<String> after = sentences(fix.after());
        List<Edits.Hunk> hunks = Edits.hunks(before, after);
        if (hunks.isEmpty()) {
            return Optional.empty();
        }
        if (hunks.stream().allMatch(Edits.Hunk::deletion)) {
            List<String> removed = new ArrayList<>();
            List<String> original = SentenceSplitter.sentences(fix.before());
            hunks.forEach(h -> removed.addAll(original.subList(h.aFrom(), h.aTo())));
            return Optional.of(new Removed(removed));
        }
        if (hunks.size() == 1 && hunks.get(0).insertion() && hunks.get(0).bTo() - hunks.get(0).bFrom() == 1) {
            return Optional.of(new Appended(SentenceSplitter.sentences(fix.after()).get(hunks.get(0).bFrom()).strip()));
        }
        return substituted(fix);
    }

    /** Lower case, whitespace collapsed: how two sentences compare. */
    static String normalise(String s) {
        return s.strip().replaceAll("\\s+", " ").toLowerCase(Locale.ROOT);
    }

    private static List<String> sentences(String text) {
        return SentenceSplitter.sentences(text).stream().map(FixShapes::normalise).toList();
    }

    // ------------------------------------------------------------------ numbers

    private static Optional<FixShape> number(AcceptedFix fix) {
        List<Stated> before = StatedQuantities.in(fix.before());
        List<Stated> after = StatedQuantities.in(fix.after());
        if (before.isEmpty() || before.size() != after.size()
                || !masked(fix.before(), before).equals(masked(fix.after(), after))) {
            return Optional.empty();
        }
        Set<ColumnUnit> columns = null;
        List<Stated> corrected = new ArrayList<>();
        for (int i = 0; i < before.size(); i++) {
            Stated b = before.get(i);
            Stated a = after.get(i);
            if (b.family() != a.family()) {
                return Optional.empty();
            }
            if (Math.abs(b.inBase() - a.inBase()) <= 1e-9 * Math.max(1, Math.abs(a.inBase()))) {
                continue;
            }
            Set<ColumnUnit> matching = matching(a, fix.facts());
            matching.removeAll(matching(b, fix.facts()));
            if (columns == null) {
                columns = matching;
            } else {
                columns.retainAll(matching);
            }
            corrected.add(b);
        }
        return columns == null || columns.isEmpty() ? Optional.empty() : Optional.of(new Number(columns, corrected));
    }

    /** The text with every stated quantity replaced by one placeholder, normalised. */
    private static String masked(String text, List<Stated> quantities) {
        StringBuilder sb = new StringBuilder();
        int at = 0;
        for (Stated q : quantities) {
            sb.append(text, at, q.start()).append('#');
            at = q.end();
        }
        sb.append(text.substring(at));
        return normalise(sb.toString());
    }

    /** The (column, unit) pairs whose value the stated quantity writes, to its stated precision. */
    static Set<ColumnUnit> matching(Stated q, Map<String, String> facts) {
        Set<ColumnUnit> out = new LinkedHashSet<>();
        for (Map.Entry<String, String> f : facts.entrySet()) {
            Double value = sourceValue(f.getValue());
            if (value == null) {
                continue;
            }
            for (Unit u : Unit.values()) {
                if (u.family() != q.family()) {
                    continue;
                }
                double inText = value * u.toBase() / q.toBase();
                double rounded = BigDecimal.valueOf(inText).setScale(q.decimals(), RoundingMode.HALF_UP).doubleValue();
                if (Math.abs(rounded - q.value()) < 1e-9) {
                    out.add(new ColumnUnit(f.getKey(), u));
                }
            }
        }
        return out;
    }

    /** A source value's leading number, as number grounding reads it; null when there is none. */
    static @org.jspecify.annotations.Nullable Double sourceValue(String raw) {
        Matcher m = SOURCE_NUMBER.matcher(raw);
        return m.find() ? Double.valueOf(m.group(1).replace(",", "")) : null;
    }

    // ------------------------------------------------------------------ terms

    record Token(String text, int start, int end) {}

    static List<Token> words(String text) {
        List<Token> out = new ArrayList<>();
        Matcher m = WORD.matcher(text);
        while (m.find()) {
            out.add(new Token(m.group(), m.start(), m.end()));
        }
        return out;
    }

    private static Optional<FixShape> substituted(AcceptedFix fix) {
        List<Token> before = words(fix.before());
        List<Token> after = words(fix.after());
        List<Edits.Hunk> hunks = Edits.hunks(lower(before), lower(after));
        if (hunks.isEmpty()) {
            return Optional.empty();
        }
        List<Substitution> out = new ArrayList<>();
        for (Edits.Hunk h : hunks) {
            int removed = h.aTo() - h.aFrom();
            int added = h.bTo() - h.bFrom();
            if (removed < 1 || removed > MAX_TERM_WORDS || added < 1 || added > MAX_REPLACEMENT_WORDS) {
                return Optional.empty();
            }
            String term = join(before.subList(h.aFrom(), h.aTo()));
            String replacement = join(after.subList(h.bFrom(), h.bTo()));
            if (term.chars().anyMatch(Character::isDigit) || replacement.chars().anyMatch(Character::isDigit)) {
                return Optional.empty();
            }
            out.add(new Substitution(term, replacement));
        }
        return Optional.of(new Substituted(out));
    }

    private static List<String> lower(List<Token> tokens) {
        return tokens.stream().map(t -> t.text().toLowerCase(Locale.ROOT)).toList();
    }

    private static String join(List<Token> tokens) {
        return String.join(" ", lower(tokens));
    }
}
