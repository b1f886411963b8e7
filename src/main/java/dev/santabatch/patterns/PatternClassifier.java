package dev.santabatch.patterns;

import dev.santabatch.text.IssueText;
import dev.santabatch.execution.PreparationStoppedException;
import dev.santabatch.review.semantic.Embedder;
import dev.santabatch.review.semantic.Vectors;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.BooleanSupplier;
import org.jspecify.annotations.Nullable;

/**
 * Turns a round's failures into patterns ("Patterns by meaning"): failures of the same criterion
 * whose issue texts are similar form one pattern. Rules failures (with a rule id) stay keyed by
 * their rule. Similarity is {@link EmbeddingIssueSimilarity}'s cosine; clustering is
 * average-linkage agglomerative: the two clusters with the highest mean pairwise cosine merge while
 * that mean is at least the threshold (the job's {@code santa.pattern-similarity}). Deterministic
 * (ties by first appearance). Quadratic in the failures of one criterion, which are a round's
 * sampled failures, not the catalog; a 100,000-item round's take minutes, so a requested stop is
 * seen every {@value #STOP_EVERY} issues embedded and at every merge
 * ({@link PreparationStoppedException}: the classify step ends STOPPED, having stored nothing).
 */
public final class PatternClassifier {

    /**
     * One critical issue of one failed review.
     *
     * @param itemId the item
     * @param issue the issue, starting with {@code <criterion-id>:}
     * @param ruleId the rule that found it, for rules failures; {@code null} for reviewers' issues
     */
    public record Failure(String itemId, String issue, @Nullable String ruleId) {
        public Failure {
            Objects.requireNonNull(itemId, "itemId");
            Objects.requireNonNull(issue, "issue");
        }

        public Failure(String itemId, String issue) {
            this(itemId, issue, null);
        }
    }

    /**
     * A pattern.
     *
     * @param key stable key: {@code rule:<rule-id>} or {@code <criterion>#<n>} (n from 1, by size)
     * @param criterion the criterion its issues name
     * @param ruleId the rule, for rules patterns
     * @param label its most central issue text (highest mean cosine to the others); the rule id's
     *     first issue for rules patterns
     * @param itemIds the items, in first-appearance order
     * @param issues every issue text in it
     * @param share items / sample size
     */
    public record Pattern(
            String key, String criterion, @Nullable String ruleId, String label, List<String> itemIds, List<String> issues, double share) {}

    /** Issues embedded (or scored) between two looks at the stop flag. */
    static final int STOP_EVERY = 256;

    private final EmbeddingIssueSimilarity similarity;
    private final double threshold;

    public PatternClassifier(EmbeddingIssueSimilarity similarity, double threshold) {
        this.similarity = similarity;
        this.threshold = threshold;
    }

    /** Over the shared model with stripping, at the job's pattern similarity. */
    public PatternClassifier(double threshold) {
        this(new EmbeddingIssueSimilarity(threshold), threshold);
    }

    /**
     * @param failures the round's failed reviews' critical issues (and rules failures)
     * @param sampleSize items in the round's sample (denominator of the share)
     * @return patterns, largest first (ties in first-appearance order)
     */
    public List<Pattern> classify(Collection<Failure> failures, int sampleSize) {
        return classify(failures, sampleSize, () -> false);
    }

    /**
     * {@link #classify(Collection, int)}, ending with {@link PreparationStoppedException} within
     * {@value #STOP_EVERY} issues or one merge of {@code stopRequested} turning true.
     */
    public List<Pattern> classify(Collection<Failure> failures, int sampleSize, BooleanSupplier stopRequested) {
        Map<String, List<Failure>> byRule = new LinkedHashMap<>();
        Map<String, List<Failure>> byCriterion = new LinkedHashMap<>();
        for (Failure f : failures) {
            if (f.ruleId() != null) {
                byRule.computeIfAbsent(f.ruleId(), k -> new ArrayList<>()).add(f);
            } else {
                String c = IssueText.criterion(f.issue()).orElse("");
                byCriterion.computeIfAbsent(c, k -> new ArrayList<>()).add(f);
            }
        }
        List<Pattern> out = new ArrayList<>();
        for (Map.Entry<String, List<Failure>> e : byRule.entrySet()) {
            List<Failure> fs = e.getValue();
            out.add(pattern("rule:" + e.getKey(), IssueText.criterion(fs.get(0).issue()).orElse(""), e.getKey(), fs.get(0).issue(), fs, sampleSize));
        }
        for (Map.Entry<String, List<Failure>> e : byCriterion.entrySet()) {
            List<Pattern> own = new ArrayList<>();
            for (List<Failure> cluster : cluster(e.getValue(), stopRequested)) {
                own.add(pattern("", e.getKey(), null, centralIssue(cluster, stopRequested), cluster, sampleSize));
            }
            own.sort((a, b) -> Integer.compare(b.itemIds().size(), a.itemIds().size()));
            for (int i = 0; i < own.size(); i++) {
                Pattern p = own.get(i);
                out.add(new Pattern(e.getKey() + "#" + (i + 1), p.criterion(), null, p.label(), p.itemIds(), p.issues(), p.share()));
            }
        }
        out.sort((a, b) -> Integer.compare(b.itemIds().size(), a.itemIds().size()));
        return out;
    }

    private static Pattern pattern(String key, String criterion, @Nullable String rule, String label, List<Failure> fs, int sampleSize) {
        Set<String> items = new LinkedHashSet<>();
        List<String> issues = new ArrayList<>();
        for (Failure f : fs) {
            items.add(f.itemId());
            issues.add(f.issue());
        }
        return new Pattern(key, criterion, rule, label, List.copyOf(items), issues, sampleSize == 0 ? 0 : (double) items.size() / sampleSize);
    }

    /** Average-linkage agglomerative clustering of one criterion's failures. */
    List<List<Failure>> cluster(List<Failure> fs) {
        return cluster(fs, () -> false);
    }

    private List<List<Failure>> cluster(List<Failure> fs, BooleanSupplier stopRequested) {
        int n = fs.size();
        float[][] v = vectors(fs, stopRequested);
        double[][] sim = new double[n][n];
        for (int i = 0; i < n; i++) {
            if (i % STOP_EVERY == 0) {
                checkStop(stopRequested, "similarities: " + i + " of " + n + " issues");
            }
            for (int j = i; j < n; j++) {
                sim[i][j] = sim[j][i] = Vectors.dot(v[i], v[j]);
            }
        }
        // average linkage with the Lance-Williams update: the similarity of a merged cluster to
        // another is the size-weighted mean of its parts' similarities, kept in sim itself (row and
        // column of the surviving representative), so a merge costs O(clusters) instead of
        // recomputing every pair's mean over its members. Same merges in the same order as the mean
        // recomputed from the members: clusters are scanned in the same order, ties keep the first.
        List<Integer> order = new ArrayList<>(n);
        int[] size = new int[n];
        List<List<Integer>> members = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            order.add(i);
            size[i] = 1;
            members.add(new ArrayList<>(List.of(i)));
        }
        while (order.size() > 1) {
            if (stopRequested.getAsBoolean()) {
                throw stopped("clustering: " + order.size() + " clusters left of " + n + " issues");
            }
            double best = -2;
            int bi = -1;
            int bj = -1;
            for (int i = 0; i < order.size(); i++) {
                double[] row = sim[order.get(i)];
                for (int j = i + 1; j < order.size(); j++) {
                    double s = row[order.get(j)];
                    if (s > best) {
                        best = s;
                        bi = i;
                        bj = j;
                    }
                }
            }
            if (best < threshold) {
                break;
            }
            int a = order.get(bi);
            int b = order.get(bj);
            for (int c : order) {
                if (c != a && c != b) {
                    double m = (size[a] * sim[a][c] + size[b] * sim[b][c]) / (size[a] + size[b]);
                    sim[a][c] = m;
                    sim[c][a] = m;
                }
            }
            size[a] += size[b];
            members.get(a).addAll(members.get(b));
            order.remove(bj);
        }
        List<List<Integer>> clusters = new ArrayList<>();
        for (int r : order) {
            clusters.add(members.get(r));
        }
        List<List<Failure>> out = new ArrayList<>();
        for (List<Integer> c : clusters) {
            c.sort(Integer::compare);
            out.add(c.stream().map(fs::get).toList());
        }
        return out;
    }

    /** The failures' issue vectors, looking at the stop every {@value #STOP_EVERY}. */
    private float[][] vectors(List<Failure> fs, BooleanSupplier stopRequested) {
        float[][] v = new float[fs.size()][];
        for (int i = 0; i < v.length; i++) {
            if (i % STOP_EVERY == 0) {
                checkStop(stopRequested, "embedding: " + i + " of " + v.length + " issues");
            }
            v[i] = similarity.vector(fs.get(i).issue());
        }
        return v;
    }

    private static void checkStop(BooleanSupplier stopRequested, String what) {
        if (stopRequested.getAsBoolean()) {
            throw stopped(what);
        }
    }

    private static PreparationStoppedException stopped(String what) {
        return new PreparationStoppedException("classify, " + what);
    }

    private String centralIssue(List<Failure> cluster, BooleanSupplier stopRequested) {
        if (cluster.size() <= 2) {
            return cluster.get(0).issue();
        }
        // the issue with the highest summed cosine to the others: sum over b != a of a.b is a.(S - a)
        // with S the sum of all vectors, so one pass instead of one per pair (a 100,000-item round
        // has clusters of thousands of failures)
        float[][] v = vectors(cluster, stopRequested);
        double[] sum = new double[Embedder.DIMENSION];
        for (int i = 0; i < v.length; i++) {
            for (int d = 0; d < v[i].length; d++) {
                sum[d] += v[i][d];
            }
        }
        String best = cluster.get(0).issue();
        double bestScore = Double.NEGATIVE_INFINITY;
        for (int i = 0; i < v.length; i++) {
            double s = 0;
            for (int d = 0; d < v[i].length; d++) {
                s += v[i][d] * (sum[d] - v[i][d]);
            }
            if (s > bestScore) {
                bestScore = s;
                best = cluster.get(i).issue();
            }
        }
        return best;
    }
}
