package dev.santabatch.review.semantic;

import dev.santabatch.config.SemanticSettings;
import dev.santabatch.review.Check;
import dev.santabatch.review.CheckResult;
import dev.santabatch.review.ConfigurationException;
import dev.santabatch.review.Review;
import dev.santabatch.review.ReviewOutcome;
import dev.santabatch.review.ReviewRequest;
import dev.santabatch.review.Reviewer;
import dev.santabatch.review.Verdict;
import dev.santabatch.text.SentenceSplitter;
import dev.santabatch.text.SentenceSplitter.Span;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * The {@code semantic} offline reviewer: judges {@code on-specification} and {@code original} with
 * all-MiniLM-L6-v2 sentence embeddings against the round's {@link SemanticIndex}; NOT_EVALUATED for
 * every other criterion. Stateless between items (a fresh instance per panel round costs nothing:
 * the index and the model are shared).
 *
 * <ul>
 *   <li>on-specification: a sentence whose typicality (the best of its cosine to its own source facts,
 *       to the task specification, and its density among the reference sentences of its category) is below
 *       {@code topic-similarity} is off-topic (in a category with at least {@code min-category-peers}
 *       other items: in a smaller one the density is no evidence, and the test is not applied). The
 *       sentence must also fail the {@link TopicAnchors} (typicality minus anchor margin below a bar
 *       that depends on the item's style): in an item written like the catalog (its sentences' mean
 *       density at least {@code style-density}) a low typicality is evidence, and the bar is
 *       {@code catalog-anchor-score} (a sentence rare in its category that reads like product copy,
 *       such as a claim the rules pre-pass rewrote, is not off-topic); in an item of another style a
 *       low typicality is no evidence by itself, the bar is the lower {@code anchor-score}, or the
 *       whole text is off-topic when no sentence reaches {@code whole-text-source} to the item's own
 *       source; a sentence closer to another item's source than to
 *       its own (by {@code other-source-margin}, at least {@code other-source-similarity}) is about
 *       that item; when at least {@code whole-text-share} of the sentences are off-topic, the whole
 *       text is.
 *   <li>original: a near-copy (content vectors at least {@code copy-cosine}), or a passage (the mean
 *       of its atypical sentences, at least {@code paraphrase-min-sentences} of them) at least
 *       {@code passage-cosine} similar to another item's passage: a shared passage, copied, edited or
 *       paraphrased (a paraphrase reorders and merges sentences; the passage as a whole still says
 *       the same). Names the other items.
 * </ul>
 */
public final class SemanticReviewer implements Reviewer {

    public static final String ON_SPECIFICATION = "on-specification";
    public static final String ORIGINAL = "original";
    public static final Set<String> JUDGEABLE = Set.of(ON_SPECIFICATION, ORIGINAL);

    /** Why a sentence fails on-specification. */
    public enum Reason {
        OFF_TOPIC,
        OTHER_ITEM
    }

    /**
     * One sentence that fails on-specification, located in the reviewed content.
     *
     * @param number 1-based sentence number
     * @param span the sentence's span in the content (for the offline fixer's remove-sentence fix)
     * @param text the sentence
     * @param similarity its typicality (best cosine to its own product, task spec, category)
     * @param otherItem for {@link Reason#OTHER_ITEM}: the item whose source it is closer to
     * @param otherSimilarity for {@link Reason#OTHER_ITEM}: its cosine to that item's source
     */
    public record SentenceFinding(
            int number, Span span, String text, Reason reason, double similarity, @Nullable String otherItem, double otherSimilarity) {}

    /** Another item this one near-duplicates: by the whole text, or by shared sentences. */
    public record Duplicate(String otherItem, double cosine, int sharedSentences) {}

    /**
     * Everything the reviewer found in one text.
     *
     * @param sentences the content's sentences
     * @param findings failing sentences (on-specification)
     * @param wholeText whether the whole text is off-topic
     * @param lowestSimilarity the lowest sentence typicality
     * @param duplicates near-duplicated items, most similar first (original)
     * @param categoryPeers other items in the reference of the item's category, counted up to
     *     {@code min-category-peers}: below it, no sentence was judged off-topic
     * @param atLeast a near-duplicate query stopped at {@link SemanticIndex#MAX_NEIGHBOURS}: there may be
     *     more duplicates than listed, and the listed ones are the most similar of those found, not
     *     necessarily of all (a query cut short by {@link SemanticIndex#MAX_CANDIDATE_ROWS} with fewer
     *     found is not marked: {@code SemanticBenchmark} counts such queries)
     */
    public record Analysis(
            List<Span> sentences, List<SentenceFinding> findings, boolean wholeText, double lowestSimilarity, List<Duplicate> duplicates,
            int categoryPeers, boolean atLeast) {}

    private final String id;
    private final Set<String> criteria;
    private final SemanticIndex index;

    public SemanticReviewer(String id, Set<String> criteria, SemanticIndex index) {
        for (String c : criteria) {
            if (!JUDGEABLE.contains(c)) {
                throw new ConfigurationException("the semantic reviewer cannot judge criterion '" + c + "' (only " + JUDGEABLE + ")");
            }
        }
        this.id = id;
        this.criteria = Set.copyOf(criteria);
        this.index = index;
    }

    @Override
    public String id() {
        return id;
    }

    @Override
    public Set<String> criteria() {
        return criteria;
    }

    /** The sentences that fail on-specification, with their spans (for the offline fixer). */
    public List<SentenceFinding> offSpecificationSentences(ReviewRequest request) {
        return analyse(request).findings();
    }

    /** The full analysis of one request. */
    public Analysis analyse(ReviewRequest request) {
        return analyse(request, index::sourceVector);
    }

    /**
     * The full analysis of one request, with the items' source vectors looked up by {@code sourceOf}
     * (a pass over most of the round: {@link SemanticIndex#sourceVectors} read once) instead of one
     * query each; the same analysis when it gives what {@link SemanticIndex#sourceVector} would.
     */
    public Analysis analyse(ReviewRequest request, Function<String, Optional<float[]>> sourceOf) {
        SemanticSettings s = index.settings();
        String content = request.content();
        List<Span> spans = SentenceSplitter.split(content);
        if (spans.isEmpty()) {
            spans = List.of(new Span(0, content.length()));
        }
        List<String> texts = spans.stream().map(sp -> sp.of(content)).toList();

        Optional<SemanticIndex.Stored> stored = index.stored(request.itemId());
        List<float[]> vectors;
        float[] contentVector;
        if (stored.isPresent() && stored.get().contentHash().equals(SemanticIndex.hash(content))
                && stored.get().sentences().size() == texts.size()) {
            vectors = stored.get().sentences();
            contentVector = stored.get().content();
        } else {
            vectors = index.embedder().embedAll(texts, index.executor());
            contentVector = Vectors.mean(vectors, Embedder.DIMENSION);
        }
        float[] source = sourceOf.apply(request.itemId())
                .orElseGet(() -> index.embedder().embed(SemanticIndex.sourceText(request.source())));
        float[] task = request.taskSpec().isBlank() ? null : index.textVector(request.taskSpec());
        String category = stored.map(SemanticIndex.Stored::category).orElse(request.source().get("category"));
        SemanticIndex.Reference reference = index.reference(category);
        int peers = peers(reference, request.itemId(), s.minCategoryPeers());
        boolean offTopicTest = peers >= s.minCategoryPeers();

        // the stored typicality of the round revision (computed at prepare, without the task) saves
        // scanning the category's reference sentences again; the task's cosine is the one term added
        double[] prepared = stored.isPresent() && vectors == stored.get().sentences() && stored.get().typical() != null
                && stored.get().typical().length == texts.size() ? stored.get().typical() : null;
        double[] typical = new double[texts.size()];
        double lowest = 1;
        for (int i = 0; i < texts.size(); i++) {
            typical[i] = prepared != null
                    ? (task == null ? prepared[i] : Math.max(prepared[i], Vectors.dot(vectors.get(i), task)))
                    : SemanticIndex.typicality(vectors.get(i), source, task, reference, request.itemId());
            if (index.houseStyle(texts.get(i))) {
                typical[i] = 1; // the catalog's house style: typical by definition (never off-topic, never in a passage)
            }
            lowest = Math.min(lowest, typical[i]);
        }

        // original: near-copies of the whole text, and shared atypical sentences
        Map<String, Duplicate> dups = new LinkedHashMap<>();
        List<SemanticIndex.Neighbour> copies = index.near(SemanticIndex.CONTENT, contentVector, s.copyCosine(), request.itemId());
        boolean atLeast = copies.size() >= SemanticIndex.MAX_NEIGHBOURS;
        for (SemanticIndex.Neighbour n : copies) {
            dups.put(n.itemId(), new Duplicate(n.itemId(), n.cosine(), 0));
        }
        List<float[]> atypical = new ArrayList<>();
        for (int i = 0; i < texts.size(); i++) {
            if (typical[i] < s.atypicalSimilarity()) {
                atypical.add(vectors.get(i));
            }
        }
        if (atypical.size() >= s.paraphraseMinSentences()) {
            float[] passage = Vectors.mean(atypical, Embedder.DIMENSION);
            List<SemanticIndex.Neighbour> sharing = index.near(SemanticIndex.PASSAGE, passage, s.passageCosine(), request.itemId());
            atLeast |= sharing.size() >= SemanticIndex.MAX_NEIGHBOURS;
            for (SemanticIndex.Neighbour n : sharing) {
                // two texts about similar products are alike because the products are: the passage
                // must be closer than the two items' source facts, unless the items are variants of
                // one product line (then a shared passage is reused text)
                double products = sourceOf.apply(n.itemId()).map(o -> Vectors.dot(source, o)).orElse(-1.0);
                if (products >= s.productLineSimilarity() || n.cosine() - products >= s.passageSourceMargin()) {
                    dups.putIfAbsent(n.itemId(), new Duplicate(n.itemId(), n.cosine(), Math.min(atypical.size(), n.seq())));
                }
            }
        }
        List<Duplicate> duplicates = new ArrayList<>(dups.values());
        duplicates.sort((a, b) -> a.sharedSentences() != b.sharedSentences()
                ? Integer.compare(b.sharedSentences(), a.sharedSentences())
                : Double.compare(b.cosine(), a.cosine()));

        // on-specification. Whether a low typicality is evidence depends on the item's style: the
        // density compares a sentence with the catalog's usual sentences, so it says "off-topic" only
        // for an item written like the catalog; an item in another style (its sentences' mean density
        // below style-density) needs a sentence to also fail the topic anchors
        boolean[] off = new boolean[texts.size()];
        boolean wholeByAnchors = false;
        // a sentence of very few words is not judged on its own (its embedding says little about
        // its subject): never off-topic by itself, and the test opens only on a judged sentence; it
        // still counts in the whole text (a typical short sentence is evidence of the topic)
        boolean[] judged = new boolean[texts.size()];
        // in a small category the density among its few items is no evidence either way (with no
        // other item it is 1): a sentence's typicality there is its cosine to its own source facts
        // and to the task alone
        double[] small = offTopicTest ? null : new double[texts.size()];
        double lowestJudged = 1;
        int judgedCount = 0;
        for (int i = 0; i < texts.size(); i++) {
            judged[i] = words(texts.get(i)) >= s.minSentenceWords();
            if (small != null) {
                small[i] = Math.max(Vectors.dot(vectors.get(i), source), task == null ? -1 : Vectors.dot(vectors.get(i), task));
            }
            if (judged[i]) {
                judgedCount++;
                lowestJudged = Math.min(lowestJudged, small != null ? small[i] : typical[i]);
            }
        }
        if (small != null && judgedCount > 0 && lowestJudged < s.topicSimilarity()) {
            // a small category: only the topic anchors judge, sentence by sentence (no whole-text
            // rule, which rests on the catalog's sentences): a sentence clearly nearer the off-topic
            // bank than the product bank
            TopicAnchors anchors = TopicAnchors.of(index.embedder());
            for (int i = 0; i < texts.size(); i++) {
                off[i] = judged[i] && small[i] < s.topicSimilarity() && anchors.margin(vectors.get(i)) >= s.smallCategoryMargin();
            }
        } else if (offTopicTest && judgedCount > 0 && lowestJudged < s.topicSimilarity()) {
            double densitySum = 0;
            for (float[] v : vectors) {
                densitySum += reference.density(v, request.itemId());
            }
            boolean catalogStyle = densitySum / vectors.size() >= s.styleDensity();
            TopicAnchors anchors = TopicAnchors.of(index.embedder());
            if (catalogStyle) {
                // a low typicality is evidence here, but a sentence can be rare in its category and
                // still read like product copy (a claim sentence the rules pre-pass rewrote): it must
                // also score below catalog-anchor-score against the topic anchors
                for (int i = 0; i < texts.size(); i++) {
                    off[i] = judged[i] && typical[i] < s.topicSimilarity() && typical[i] - anchors.margin(vectors.get(i)) < s.catalogAnchorScore();
                }
            } else {
                boolean allLow = true;
                double bestSource = -1;
                // a text of several sentences: a sentence's coherence with the rest of its text counts
                // (a product sentence in an unusual style still belongs to its text; an inserted
                // anecdote is unlike its neighbours as well as unlike the catalog)
                float[] sum = vectors.size() >= 2 ? Vectors.sum(vectors, Embedder.DIMENSION) : null;
                for (int i = 0; i < texts.size(); i++) {
                    // a short sentence is no evidence of drift, but a typical one is evidence of topic
                    allLow &= typical[i] < s.topicSimilarity();
                    bestSource = Math.max(bestSource, Vectors.dot(vectors.get(i), source));
                    if (judged[i] && typical[i] < s.topicSimilarity()) {
                        double anchored = typical[i] - anchors.margin(vectors.get(i));
                        off[i] = sum == null ? anchored < s.anchorScore()
                                : anchored + Vectors.coherence(vectors.get(i), sum) < s.coherentAnchorScore();
                    }
                }
                if (allLow && bestSource < s.wholeTextSource()) {
                    wholeByAnchors = true;
                    off = judged.clone();
                }
            }
        }
        List<SentenceFinding> findings = new ArrayList<>();
        int offTopic = 0;
        for (int i = 0; i < texts.size(); i++) {
            if (off[i] && index.houseStyle(texts.get(i))) {
                off[i] = false; // the catalog's house style (also in a small category or a text off-topic as a whole)
            }
            if (off[i]) {
                offTopic++;
                findings.add(new SentenceFinding(i + 1, spans.get(i), texts.get(i), Reason.OFF_TOPIC, small != null ? small[i] : typical[i], null, 0));
                continue;
            }
            double own = Vectors.dot(vectors.get(i), source);
            List<SemanticIndex.Neighbour> others = index.near(SemanticIndex.SOURCE, vectors.get(i), Math.max(s.otherSourceSimilarity(), own + s.otherSourceMargin()), request.itemId());
            if (!others.isEmpty()) {
                SemanticIndex.Neighbour o = others.get(0);
                findings.add(new SentenceFinding(i + 1, spans.get(i), texts.get(i), Reason.OTHER_ITEM, own, o.itemId(), o.cosine()));
            }
        }
        boolean whole = judgedCount > 0 && (wholeByAnchors || offTopic >= Math.max(1, Math.ceil(s.wholeTextShare() * texts.size())));
        return new Analysis(spans, findings, whole, lowest, duplicates, peers, atLeast);
    }

    /** Words of a sentence: runs of letters or digits, apostrophes inside (so "—" is no word, "don't" one, "USB-C" two). */
    static int words(String sentence) {
        int n = 0;
        boolean in = false;
        for (int i = 0; i < sentence.length(); ) {
            int cp = sentence.codePointAt(i);
            boolean w = Character.isLetterOrDigit(cp) || (in && (cp == '\'' || cp == '\u2019')); // "don't" is one word
            if (w && !in) {
                n++;
            }
            in = w;
            i += Character.charCount(cp);
        }
        return n;
    }

    /** The distinct items of the reference other than {@code ownItem}, counted up to {@code enough}. */
    static int peers(SemanticIndex.Reference reference, String ownItem, int enough) {
        if (reference == null) {
            return 0;
        }
        Set<String> seen = new java.util.HashSet<>();
        for (String item : reference.itemIds()) {
            if (!item.equals(ownItem) && seen.add(item) && seen.size() >= enough) {
                break;
            }
        }
        return seen.size();
    }

    @Override
    public ReviewOutcome review(ReviewRequest request) {
        long start = System.nanoTime();
        boolean judges = request.criterionIds().stream().anyMatch(criteria::contains);
        Analysis a = judges ? analyse(request) : null; // nothing to judge: no model, no store access
        List<Check> checks = new ArrayList<>();
        List<String> issues = new ArrayList<>();
        for (String criterion : request.criterionIds()) {
            if (!criteria.contains(criterion)) {
                checks.add(new Check(criterion, CheckResult.NOT_EVALUATED, "not judged by the semantic reviewer"));
            } else if (criterion.equals(ON_SPECIFICATION)) {
                List<String> own = onSpecificationIssues(a);
                issues.addAll(own);
                checks.add(own.isEmpty()
                        ? new Check(criterion, CheckResult.PASS, a.categoryPeers() >= index.settings().minCategoryPeers()
                                ? String.format(Locale.ROOT, "every sentence is about its own product (lowest similarity %.2f)", a.lowestSimilarity())
                                : String.format(Locale.ROOT, "no sentence is closer to another item's source, and none off-topic by the topic anchors"
                                        + " alone: the category has %d other items (min-category-peers %d)", a.categoryPeers(), index.settings().minCategoryPeers()))
                        : new Check(criterion, CheckResult.FAIL, own.size() + " issue(s): " + own.get(0)));
            } else {
                List<String> own = originalIssues(a);
                issues.addAll(own);
                checks.add(own.isEmpty()
                        ? new Check(criterion, CheckResult.PASS, "no near-duplicate in the catalog")
                        : new Check(criterion, CheckResult.FAIL, own.get(0)));
            }
        }
        boolean failed = checks.stream().anyMatch(c -> c.result() == CheckResult.FAIL);
        Review review = new Review(failed ? Verdict.FAIL : Verdict.PASS, checks, issues, List.of());
        return new ReviewOutcome.Reviewed(review, Duration.ofNanos(System.nanoTime() - start));
    }

    private static List<String> onSpecificationIssues(Analysis a) {
        List<String> out = new ArrayList<>();
        if (a.wholeText()) {
            long off = a.findings().stream().filter(f -> f.reason() == Reason.OFF_TOPIC).count();
            out.add(String.format(Locale.ROOT, "%s: the whole text is off-topic (%d of %d sentences; lowest similarity to its product %.2f)",
                    ON_SPECIFICATION, off, a.sentences().size(), a.lowestSimilarity()));
            return out;
        }
        for (SentenceFinding f : a.findings()) {
            if (f.reason() == Reason.OFF_TOPIC) {
                out.add(String.format(Locale.ROOT, "%s: sentence %d is off-topic (similarity to its product %.2f): \"%s\"",
                        ON_SPECIFICATION, f.number(), f.similarity(), f.text()));
            } else {
                out.add(String.format(Locale.ROOT, "%s: sentence %d is about %s (similarity %.2f to its source, %.2f to its own): \"%s\"",
                        ON_SPECIFICATION, f.number(), f.otherItem(), f.otherSimilarity(), f.similarity(), f.text()));
            }
        }
        return out;
    }

    static List<String> originalIssues(Analysis a) {
        if (a.duplicates().isEmpty()) {
            return List.of();
        }
        String others = a.duplicates().stream().limit(5).map(d -> d.sharedSentences() > 0
                        ? String.format(Locale.ROOT, "%s (shared passage of %d sentences, cosine %.2f)", d.otherItem(), d.sharedSentences(), d.cosine())
                        : String.format(Locale.ROOT, "%s (cosine %.2f)", d.otherItem(), d.cosine()))
                .collect(Collectors.joining(", "));
        // a query stops at MAX_NEIGHBOURS: then the count is a lower bound, and says so
        String more = a.duplicates().size() > 5 ? " and " + (a.atLeast() ? "at least " : "") + (a.duplicates().size() - 5) + " more" : "";
        return List.of(ORIGINAL + ": near-duplicate of " + others + more);
    }
}
