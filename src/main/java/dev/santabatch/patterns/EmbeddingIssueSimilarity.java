package dev.santabatch.patterns;

import dev.santabatch.text.IssueText;
import dev.santabatch.review.IssueSimilarity;
import dev.santabatch.review.semantic.Embedder;
import dev.santabatch.review.semantic.Vectors;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * Two issues are the same when they name the same criterion and their {@link IssueText#stripped
 * stripped} texts' embeddings have a cosine of at least the threshold (the job's
 * {@code santa.pattern-similarity}); issues equal after {@link IssueSimilarity#normalise} are the
 * same without asking the model. Used by {@link PatternClassifier} (patterns group by problem, not
 * by evidence) and, for issues without evidence in common to compare, by the gate's merge (which
 * compares quoted sentences, other items' ids and quoted terms first: {@code review.step.EvidenceIssueSimilarity}). Thread-safe; the model is loaded on first use.
 */
public final class EmbeddingIssueSimilarity implements IssueSimilarity {

    /** Distinct issue texts kept (1.5 KB each: about 12 MB); stripped texts repeat, so a round needs far fewer. */
    private static final int CACHE_LIMIT = 8_192;

    private final Supplier<Embedder> embedder;
    private final double threshold;
    private final boolean strip;
    private final Map<String, float[]> cache = new ConcurrentHashMap<>();

    public EmbeddingIssueSimilarity(Supplier<Embedder> embedder, double threshold, boolean strip) {
        this.embedder = Objects.requireNonNull(embedder);
        this.threshold = threshold;
        this.strip = strip;
    }

    /** Over the shared quantized model, stripping item-specific fragments. */
    public EmbeddingIssueSimilarity(double threshold) {
        this(Embedder::shared, threshold, true);
    }

    public double threshold() {
        return threshold;
    }

    @Override
    public boolean same(String a, String b) {
        var ca = IssueText.criterion(a);
        var cb = IssueText.criterion(b);
        if (!ca.equals(cb)) {
            return false;
        }
        if (IssueSimilarity.normalise(a).equals(IssueSimilarity.normalise(b))) {
            return true;
        }
        return cosine(a, b) >= threshold;
    }

    /** Cosine of the two issues' embedded texts (criterion prefix ignored). */
    public double cosine(String a, String b) {
        return Vectors.dot(vector(a), vector(b));
    }

    /** The vector of an issue's embedded text (cached). */
    public float[] vector(String issue) {
        String text = strip ? IssueText.stripped(issue) : IssueText.body(issue);
        float[] v = cache.get(text);
        if (v == null) {
            v = embedder.get().embed(text);
            if (cache.size() < CACHE_LIMIT) {
                cache.put(text, v);
            }
        }
        return v;
    }
}
