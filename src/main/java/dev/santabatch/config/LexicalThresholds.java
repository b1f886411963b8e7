package dev.santabatch.config;

import java.util.Map;
import java.util.Set;

/**
 * The lexical reviewer's thresholds, from the job file's {@code thresholds} map (defaults derived on
 * the sample catalog: see {@code docs/offline-reviewers.md}, section "lexical").
 *
 * @param nearDuplicateJaccard {@code near-duplicate-jaccard}: an item whose informative-shingle
 *     Jaccard with another item's text is at least this fails {@code original}
 * @param sourceOverlapMargin {@code source-overlap-margin}: the whole text fails
 *     {@code on-specification} when its source-term overlap with another item's source exceeds its
 *     overlap with its own by at least this (both as shares of the text's IDF mass over source terms)
 * @param stopShingleShare {@code stop-shingle-share}: shingles found in more than this share of the
 *     catalog's items (and more than {@code stop-shingle-min-df} items) are template phrases and do not count
 * @param stopShingleMinDf {@code stop-shingle-min-df}: see above
 * @param nearDuplicateMinShared {@code near-duplicate-min-shared}: a near-duplicate must also share at least
 *     this many informative shingles with the item (a passage, not a phrase or two that texts written from one
 *     phrase bank share by chance)
 */
public record LexicalThresholds(double nearDuplicateJaccard, double sourceOverlapMargin, double stopShingleShare, int stopShingleMinDf,
        int nearDuplicateMinShared) {

    public static final double DEFAULT_NEAR_DUPLICATE_JACCARD = 0.40;
    public static final double DEFAULT_SOURCE_OVERLAP_MARGIN = 0.30;
    public static final double DEFAULT_STOP_SHINGLE_SHARE = 0.01;
    public static final int DEFAULT_STOP_SHINGLE_MIN_DF = 10;
    public static final int DEFAULT_NEAR_DUPLICATE_MIN_SHARED = 10;

    static final Set<String> KEYS = Set.of("near-duplicate-jaccard", "source-overlap-margin", "stop-shingle-share", "stop-shingle-min-df",
            "near-duplicate-min-shared");

    /** The thresholds with the default {@code near-duplicate-min-shared}. */
    public LexicalThresholds(double nearDuplicateJaccard, double sourceOverlapMargin, double stopShingleShare, int stopShingleMinDf) {
        this(nearDuplicateJaccard, sourceOverlapMargin, stopShingleShare, stopShingleMinDf, DEFAULT_NEAR_DUPLICATE_MIN_SHARED);
    }

    public LexicalThresholds {
        if (!(nearDuplicateJaccard > 0 && nearDuplicateJaccard <= 1)) {
            throw new IllegalArgumentException("near-duplicate-jaccard must lie in (0, 1], was " + nearDuplicateJaccard);
        }
        if (!(sourceOverlapMargin >= 0 && sourceOverlapMargin <= 1)) {
            throw new IllegalArgumentException("source-overlap-margin must lie in [0, 1], was " + sourceOverlapMargin);
        }
        if (!(stopShingleShare > 0 && stopShingleShare <= 1) || stopShingleMinDf < 1) {
            throw new IllegalArgumentException("stop-shingle-share must lie in (0, 1] and stop-shingle-min-df be at least 1");
        }
        if (nearDuplicateMinShared < 1) {
            throw new IllegalArgumentException("near-duplicate-min-shared must be at least 1, was " + nearDuplicateMinShared);
        }
    }

    public static LexicalThresholds defaults() {
        return new LexicalThresholds(DEFAULT_NEAR_DUPLICATE_JACCARD, DEFAULT_SOURCE_OVERLAP_MARGIN, DEFAULT_STOP_SHINGLE_SHARE,
                DEFAULT_STOP_SHINGLE_MIN_DF);
    }

    /** From a job file's thresholds; absent keys take the defaults, unknown keys are refused. */
    public static LexicalThresholds of(Map<String, Double> thresholds) {
        for (String k : thresholds.keySet()) {
            if (!KEYS.contains(k)) {
                throw new IllegalArgumentException("unknown lexical threshold '" + k + "' (known: " + KEYS + ")");
            }
        }
        return new LexicalThresholds(
                thresholds.getOrDefault("near-duplicate-jaccard", DEFAULT_NEAR_DUPLICATE_JACCARD),
                thresholds.getOrDefault("source-overlap-margin", DEFAULT_SOURCE_OVERLAP_MARGIN),
                thresholds.getOrDefault("stop-shingle-share", DEFAULT_STOP_SHINGLE_SHARE),
                whole("stop-shingle-min-df", thresholds.getOrDefault("stop-shingle-min-df", (double) DEFAULT_STOP_SHINGLE_MIN_DF)),
                whole("near-duplicate-min-shared", thresholds.getOrDefault("near-duplicate-min-shared", (double) DEFAULT_NEAR_DUPLICATE_MIN_SHARED)));
    }

    private static int whole(String name, double v) {
        if (v != Math.rint(v) || Math.abs(v) > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("lexical threshold '" + name + "' must be a whole number, was " + v);
        }
        return (int) v;
    }

    /** Shingles in more than this many of {@code items} items are stop shingles. */
    public int stopDf(long items) {
        return (int) Math.max(stopShingleMinDf, Math.ceil(stopShingleShare * items));
    }
}
