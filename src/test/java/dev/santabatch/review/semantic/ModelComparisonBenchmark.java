package dev.santabatch.review.semantic;

import dev.langchain4j.model.embedding.onnx.allminilml6v2.AllMiniLmL6V2EmbeddingModel;
import dev.santabatch.config.SemanticSettings;
import dev.santabatch.review.offline.SnapshotItem;
import dev.santabatch.review.Review;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;
import org.h2.jdbcx.JdbcDataSource;

/**
 * Quantized vs full-precision all-MiniLM-L6-v2 on the sample catalog (test scope; not a test, it
 * takes minutes): AUC of each item's lowest sentence typicality (unnamed drift vs clean), AUC of each
 * item's best passage/duplicate cosine (paraphrase boilerplate vs clean), and the reviewer's recall
 * and precision with the default thresholds. {@code ModelComparisonBenchmark [sample|held-out]}
 * ({@code held-out}: the generator's {@code HELD_OUT} pool, seed 99).
 *
 * <p>Tuning tool: it generates from the sample and the {@code HELD_OUT} pool only. Never point it (or any
 * other tuning run) at the generator's {@code FRESH} pool: that pool is what the held-out floor tests
 * measure on, and a figure on a catalog one has tuned on is not a held-out figure.
 */
public final class ModelComparisonBenchmark {

    public static void main(String[] args) throws Exception {
        boolean held = args.length > 0 && args[0].startsWith("held");
        TestCatalog cat = held ? TestCatalog.generated(1, 99, 1200, true) : TestCatalog.sample(1);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        compare("quantized (-q)", Embedder::shared, cat, pool);
        Embedder full = Embedder.of("all-MiniLM-L6-v2", new AllMiniLmL6V2EmbeddingModel(Runnable::run));
        compare("full precision", () -> full, cat, pool);
        pool.shutdownNow();
        System.exit(0);
    }

    static void compare(String name, Supplier<Embedder> model, TestCatalog cat, ExecutorService pool) throws Exception {
        JdbcDataSource ds = new JdbcDataSource();
        ds.setURL("jdbc:h2:mem:cmp-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
        SemanticIndex index = new SemanticIndex(ds, model, pool, SemanticSettings.defaults());
        long t0 = System.nanoTime();
        index.prepare(cat);
        long t1 = System.nanoTime();
        SemanticReviewer reviewer = new SemanticReviewer("C", Set.of("on-specification", "original"), index);
        List<Double> driftPos = new ArrayList<>();
        List<Double> driftNeg = new ArrayList<>();
        List<Double> dupPos = new ArrayList<>();
        List<Double> dupNeg = new ArrayList<>();
        for (SnapshotItem it : cat.items()) {
            SemanticReviewer.Analysis a = reviewer.analyse(Scoring.request(it));
            double dup = a.duplicates().stream().mapToDouble(SemanticReviewer.Duplicate::cosine).max().orElse(0);
            if (cat.topicDrift(it.id())) {
                driftPos.add(-a.lowestSimilarity());
            } else if (cat.clean(it.id())) {
                driftNeg.add(-a.lowestSimilarity());
                dupNeg.add(dup);
            }
            if (cat.paraphrase(it.id())) {
                dupPos.add(dup);
            }
        }
        Map<String, Review> reviews = Scoring.reviewAll(reviewer, cat.items(), pool);
        List<String> ids = new ArrayList<>(cat.ids());
        Scoring.Figures para = Scoring.figures(name + ": paraphrase", reviews, ids, cat::paraphrase, id -> "original", cat::clean);
        Scoring.Figures drift = Scoring.figures(name + ": unnamed drift", reviews, ids, cat::topicDrift, id -> "on-specification", cat::clean);
        System.out.printf(Locale.ROOT, "%s: embedded and indexed %d items in %.1f s; AUC drift (lowest typicality) %.4f; AUC paraphrase (duplicate cosine) %.4f%n",
                name, cat.size(), (t1 - t0) / 1e9, auc(driftPos, driftNeg), auc(dupPos, dupNeg));
        System.out.println("  " + para);
        System.out.println("  " + drift);
    }

    static double auc(List<Double> pos, List<Double> neg) {
        double w = 0;
        for (double p : pos) {
            for (double n : neg) {
                w += p > n ? 1 : p == n ? 0.5 : 0;
            }
        }
        return w / ((double) pos.size() * neg.size());
    }
}
