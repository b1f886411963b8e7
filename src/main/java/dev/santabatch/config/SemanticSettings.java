package dev.santabatch.config;

import java.util.Map;
import java.util.Set;

/**
 * The semantic reviewer's thresholds (job file: {@code reviewers[].thresholds}, names below). Defaults
 * were measured on the bundled sample catalog (see docs/offline-reviewers.md).
 *
 * @param topicSimilarity a sentence is off-topic when its typicality (the best cosine to its own
 *     source facts, to the task specification, and its density among its category's reference sentences) is
 *     below this ({@code topic-similarity})
 * @param wholeTextShare the whole text is off-topic when at least this share of its sentences are
 *     ({@code whole-text-share})
 * @param otherSourceSimilarity a sentence is about another item when its cosine to that item's
 *     source is at least this ({@code other-source-similarity})
 * @param otherSourceMargin ... and exceeds its cosine to its own source by at least this
 *     ({@code other-source-margin})
 * @param copyCosine two texts (mean sentence vectors) at least this similar are near-copies
 *     ({@code copy-cosine})
 * @param atypicalSimilarity sentences less typical than this make up an item's passage (what is not
 *     a usual sentence of its category) ({@code atypical-similarity})
 * @param paraphraseMinSentences a passage needs at least this many sentences to be compared
 *     ({@code paraphrase-min-sentences})
 * @param passageCosine two items whose passages are at least this similar are near-duplicates: a
 *     paraphrase reorders and merges sentences, the passage as a whole still says the same
 *     ({@code passage-cosine})
 * @param minCategoryPeers a sentence's density is measured among the reference sentences of its
 *     category's other items; with fewer other items than this it says nothing reliable about
 *     whether a sentence is off-topic (every usual sentence of a small category looks unusual), so
 *     the off-topic test is not applied to items of such a category ({@code min-category-peers})
 * @param styleDensity an item whose sentences have a mean density (among its category's reference
 *     sentences) of at least this is written like the catalog, and a sentence's typicality alone
 *     decides whether it is off-topic; in an item written otherwise, a low typicality is no evidence
 *     by itself (an ordinary product sentence in another style has no dense neighbourhood), and the
 *     sentence must also fail the topic anchors ({@code style-density})
 * @param anchorScore in an item not written like the catalog, a sentence below {@code topic-similarity}
 *     is off-topic only when its typicality minus its {@link dev.santabatch.review.semantic.TopicAnchors#margin anchor margin} (nearer
 *     the off-topic than the product anchors) is below this ({@code anchor-score})
 * @param wholeTextSource in an item not written like the catalog, when every sentence is below
 *     {@code topic-similarity} and none has a cosine of at least this to the item's own source facts,
 *     the whole text is off-topic ({@code whole-text-source})
 * @param catalogAnchorScore in an item written like the catalog, a sentence below
 *     {@code topic-similarity} is off-topic only when its typicality minus its anchor margin is also
 *     below this: a sentence that is rare in its category but reads like product copy (a claim the
 *     rules pre-pass rewrote, "It will transform how you deal with joint pain.") is not off-topic for being rare
 *     ({@code catalog-anchor-score}; higher than {@code anchor-score}, since in such an item a low
 *     typicality is evidence)
 * @param smallCategoryMargin in a category with fewer other items than {@code min-category-peers},
 *     where the density is no evidence, a sentence below {@code topic-similarity} (to its own source
 *     facts and the task) is off-topic when it is nearer the off-topic anchors than the product
 *     anchors by at least this ({@code small-category-margin})
 * @param minSentenceWords a sentence of fewer words than this is never judged off-topic on its own:
 *     the embedding of "Yes.", "This is it." or "Short winter days?" says little about what it is
 *     about, and such a sentence leans on its neighbours (it still counts in the whole text, where
 *     a typical one is evidence of the topic)
 *     ({@code min-sentence-words})
 * @param coherentAnchorScore in an item not written like the catalog and of at least two sentences,
 *     a sentence below {@code topic-similarity} is off-topic when its typicality plus its coherence
 *     (its cosine to the mean of the text's other sentences) minus its anchor margin is below this;
 *     a sentence that belongs to its text is not off-topic for being unlike the catalog, and an
 *     inserted sentence about something else is unlike the rest of its text as well
 *     ({@code coherent-anchor-score}; {@code anchor-score} judges a text of one sentence)
 * @param productLineSimilarity two items whose source facts are at least this similar are variants of
 *     one product line: any passage they share (at least {@code passage-cosine}) is reused text
 *     ({@code product-line-similarity})
 * @param passageSourceMargin two items of different products share a passage only when their
 *     passages are more alike than their source facts by at least this: texts about similar products
 *     are alike because the products are ({@code passage-source-margin})
 */
public record SemanticSettings(
        double topicSimilarity,
        double wholeTextShare,
        double otherSourceSimilarity,
        double otherSourceMargin,
        double copyCosine,
        double atypicalSimilarity,
        int paraphraseMinSentences,
        double passageCosine,
        int minCategoryPeers,
        double styleDensity,
        double anchorScore,
        double wholeTextSource,
        double catalogAnchorScore,
        double smallCategoryMargin,
        int minSentenceWords,
        double coherentAnchorScore,
        double productLineSimilarity,
        double passageSourceMargin) {

    public static final Set<String> NAMES = Set.of("topic-similarity", "whole-text-share", "other-source-similarity",
            "other-source-margin", "copy-cosine", "atypical-similarity", "paraphrase-min-sentences", "passage-cosine",
            "min-category-peers", "style-density", "anchor-score", "whole-text-source", "catalog-anchor-score",
            "small-category-margin", "min-sentence-words", "coherent-anchor-score",
            "product-line-similarity", "passage-source-margin");

    /** Every value in its range (cosines in [-1, 1], shares in (0, 1], counts whole and positive); the message names the key. */
    public SemanticSettings {
        for (Map.Entry<String, Double> c : Map.of("topic-similarity", topicSimilarity, "other-source-similarity", otherSourceSimilarity,
                "copy-cosine", copyCosine, "atypical-similarity", atypicalSimilarity, "passage-cosine", passageCosine,
                "style-density", styleDensity, "whole-text-source", wholeTextSource, "product-line-similarity", productLineSimilarity).entrySet()) {
            range(c.getKey(), c.getValue(), -1, 1, "a cosine");
        }
        range("other-source-margin", otherSourceMargin, 0, 2, "a difference of cosines");
        range("small-category-margin", smallCategoryMargin, -2, 2, "a difference of cosines");
        range("passage-source-margin", passageSourceMargin, -2, 2, "a difference of cosines");
        // typicality (a cosine) minus an anchor margin (a difference of cosines)
        range("anchor-score", anchorScore, -3, 3, "a cosine minus a difference of cosines");
        range("catalog-anchor-score", catalogAnchorScore, -3, 3, "a cosine minus a difference of cosines");
        // typicality and coherence (cosines) minus an anchor margin
        range("coherent-anchor-score", coherentAnchorScore, -4, 4, "two cosines minus a difference of cosines");
        if (!(wholeTextShare > 0 && wholeTextShare <= 1)) {
            throw new IllegalArgumentException("semantic threshold 'whole-text-share' must lie in (0, 1] (a share of sentences), was " + wholeTextShare);
        }
        if (paraphraseMinSentences < 1 || minSentenceWords < 1 || minCategoryPeers < 0) {
            throw new IllegalArgumentException("semantic thresholds 'paraphrase-min-sentences' and 'min-sentence-words' must be at least 1"
                    + " and 'min-category-peers' at least 0, were " + paraphraseMinSentences + ", " + minSentenceWords + ", " + minCategoryPeers);
        }
    }

    private static void range(String key, double v, double lo, double hi, String what) {
        if (!(v >= lo && v <= hi)) {
            throw new IllegalArgumentException("semantic threshold '" + key + "' must lie in [" + (int) lo + ", " + (int) hi + "] (" + what + "), was " + v);
        }
    }

    /** A count threshold: a whole number (2.5 sentences means nothing). */
    private static int whole(Map<String, Double> thresholds, String key, int dflt) {
        Double v = thresholds.get(key);
        if (v == null) {
            return dflt;
        }
        if (v != Math.rint(v) || Math.abs(v) > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("semantic threshold '" + key + "' must be a whole number, was " + v);
        }
        return v.intValue();
    }

    public static SemanticSettings defaults() {
        return new SemanticSettings(0.46, 0.8, 0.75, 0.15, 0.97, 0.55, 2, 0.55, 40, 0.60, 0.21, 0.33, 0.45, 0.10, 6, 0.38, 0.65, 0.25);
    }

    /** Defaults overridden by the job file's thresholds; unknown names are refused. */
    public static SemanticSettings from(Map<String, Double> thresholds) {
        for (String k : thresholds.keySet()) {
            if (!NAMES.contains(k)) {
                throw new IllegalArgumentException("unknown semantic threshold '" + k + "'; known: " + NAMES);
            }
        }
        SemanticSettings d = defaults();
        return new SemanticSettings(
                thresholds.getOrDefault("topic-similarity", d.topicSimilarity),
                thresholds.getOrDefault("whole-text-share", d.wholeTextShare),
                thresholds.getOrDefault("other-source-similarity", d.otherSourceSimilarity),
                thresholds.getOrDefault("other-source-margin", d.otherSourceMargin),
                thresholds.getOrDefault("copy-cosine", d.copyCosine),
                thresholds.getOrDefault("atypical-similarity", d.atypicalSimilarity),
                whole(thresholds, "paraphrase-min-sentences", d.paraphraseMinSentences),
                thresholds.getOrDefault("passage-cosine", d.passageCosine),
                whole(thresholds, "min-category-peers", d.minCategoryPeers),
                thresholds.getOrDefault("style-density", d.styleDensity),
                thresholds.getOrDefault("anchor-score", d.anchorScore),
                thresholds.getOrDefault("whole-text-source", d.wholeTextSource),
                thresholds.getOrDefault("catalog-anchor-score", d.catalogAnchorScore),
                thresholds.getOrDefault("small-category-margin", d.smallCategoryMargin),
                whole(thresholds, "min-sentence-words", d.minSentenceWords),
                thresholds.getOrDefault("coherent-anchor-score", d.coherentAnchorScore),
                thresholds.getOrDefault("product-line-similarity", d.productLineSimilarity),
                thresholds.getOrDefault("passage-source-margin", d.passageSourceMargin));
    }
}
