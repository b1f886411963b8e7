package dev.santabatch.semantic;

import dev.santabatch.lexical.LexicalIndex;
import dev.santabatch.lexical.LexicalReviewer;
import dev.santabatch.lexical.LexicalThresholds;
import dev.santabatch.offline.SnapshotItem;
import dev.santabatch.review.CheckResult;
import dev.santabatch.review.Review;
import dev.santabatch.review.ReviewOutcome;
import dev.santabatch.review.ReviewRequest;
import java.util.*;
import java.util.concurrent.*;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.Test;

class NarrowProbe {
    static dev.santabatch.job.Criterion c(String id) { return new dev.santabatch.job.Criterion(id, id, "p", "f", dev.santabatch.job.Criterion.CheckedBy.SANTA, List.of()); }
    @Test
    void probe() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(2);
        JdbcDataSource ds = new JdbcDataSource();
        ds.setURL("jdbc:h2:mem:np-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
        TestCatalog cat = TestCatalog.generated(1, 11, 250, false);
        SemanticIndex index = new SemanticIndex(ds, Embedder::shared, pool, SemanticSettings.defaults());
        long t0 = System.nanoTime();
        index.prepare(cat);
        System.out.println("prepare ms " + (System.nanoTime() - t0) / 1_000_000);
        LexicalIndex lex = new LexicalIndex(ds, LexicalThresholds.of(Map.of()));
        t0 = System.nanoTime();
        lex.prepare(cat);
        System.out.println("lex prepare ms " + (System.nanoTime() - t0) / 1_000_000);
        SemanticReviewer sem = new SemanticReviewer("C", Set.of("on-specification", "original"), index);
        LexicalReviewer lr = new LexicalReviewer("B", Set.of("on-specification", "original"), lex);
        Map<String, Integer> cats = new TreeMap<>();
        cat.items().forEach(i -> cats.merge(String.valueOf(i.category()), 1, Integer::sum));
        System.out.println("categories " + cats);
        String task = "Write a product description of 2 to 5 sentences for an online shop. Describe only the product\nnamed in the source facts. Each description must be written for its own product.\n";
        List<String> pids = new ArrayList<>(); List<float[]> pv = new ArrayList<>();
        for (String c : cats.keySet()) { SemanticIndex.Reference r = index.reference(c); pids.addAll(Arrays.asList(r.itemIds())); pv.addAll(Arrays.asList(r.vectors())); }
        SemanticIndex.Reference pooled = new SemanticIndex.Reference(pids.toArray(String[]::new), pv.toArray(float[][]::new));
        float[] taskV = index.textVector(task);
        for (SnapshotItem it : cat.items()) {
            SemanticIndex.Stored st = index.stored(it.id()).orElseThrow();
            float[] src = index.sourceVector(it.id()).orElseThrow();
            double lowPooled = 1, lowOwn = 1;
            for (float[] v : st.sentences()) {
                lowPooled = Math.min(lowPooled, SemanticIndex.typicality(v, src, taskV, pooled, it.id()));
                lowOwn = Math.min(lowOwn, SemanticIndex.typicality(v, src, taskV, index.reference(it.category()), it.id()));
            }
            System.out.printf("POOL %s %.3f %.3f %s%n", it.id(), lowOwn, lowPooled, String.join(",", cat.truth.getOrDefault(it.id(), List.of()).stream().map(t -> t.kind()).toList()));
            ReviewRequest rq = new ReviewRequest(task, it.id(), it.source(), it.content(), List.of(c("on-specification"), c("original")));
            SemanticReviewer.Analysis a = sem.analyse(rq);
            Review lrv = ((ReviewOutcome.Reviewed) lr.review(rq)).review();
            String kinds = String.join(",", cat.truth.getOrDefault(it.id(), List.of()).stream().map(t -> t.kind() + ":" + t.truth()).toList());
            System.out.printf("PROBE %s %s lowest=%.3f find=%d whole=%s dups=%d peers=%d lexOn=%s lexOrig=%s | %s%n", it.id(), it.category(),
                    a.lowestSimilarity(), a.findings().size(), a.wholeText(), a.duplicates().size(), a.categoryPeers(),
                    lrv.checks().get(0).result(), lrv.checks().get(1).result(), kinds);
        }
        pool.shutdown();
    }
}
