package dev.santabatch.loop;

import dev.santabatch.review.FixExample;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The cheap first stage of the model matcher: for each model-found pattern, picks the eligible
 * items worth a model call, without a model call, best first.
 *
 * <ul>
 *   <li>A pattern of a criterion the offline reviewers judge (on-specification, original): the
 *       offline reviewers' own per-item checks on the round snapshot ({@link OfflineNarrowingChecks}:
 *       the semantic reviewer's sentence typicality, its "closer to another item's source" and
 *       near-duplicate checks, the lexical reviewer's checks), which find a drifted sentence by
 *       meaning even when it is unique to its item; plus the passage evidence below (an item that
 *       carries part of a passage the sample's fixes removed, or a near neighbour of a failing
 *       sampled text). Candidates are ranked by how strongly the checks flag them.
 *   <li>Any other criterion (nothing offline judges it): the words the sample's own fixes of the
 *       pattern removed (before minus after) and the words its issue texts quote, weighted by
 *       rarity in the eligible items; the word 3-shingles the fixes removed (containment: how much
 *       of a removed passage an item carries); and word 3-shingle similarity to the pattern's
 *       failing sampled texts (nearest neighbours). An item is a candidate when it carries a rare
 *       removed or quoted word, part of a removed passage, or is a near neighbour.
 * </ul>
 * The candidates are capped at a share of the eligible items (the best-ranked kept): a safety limit
 * on spend, not the filter; how many the cap cut is reported.
 */
public final class PatternNarrowing {

    /** What the sample shows of one pattern. */
    public record Evidence(int patternNo, String criterion, List<String> issueTexts, List<FixExample> fixes,
            List<String> failingTexts) {}

    /** An eligible item. */
    public record Item(String id, String content) {}

    /**
     * What the offline reviewers' checks say of the eligible items, per criterion they judge: the
     * items they flag, each with a rank score (higher: more strongly flagged).
     *
     * @param criteria the criteria the checks judge (patterns of these are narrowed by them)
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
     * @param method {@code offline-checks} or {@code word-evidence}
     * @param offlineChecks the offline per-item checks run for this pattern
     */
    public record Narrowed(List<String> ids, int found, String method, long offlineChecks) {}

    static final String OFFLINE_METHOD = "offline-checks";
    static final String WORD_METHOD = "word-evidence";

    static final double CONTAINMENT = 0.25;
    static final double NEIGHBOUR = 0.30;
    /** A word in more than this share of the eligible items says nothing about a pattern. */
    static final double MAX_KEYWORD_DF = 0.25;

    private static final Pattern WORD = Pattern.compile("[\\p{L}][\\p{L}\\p{N}'-]*");
    private static final Pattern QUOTED = Pattern.compile("[\"“‘']([^\"”’']{3,})[\"”’']");
    private static final Set<String> STOP = Set.of("the", "and", "for", "with", "this", "that", "its", "his", "her",
            "our", "your", "you", "are", "was", "were", "has", "have", "had", "not", "but", "from", "into", "onto",
            "all", "any", "can", "will", "than", "then", "they", "them", "their", "there", "it's", "also", "more", "most",
            "very", "just", "only", "each", "every", "other", "about", "over", "under", "out", "off", "one", "two");

    private PatternNarrowing() {}

    /** Word evidence only (no offline checks). */
    public static Map<Integer, List<String>> candidates(List<Evidence> patterns, List<Item> eligible, double maxShare) {
        Map<Integer, List<String>> out = new LinkedHashMap<>();
        narrow(patterns, eligible, maxShare, Offline.NONE).forEach((p, n) -> out.put(p, n.ids()));
        return out;
    }

    /**
     * @return per pattern number, its candidates
     */
    public static Map<Integer, Narrowed> narrow(List<Evidence> patterns, List<Item> eligible, double maxShare,
            Offline offline) {
        int n = eligible.size();
        List<Set<String>> words = new ArrayList<>(n);
        List<Set<String>> shingles = new ArrayList<>(n);
        Map<String, Integer> df = new HashMap<>();
        for (Item item : eligible) {
            Set<String> w = new HashSet<>(words(item.content()));
            words.add(w);
            shingles.add(shingles(item.content()));
            w.forEach(t -> df.merge(t, 1, Integer::sum));
        }
        int cap = (int) Math.max(1, Math.floor(maxShare * n));
        Map<Integer, Narrowed> out = new LinkedHashMap<>();
        for (Evidence p : patterns) {
            boolean byChecks = offline.criteria().contains(p.criterion());
            Map<String, Double> flagged = byChecks ? offline.flagged().getOrDefault(p.criterion(), Map.of()) : Map.of();
            // words alone are no evidence where the checks judge: every item carries some rare word
            Map<String, Double> keywords = byChecks ? Map.of() : keywords(p);
            List<Set<String>> removed = new ArrayList<>();
            for (FixExample f : p.fixes()) {
                Set<String> r = shingles(f.before());
                r.removeAll(shingles(f.after()));
                if (!r.isEmpty()) {
                    removed.add(r);
                }
            }
            List<Set<String>> failing = new ArrayList<>();
            p.failingTexts().forEach(t -> failing.add(shingles(t)));
            p.fixes().forEach(f -> failing.add(shingles(f.before())));
            record Scored(String id, double score) {}
            List<Scored> scored = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                double keyword = 0;
                for (Map.Entry<String, Double> k : keywords.entrySet()) {
                    int d = df.getOrDefault(k.getKey(), 0);
                    if (d > 0 && d <= MAX_KEYWORD_DF * n && words.get(i).contains(k.getKey())) {
                        keyword += k.getValue() * Math.log((double) n / d);
                    }
                }
                double containment = 0;
                for (Set<String> r : removed) {
                    containment = Math.max(containment, overlap(shingles.get(i), r) / (double) r.size());
                }
                double neighbour = 0;
                for (Set<String> f : failing) {
                    neighbour = Math.max(neighbour, jaccard(shingles.get(i), f));
                }
                Double check = flagged.get(eligible.get(i).id());
                if (check != null || keyword > 0 || containment >= CONTAINMENT || neighbour >= NEIGHBOUR) {
                    scored.add(new Scored(eligible.get(i).id(), (check == null ? 0 : check)
                            + 2 * containment + neighbour + keyword / (1 + keyword)));
                }
            }
            scored.sort(Comparator.comparingDouble(Scored::score).reversed());
            out.put(p.patternNo(), new Narrowed(scored.stream().limit(cap).map(Scored::id).toList(), scored.size(),
                    byChecks ? OFFLINE_METHOD : WORD_METHOD, byChecks ? offline.checks().getOrDefault(p.criterion(), 0L) : 0));
        }
        return out;
    }

    /** Words the fixes removed (weight 1 per fix) and words the issue texts quote (0.5 per issue). */
    static Map<String, Double> keywords(Evidence p) {
        Map<String, Double> k = new HashMap<>();
        for (FixExample f : p.fixes()) {
            Set<String> removed = new HashSet<>(words(f.before()));
            removed.removeAll(words(f.after()));
            removed.forEach(w -> k.merge(w, 1.0, Double::sum));
        }
        for (String issue : p.issueTexts()) {
            Matcher m = QUOTED.matcher(issue);
            Set<String> quoted = new HashSet<>();
            while (m.find()) {
                quoted.addAll(words(m.group(1)));
            }
            quoted.forEach(w -> k.merge(w, 0.5, Double::sum));
        }
        return k;
    }

    static List<String> words(String text) {
        List<String> out = new ArrayList<>();
        Matcher m = WORD.matcher(text.toLowerCase(Locale.ROOT));
        while (m.find()) {
            String w = m.group();
            if (w.length() >= 3 && !STOP.contains(w)) {
                out.add(w);
            }
        }
        return out;
    }

    static Set<String> shingles(String text) {
        List<String> all = new ArrayList<>();
        Matcher m = WORD.matcher(text.toLowerCase(Locale.ROOT));
        while (m.find()) {
            all.add(m.group());
        }
        Set<String> out = new HashSet<>();
        for (int i = 0; i + 3 <= all.size(); i++) {
            out.add(all.get(i) + " " + all.get(i + 1) + " " + all.get(i + 2));
        }
        return out;
    }

    private static int overlap(Set<String> a, Set<String> b) {
        Set<String> small = a.size() <= b.size() ? a : b;
        Set<String> large = small == a ? b : a;
        int n = 0;
        for (String s : small) {
            if (large.contains(s)) {
                n++;
            }
        }
        return n;
    }

    private static double jaccard(Set<String> a, Set<String> b) {
        if (a.isEmpty() || b.isEmpty()) {
            return 0;
        }
        int inter = overlap(a, b);
        return inter / (double) (a.size() + b.size() - inter);
    }
}
