package dev.santabatch.batchfix.induction;

import dev.santabatch.batchfix.induction.FixShapes.ColumnUnit;
import dev.santabatch.batchfix.induction.FixShapes.FixShape;
import dev.santabatch.config.RuleSpec;
import dev.santabatch.config.RuleSpec.FixKind;
import dev.santabatch.text.SentenceSplitter;
import dev.santabatch.prepass.rules.StatedQuantities.Stated;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * Induces a deterministic rule from a pattern's accepted fixes, in the job file's own rule
 * language. Pure: no store, no model.
 *
 * <p>Each fix is read as one shape ({@link Shape}): numbers replaced by the value of one source
 * column (in digits, number words or another unit of the same family: {@code "five stars"} for 5,
 * {@code "3.1 miles"} for 5 km); whole sentences removed; one sentence added; or short runs of
 * words replaced by others. When at least {@code minItems} fixes and at least {@value #MIN_SHARE}
 * of all of them share one shape (for numbers: the same column; for an added sentence: the same
 * sentence), the shape's rule is built from them:
 * <ul>
 *   <li>numbers: {@code number-grounding} on the column, in the unit the corrected values are
 *       written in, with the words that stand within {@value #KEYWORD_WINDOW} words of the wrong
 *       number in at least half the fixes as keywords (words of the column's name first); fix
 *       {@code correct};
 *   <li>removed sentences: {@code forbidden-terms} on the longest run of words (two or more, one
 *       of them a content word) that the removed sentences of at least {@value #MIN_SHARE} of
 *       those fixes share and that no kept text and no passed sampled item contains; fix
 *       {@code remove-sentence};
 *   <li>an added sentence: {@code required-phrase} with the sentence, when a source column whose
 *       values among the fixed items (at most half as many values as items: they recur) no passed
 *       sampled item without the sentence has; fix {@code append};
 *   <li>substituted terms: {@code forbidden-terms} on every term replaced in two or more fixes,
 *       each with its most frequent replacement; fix {@code substitute}.
 * </ul>
 * A built rule must flag the before text of at least {@code minItems} of the fixes it came from
 * and leave their after text alone; those are its support.
 */
public final class RuleInducer {

    /** Share of a pattern's fixes that must share one shape. */
    public static final double MIN_SHARE = 0.8;
    static final int KEYWORD_WINDOW = 6;
    private static final int MAX_KEYWORDS = 3;
    private static final int MAX_PHRASE_WORDS = 8;

    /** Function words: never a keyword, and a shared phrase needs a word that is not one. */
    static final Set<String> STOP = Set.of("a", "an", "the", "and", "or", "but", "of", "to", "in", "on", "at", "by",
            "for", "with", "from", "as", "is", "are", "was", "were", "be", "been", "it", "its", "this", "that", "these",
            "those", "our", "your", "their", "his", "her", "you", "we", "they", "has", "have", "had", "not", "no", "so",
            "than", "then", "also", "just", "very", "all", "any", "each", "every", "up", "out", "over", "into", "about",
            "only", "more", "most", "can", "will", "which", "who", "what", "there", "here");

    private RuleInducer() {}

    /**
     * @param ruleId the id the rule gets (unique in the job)
     * @param minItems {@code santa.systematic-min-items}: the fewest fixes a rule is learned from
     * @return the learned rule, or empty when the fixes share no inducible shape
     */
    public static Optional<LearnedRule> induce(String ruleId, PatternEvidence pattern, int minItems) {
        List<AcceptedFix> fixes = pattern.fixes();
        if (fixes.isEmpty()) {
            return Optional.empty();
        }
        Map<AcceptedFix, FixShape> shapes = new LinkedHashMap<>();
        for (AcceptedFix f : fixes) {
            FixShapes.of(f).ifPresent(s -> shapes.put(f, s));
        }
        int needed = Math.max(minItems, (int) Math.ceil(MIN_SHARE * fixes.size() - 1e-9));
        Map<Object, List<AcceptedFix>> byKey = new LinkedHashMap<>();
        shapes.forEach((f, s) -> keys(s).forEach(k -> byKey.computeIfAbsent(k, x -> new ArrayList<>()).add(f)));
        return byKey.entrySet().stream()
                .filter(e -> e.getValue().size() >= needed)
                .sorted(Comparator.comparingInt((Map.Entry<Object, List<AcceptedFix>> e) -> e.getValue().size()).reversed())
                .map(e -> build(ruleId, pattern, e.getKey(), e.getValue(), shapes, minItems))
                .flatMap(Optional::stream)
                .findFirst();
    }

    /** What fixes must agree on to share a shape. */
    private static List<Object> keys(FixShape s) {
        if (s instanceof FixShapes.Number n) {
            return new ArrayList<>(n.columns());
        }
        if (s instanceof FixShapes.Appended a) {
            return List.of(FixShapes.normalise(a.sentence()));
        }
        return List.of(s instanceof FixShapes.Removed ? Shape.SENTENCE_REMOVED : Shape.TERM_SUBSTITUTED);
    }

    private static Optional<LearnedRule> build(String id, PatternEvidence pattern, Object key, List<AcceptedFix> fixes,
            Map<AcceptedFix, FixShape> shapes, int minItems) {
        Optional<Built> built;
        if (key instanceof ColumnUnit cu) {
            built = numberRule(id, cu, fixes, shapes);
        } else if (key == Shape.SENTENCE_REMOVED) {
            built = removalRule(id, pattern, fixes, shapes);
        } else if (key == Shape.TERM_SUBSTITUTED) {
            built = substitutionRule(id, fixes, shapes);
        } else {
            built = appendRule(id, pattern, fixes, shapes);
        }
        return built.flatMap(b -> {
            dev.santabatch.prepass.rules.RuleEngine probe =
                    new LearnedRule(pattern.criterion(), b.shape(), b.spec(), List.of(), pattern.fixes().size()).engine();
            List<String> support = fixes.stream()
                    .filter(f -> !probe.check(f.before(), f.facts()).isEmpty() && probe.check(f.after(), f.facts()).isEmpty())
                    .map(AcceptedFix::itemId).distinct().toList();
            return support.size() >= minItems
                    ? Optional.of(new LearnedRule(pattern.criterion(), b.shape(), b.spec(), support, pattern.fixes().size()))
                    : Optional.empty();
        });
    }

    private record Built(Shape shape, RuleSpec spec) {}

    // ------------------------------------------------------------------ number-grounding

    private static Optional<Built> numberRule(String id, ColumnUnit cu, List<AcceptedFix> fixes,
            Map<AcceptedFix, FixShape> shapes) {
        Map<String, Integer> near = new HashMap<>();
        for (AcceptedFix f : fixes) {
            Set<String> words = new HashSet<>();
            for (Stated q : ((FixShapes.Number) shapes.get(f)).corrected()) {
                words.addAll(wordsNear(f.before(), q));
            }
            words.forEach(w -> near.merge(w, 1, Integer::sum));
        }
        Set<String> named = Set.of(cu.column().toLowerCase(Locale.ROOT).split("[^\\p{L}]+"));
        List<String> keywords = mostShared(near, fixes.size(), named);
        if (keywords.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new Built(Shape.NUMBER_CORRECTED, new RuleSpec.NumberGrounding(id,
                List.of(new RuleSpec.GroundedAttribute(cu.column(), cu.unit(), keywords)), FixKind.CORRECT)));
    }

    /** Content words of the quantity's sentence within the window before its start or after its end. */
    private static Set<String> wordsNear(String text, Stated q) {
        SentenceSplitter.Span s = SentenceSplitter.sentenceAt(text, q.start());
        List<FixShapes.Token> words = FixShapes.words(text.substring(s.start(), s.end()));
        int from = q.start() - s.start();
        int to = q.end() - s.start();
        List<String> before = new ArrayList<>();
        List<String> after = new ArrayList<>();
        for (FixShapes.Token w : words) {
            if (w.end() <= from) {
                before.add(w.text());
            } else if (w.start() >= to) {
                after.add(w.text());
            }
        }
        Set<String> out = new LinkedHashSet<>();
        before.subList(Math.max(0, before.size() - KEYWORD_WINDOW), before.size()).forEach(w -> addKeyword(w, out));
        after.subList(0, Math.min(KEYWORD_WINDOW, after.size())).forEach(w -> addKeyword(w, out));
        return out;
    }

    private static void addKeyword(String word, Set<String> out) {
        String w = word.toLowerCase(Locale.ROOT);
        if (w.length() >= 3 && !STOP.contains(w) && w.chars().noneMatch(Character::isDigit)
                && dev.santabatch.prepass.rules.StatedQuantities.in("1 " + w).isEmpty() && !isNumberWord(w)) {
            out.add(w);
        }
    }

    private static boolean isNumberWord(String w) {
        return !dev.santabatch.prepass.rules.StatedQuantities.in(w + " hours").isEmpty();
    }

    /**
     * The words seen in at least half the fixes, at most {@value #MAX_KEYWORDS}: words of the column's
     * name first (the text names the attribute), then the most shared.
     */
    private static List<String> mostShared(Map<String, Integer> counts, int fixes, Set<String> named) {
        return counts.entrySet().stream()
                .filter(e -> 2 * e.getValue() >= fixes)
                .sorted(Comparator.comparing((Map.Entry<String, Integer> e) -> !named.contains(e.getKey()))
                        .thenComparing(Map.Entry.<String, Integer>comparingByValue().reversed())
                        .thenComparing(Map.Entry.comparingByKey()))
                .limit(MAX_KEYWORDS).map(Map.Entry::getKey).toList();
    }

    // ------------------------------------------------------------------ forbidden-terms, remove-sentence

    private static Optional<Built> removalRule(String id, PatternEvidence pattern, List<AcceptedFix> fixes,
            Map<AcceptedFix, FixShape> shapes) {
        List<List<String>> removed = new ArrayList<>();
        for (AcceptedFix f : fixes) {
            removed.add(((FixShapes.Removed) shapes.get(f)).sentences().stream().map(FixShapes::normalise).toList());
        }
        List<String> kept = new ArrayList<>();
        fixes.forEach(f -> kept.add(FixShapes.normalise(f.after())));
        pattern.passed().forEach(p -> kept.add(FixShapes.normalise(p.text())));
        Map<String, Integer> coverage = new HashMap<>();
        for (List<String> sentences : removed) {
            Set<String> phrases = new HashSet<>();
            sentences.forEach(s -> phrases.addAll(phrases(s)));
            phrases.forEach(p -> coverage.merge(p, 1, Integer::sum));
        }
        int needed = (int) Math.ceil(MIN_SHARE * fixes.size() - 1e-9);
        return coverage.entrySet().stream()
                .filter(e -> e.getValue() >= needed)
                .filter(e -> kept.stream().noneMatch(k -> containsWords(k, e.getKey())))
                .max(Comparator.comparingInt((Map.Entry<String, Integer> e) -> e.getValue())
                        .thenComparingInt(e -> e.getKey().split(" ").length)
                        .thenComparing(Map.Entry::getKey, Comparator.reverseOrder()))
                .map(e -> new Built(Shape.SENTENCE_REMOVED, new RuleSpec.ForbiddenTerms(id, List.of(e.getKey()),
                        List.of(), Map.of(), FixKind.REMOVE_SENTENCE)));
    }

    /**
     * Runs of 2 to {@value #MAX_PHRASE_WORDS} words with only spaces between them (as a forbidden
     * term matches), holding a content word.
     */
    private static Set<String> phrases(String sentence) {
        Set<String> out = new HashSet<>();
        for (String run : sentence.split("[^\\p{L}\\p{N}'\u2019\\s\\-]+")) {
            String[] w = run.strip().split("[\\s\\-]+");
            for (int i = 0; i < w.length; i++) {
                for (int n = 2; n <= MAX_PHRASE_WORDS && i + n <= w.length; n++) {
                    List<String> words = List.of(w).subList(i, i + n);
                    if (words.stream().anyMatch(x -> x.length() >= 4 && !STOP.contains(x))
                            && words.stream().noneMatch(String::isEmpty)) {
                        out.add(String.join(" ", words));
                    }
                }
            }
        }
        return out;
    }

    private static boolean containsWords(String text, String phrase) {
        return (" " + String.join(" ", text.split("[^\\p{L}\\p{N}'\u2019]+")) + " ").contains(" " + phrase + " ");
    }

    // ------------------------------------------------------------------ forbidden-terms, substitute

    private static Optional<Built> substitutionRule(String id, List<AcceptedFix> fixes, Map<AcceptedFix, FixShape> shapes) {
        Map<String, Map<String, Integer>> byTerm = new LinkedHashMap<>();
        Map<String, Set<String>> termFixes = new HashMap<>();
        for (AcceptedFix f : fixes) {
            for (FixShapes.Substitution inflected : ((FixShapes.Substituted) shapes.get(f)).substitutions()) {
                // "cures" -> "relieves" and "cured" -> "relieved" are one term, "cure" -> "relieve"
                FixShapes.Substitution s = baseForm(inflected);
                byTerm.computeIfAbsent(s.term(), k -> new HashMap<>()).merge(s.replacement(), 1, Integer::sum);
                termFixes.computeIfAbsent(s.term(), k -> new HashSet<>()).add(f.itemId());
            }
        }
        Map<String, String> replacements = new LinkedHashMap<>();
        byTerm.forEach((term, reps) -> {
            if (termFixes.get(term).size() >= 2) {
                replacements.put(term, mostFrequent(reps));
            }
        });
        if (replacements.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new Built(Shape.TERM_SUBSTITUTED, new RuleSpec.ForbiddenTerms(id,
                List.copyOf(replacements.keySet()), List.of(), replacements, FixKind.SUBSTITUTE)));
    }

    /** Suffixes of an inflected last word, longest first, each with what its base form ends in instead. */
    private static final List<String[]> INFLECTIONS = List.of(new String[] {"ies", "y"}, new String[] {"ied", "y"},
            new String[] {"ing", "e"}, new String[] {"ing", ""}, new String[] {"es", ""}, new String[] {"ed", "e"},
            new String[] {"ed", ""}, new String[] {"s", ""}, new String[] {"d", ""});

    /**
     * The base form of a substituted term and of its replacement: a shorter form whose forbidden-terms
     * substitution (which matches the inflections of a term's last word and carries the inflection
     * over to the replacement) turns the term as written into the replacement as written; the
     * substitution itself when no shorter form does. English inflection is ambiguous from one word
     * ("relieving" may come from "reliev" or "relieve"); the choice below is right for -s and -ed.
     */
    static FixShapes.Substitution baseForm(FixShapes.Substitution s) {
        String term = null;
        String replacement = null;
        int added = Integer.MAX_VALUE;
        for (String[] t : INFLECTIONS) {
            String base = uninflect(s.term(), t);
            if (base == null || term != null && base.length() < term.length()) {
                continue; // the least-stripped term: "cures" gives "cure", not "cur"
            }
            for (String[] r : INFLECTIONS) {
                String rep = uninflect(s.replacement(), r);
                if (rep == null || !substitutes(base, rep, s)) {
                    continue;
                }
                // for one term, the replacement that restores least, then the least stripped:
                // "transformed" gives "transform", not "transforme"; "relieves" gives "relieve"
                boolean longerTerm = term == null || base.length() > term.length();
                if (longerTerm || r[1].length() < added
                        || r[1].length() == added && rep.length() > replacement.length()) {
                    term = base;
                    replacement = rep;
                    added = r[1].length();
                }
            }
        }
        return term != null ? new FixShapes.Substitution(term, replacement) : s;
    }

    /** Whether forbidden-terms on {@code term} with {@code replacement} turns the substitution's term into its replacement. */
    private static boolean substitutes(String term, String replacement, FixShapes.Substitution s) {
        RuleSpec probe = new RuleSpec.ForbiddenTerms("base-form", List.of(term), List.of(), Map.of(term, replacement),
                FixKind.SUBSTITUTE);
        return new LearnedRule("base-form", Shape.TERM_SUBSTITUTED, probe, List.of(), 0).fix(s.term(), Map.of()).text()
                .equals(s.replacement());
    }

    /** The words with the last one's suffix replaced, or null when it does not end so or gets too short. */
    private static String uninflect(String words, String[] suffix) {
        int last = words.lastIndexOf(' ') + 1;
        String word = words.substring(last);
        if (!word.endsWith(suffix[0]) || word.length() - suffix[0].length() + suffix[1].length() < 3) {
            return null;
        }
        return words.substring(0, last) + word.substring(0, word.length() - suffix[0].length()) + suffix[1];
    }

    private static String mostFrequent(Map<String, Integer> counts) {
        return counts.entrySet().stream()
                .max(Map.Entry.<String, Integer>comparingByValue()
                        .thenComparing(Map.Entry::getKey, Comparator.reverseOrder()))
                .orElseThrow().getKey();
    }

    // ------------------------------------------------------------------ required-phrase, append

    private static Optional<Built> appendRule(String id, PatternEvidence pattern, List<AcceptedFix> fixes,
            Map<AcceptedFix, FixShape> shapes) {
        String sentence = ((FixShapes.Appended) shapes.get(fixes.get(0))).sentence();
        String wanted = FixShapes.normalise(sentence).replaceAll("[.!?]+$", "");
        List<PassedItem> without = pattern.passed().stream()
                .filter(p -> !FixShapes.normalise(p.text()).contains(wanted)).toList();
        Set<String> columns = new TreeSet<>();
        fixes.forEach(f -> columns.addAll(f.facts().keySet()));
        Function<String, Set<String>> valuesOf = c -> {
            Set<String> v = new TreeSet<>();
            fixes.forEach(f -> v.add(value(f.facts().get(c))));
            return v;
        };
        return columns.stream()
                .filter(c -> {
                    Set<String> v = valuesOf.apply(c);
                    return !v.contains("") && 2 * v.size() <= fixes.size()
                            && without.stream().noneMatch(p -> v.contains(value(p.facts().get(c))));
                })
                .min(Comparator.comparingInt((String c) -> valuesOf.apply(c).size()).thenComparing(Comparator.naturalOrder()))
                .map(c -> new Built(Shape.SENTENCE_APPENDED, new RuleSpec.RequiredPhrase(id, c,
                        originalValues(fixes, c), sentence, FixKind.APPEND)));
    }

    private static String value(String raw) {
        return raw == null ? "" : raw.strip().toLowerCase(Locale.ROOT);
    }

    private static List<String> originalValues(Collection<AcceptedFix> fixes, String column) {
        Map<String, String> byKey = new LinkedHashMap<>();
        fixes.forEach(f -> byKey.putIfAbsent(value(f.facts().get(column)), f.facts().get(column).strip()));
        return List.copyOf(new TreeSet<>(byKey.values()));
    }
}
