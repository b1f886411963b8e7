package dev.santabatch.batchfix;

import dev.santabatch.batchfix.induction.RuleValidator;
import dev.santabatch.review.semantic.SemanticIndex;
import dev.santabatch.review.semantic.SentenceVectors;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * The cheap first stage of the model matcher: for each model-found pattern left to the matcher,
 * picks the eligible items worth a model call, without a model call, best first. By meaning, not
 * words: a pattern's wording varies from item to item (paraphrased boilerplate, off-topic sentences
 * about the same thing in other words), and the words it shares with clean items are the catalog's
 * own (every listing names a rating, a location, a price), so word evidence finds every item or none.
 *
 * <ul>
 *   <li>The pattern's <em>failing sentences</em>, per sampled item ({@link #failingSentences}): the
 *       sentences its issues quote; else the sentences its accepted fix removed or changed (before
 *       vs after); else its whole text, sentence by sentence.
 *   <li>Every eligible item's sentences are embedded once per revision (all-MiniLM-L6-v2, stored
 *       with the run: {@link SentenceVectors}); an item's similarity to the pattern is the best
 *       cosine between any of its sentences and any failing sentence.
 *   <li>An item is a candidate when its similarity is at least the floor
 *       ({@code matcher.min-similarity}): an item about other things is not a candidate at all,
 *       however few candidates there are. Candidates are ranked by similarity.
 *   <li>For a criterion the offline reviewers judge (on-specification, original), the items their
 *       per-item checks flag ({@link OfflineNarrowingChecks}) are candidates too, ranked after every
 *       item above the floor, by how strongly the checks flag them: a drifted sentence unique to its
 *       item is near no sampled sentence, and the checks find it by its own atypicality.
 * </ul>
 * The best-ranked candidates are kept up to what the sample predicts ({@link #predicted}: a pattern
 * seen in k of the n sampled items is carried by at most the 95 % upper limit of k/n of the eligible
 * items, with a margin) and at most a share of the eligible items ({@code matcher.max-candidate-share},
 * a safety limit on spend); how many the caps cut is reported.
 */
public final class PatternNarrowing {

    /**
     * One sampled item of a pattern.
     *
     * @param text its text as the round sampled it
     * @param fixed its text after the fix the Santa loop accepted; {@code null} when it has none
     * @param issues the issue texts of the pattern's criterion its first review gave
     */
    public record Sampled(String text, @Nullable String fixed, List<String> issues) {}

    /** What the sample shows of one pattern. */
    public record Evidence(int patternNo, String criterion, List<Sampled> sampled) {}

    /** An eligible item's current revision. */
    public record Item(String id, int rev, String content) {}

    /**
     * What the offline reviewers' checks say of the eligible items, per criterion they judge: the
     * items they flag, each with a rank score (higher: more strongly flagged).
     *
     * @param criteria the criteria the checks judge (patterns of these are narrowed by them too)
     * @param flagged criterion to (item id to score)
     * @param checks per criterion, the per-item offline checks run (items x checks)
     */
    public record Offline(Set<String> criteria, Map<String, Map<String, Double>> flagged, Map<String, Long> checks) {

        public static final Offline NONE = new Offline(Set.of(), Map.of(), Map.of());
    }

    /**
     * One pattern's candidates.
     *
     * @param ids the candidate item ids, best first, after the cap
     * @param found how many the narrowing found before the cap
     * @param method {@value #MEANING_METHOD}, or {@value #MEANING_AND_CHECKS_METHOD} for a criterion
     *     the offline checks judge
     * @param offlineChecks the offline per-item checks run for this pattern
     */
    public record Narrowed(List<String> ids, int found, String method, long offlineChecks) {}

    static final String MEANING_METHOD = "meaning";
    static final String MEANING_AND_CHECKS_METHOD = "meaning+offline-checks";

    /** A quoted span in an issue: double or typographic quotes (a straight single quote is usually an apostrophe). */
    private static final Pattern QUOTED = Pattern.compile("\"([^\"]{3,})\"|\u201C([^\u201D]{3,})\u201D|\u2018([^\u2019]{3,})\u2019");

    private final SentenceVectors vectors;
    private final double minSimilarity;

    /**
     * @param vectors the run's stored sentence embeddings
     * @param minSimilarity the floor ({@code matcher.min-similarity})
     */
    public PatternNarrowing(SentenceVectors vectors, double minSimilarity) {
        this.vectors = vectors;
        this.minSimilarity = minSimilarity;
    }

    /**
     * Narrows the patterns left to the matcher (those no rule takes).
     *
     * @param run the run (whose stored sentence vectors are searched, and the new ones stored)
     * @param eligible the eligible items (unsampled, not verified, not held)
     * @param sampleSize the round's sample size, which the pattern's sampled items are a share of
     * @param maxShare the cap, as a share of {@code eligible}
     * @param offline the offline checks' flags, for the criteria they judge
     * @param checkStop called between batches of embeddings and of the similarity scan (throws to stop)
     * @return per pattern number, its candidates
     */
    public Map<Integer, Narrowed> narrow(long run, List<Evidence> patterns, List<Item> eligible, int sampleSize,
            double maxShare, Offline offline, Runnable checkStop) {
        Map<Integer, Narrowed> out = new LinkedHashMap<>();
        if (patterns.isEmpty()) {
            return out;
        }
        List<SentenceVectors.Revision> revisions = eligible.stream()
                .map(i -> new SentenceVectors.Revision(i.id(), i.rev(), i.content())).toList();
        vectors.ensure(run, revisions, checkStop);
        List<float[][]> queries = new ArrayList<>();
        for (Evidence p : patterns) {
            Set<String> failing = new LinkedHashSet<>();
            p.sampled().forEach(s -> failing.addAll(failingSentences(s)));
            queries.add(vectors.embedSentences(List.copyOf(failing)).toArray(float[][]::new));
        }
        double[][] similarity = vectors.best(run, revisions, queries, checkStop);
        int cap = (int) Math.max(1, Math.floor(maxShare * eligible.size()));
        for (int p = 0; p < patterns.size(); p++) {
            Evidence e = patterns.get(p);
            boolean byChecks = offline.criteria().contains(e.criterion());
            Map<String, Double> flagged = byChecks ? offline.flagged().getOrDefault(e.criterion(), Map.of()) : Map.of();
            record Scored(String id, double score) {}
            List<Scored> scored = new ArrayList<>();
            for (int i = 0; i < eligible.size(); i++) {
                String id = eligible.get(i).id();
                double s = similarity[p][i];
                Double check = flagged.get(id);
                if (s >= minSimilarity) {
                    scored.add(new Scored(id, 1 + s)); // above every item only the checks flag
                } else if (check != null) {
                    scored.add(new Scored(id, check / (1 + check)));
                }
            }
            scored.sort(Comparator.comparingDouble(Scored::score).reversed());
            int limit = Math.min(cap, predicted(e.sampled().size(), sampleSize, eligible.size()));
            out.put(e.patternNo(), new Narrowed(scored.stream().limit(limit).map(Scored::id).toList(), scored.size(),
                    byChecks ? MEANING_AND_CHECKS_METHOD : MEANING_METHOD,
                    byChecks ? offline.checks().getOrDefault(e.criterion(), 0L) : 0));
        }
        return out;
    }

    /**
     * The candidates worth a matcher call for a pattern seen in {@code k} of {@code n} sampled items:
     * as many as the sample says the eligible items can plausibly carry
     * ({@link RuleValidator#cap}: the prevalence's 95 % upper limit, with a margin), at least one.
     * The ranking puts the likeliest first; asking about more pays for items the sample says are
     * clean (on a templated catalog every text is near a failing sentence's template).
     */
    public static int predicted(int k, int n, int eligible) {
        if (n <= 0 || k <= 0) {
            return eligible;
        }
        return (int) Math.max(1, Math.ceil(RuleValidator.cap(k, n, eligible)));
    }

    /**
     * A sampled item's failing sentences: the sentences of its text that hold a span one of its
     * issues quotes; else the sentences its accepted fix removed or changed (in the text before, not
     * in the text after); else every sentence of its text.
     */
    static List<String> failingSentences(Sampled s) {
        List<String> sentences = SemanticIndex.sentencesOf(s.text());
        Set<String> out = new LinkedHashSet<>();
        for (String issue : s.issues()) {
            Matcher m = QUOTED.matcher(issue);
            while (m.find()) {
                String quote = normalise(m.group(1) != null ? m.group(1) : m.group(2) != null ? m.group(2) : m.group(3));
                for (String sentence : sentences) {
                    String n = normalise(sentence);
                    if (!quote.isEmpty() && (n.contains(quote) || quote.contains(n))) {
                        out.add(sentence);
                    }
                }
            }
        }
        if (out.isEmpty() && s.fixed() != null) {
            Set<String> after = new HashSet<>();
            SemanticIndex.sentencesOf(s.fixed()).forEach(x -> after.add(normalise(x)));
            sentences.stream().filter(x -> !after.contains(normalise(x))).forEach(out::add);
        }
        return out.isEmpty() ? sentences : List.copyOf(out);
    }

    /** Lower case, runs of white space as one space, no surrounding white space or end punctuation. */
    private static String normalise(String text) {
        return text.toLowerCase(Locale.ROOT).replaceAll("\\s+", " ").replaceAll("^[\\s\\p{Punct}]+|[\\s\\p{Punct}]+$", "");
    }
}
