package dev.santabatch.review.semantic;

import dev.santabatch.config.Criterion;
import dev.santabatch.config.SemanticSettings;
import dev.santabatch.review.offline.SnapshotItem;
import dev.santabatch.review.ReviewRequest;
import java.util.*;
import java.util.concurrent.*;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.Test;

/**
 * Dev harness: prints distributions for choosing thresholds (file DB cache in target/). Run with -Dtest=SemanticTuning
 * ({@code -Dheldout=true}: the generator's {@code HELD_OUT} pool, seed 99, instead of the sample).
 *
 * <p>Tuning tool: it generates from the sample and the {@code HELD_OUT} pool only. Never point it (or any
 * other tuning run) at the generator's {@code FRESH} pool: that pool is what the held-out floor tests
 * measure on, and a figure on a catalog one has tuned on is not a held-out figure.
 */
class SemanticTuning {

    static final String TASK = "Write a product description of 2 to 5 sentences for an online shop. Describe only the product\n"
            + "named in the source facts, using its brand, category, price and specifications exactly as given.\n"
            + "Make no medical or absolute claims. Supplements must carry the shop's FDA disclaimer. Each\n"
            + "description must be written for its own product, not reused from another.\n";

    @Test
    void tune() throws Exception {
        boolean held = Boolean.getBoolean("heldout");
        TestCatalog cat = held ? TestCatalog.generated(1, 99, 1200, true) : TestCatalog.sample(1);
        JdbcDataSource ds = new JdbcDataSource();
        ds.setURL("jdbc:h2:file:./target/sm-tune/" + (held ? "held" : "sample") + ";DB_CLOSE_DELAY=-1");
        ExecutorService pool = Executors.newFixedThreadPool(2);
        SemanticSettings base = SemanticSettings.from(Map.of("passage-cosine", 0.3, "copy-cosine", 0.9));
        SemanticIndex index = new SemanticIndex(ds, Embedder::shared, pool, base);
        long t0 = System.nanoTime();
        index.prepare(cat);
        System.out.printf("prepare %d ms%n", (System.nanoTime() - t0) / 1_000_000);
        t0 = System.nanoTime();
        SemanticReviewer r = new SemanticReviewer("C", Set.of("on-specification", "original"), index);
        List<Criterion> rubric = List.of();
        // sentence typicality: drift vs clean; paraphrase dup stats
        List<Double> drift = new ArrayList<>(), clean = new ArrayList<>(), bp = new ArrayList<>();
        List<String> rows = new ArrayList<>();
        for (SnapshotItem it : cat.items().subList(0, Integer.getInteger("limit", 1200))) {
            SemanticReviewer.Analysis a = r.analyse(new ReviewRequest(TASK, it.id(), it.source(), it.content(), rubric));
            String kind = cat.clean(it.id()) ? "clean" : cat.paraphrase(it.id()) ? "para" : cat.boilerplate(it.id()) ? "bp" : cat.topicDrift(it.id()) ? "tdrift" : cat.anyDrift(it.id()) ? "pdrift" : "other";
            double minT = a.lowestSimilarity();
            String dup = a.duplicates().isEmpty() ? "-" : a.duplicates().get(0).toString();
            long other = a.findings().stream().filter(f -> f.reason() == SemanticReviewer.Reason.OTHER_ITEM).count();
            String dups = a.duplicates().stream().map(d -> d.otherItem() + ":" + d.sharedSentences() + ":" + String.format(Locale.ROOT, "%.3f", d.cosine())).collect(java.util.stream.Collectors.joining(","));
            rows.add(String.format(Locale.ROOT, "%s\t%s\t%.3f\t%d\t%s\t%s", it.id(), kind, minT, other, dup, dups));
        }
        Files_write(rows, held);
        System.out.println("query stats " + java.util.Arrays.toString(index.queryStats()) + " analyse ms " + (System.nanoTime() - t0) / 1_000_000);
        index.takeQueryProfile().forEach((k, v) -> System.out.println(k + " n=" + v[0] + " ms=" + v[1] / 1_000_000 + " candidates=" + v[2]));
        pool.shutdown();
    }

    static void Files_write(List<String> rows, boolean held) throws Exception {
        java.nio.file.Files.write(java.nio.file.Path.of("target/sm-tune/" + (held ? "held" : "sample") + ".tsv"), rows);
    }
}
