package dev.santabatch.semantic;

import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.output.Response;
import dev.santabatch.offline.SnapshotItem;
import dev.santabatch.review.ReviewRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import org.h2.jdbcx.JdbcDataSource;

/**
 * Benchmark (not a test): {@code SemanticBenchmark [items...]} (default 10000 100000).
 *
 * <ol>
 *   <li>embeddings per second of the quantized model on 2 threads (real model, real sample sentences);
 *   <li>for each size, a generated catalog indexed in an H2 file store and every item's
 *       catalog-wide checks run (near-duplicates: content LSH, atypical-sentence LSH, passages; and
 *       "closer to another item's source"). To time the search and not the model, vectors come from
 *       a stand-in model: each sentence maps to a real MiniLM vector of the sample chosen by its
 *       template (the sentence with names and numbers masked) plus noise, so the catalog has the
 *       real data's clusters, copies and outliers.
 * </ol>
 */
public final class SemanticBenchmark {

    public static void main(String[] args) throws Exception {
        List<Integer> sizes = new ArrayList<>();
        for (String a : args) {
            sizes.add(Integer.parseInt(a));
        }
        if (sizes.isEmpty()) {
            sizes = List.of(10_000, 100_000);
        }
        ExecutorService pool = Executors.newFixedThreadPool(2);
        // 1. real embeddings per second
        TestCatalog sample = TestCatalog.sample(1);
        List<String> sentences = new ArrayList<>();
        for (SnapshotItem it : sample.items()) {
            sentences.addAll(SemanticIndex.sentencesOf(it.content()));
        }
        Embedder real = Embedder.shared();
        real.embedAll(sentences.subList(0, 64), pool); // warm up
        List<String> timed = sentences.subList(0, Math.min(2000, sentences.size()));
        long t0 = System.nanoTime();
        List<float[]> pool0 = real.embedAll(timed, pool);
        double secs = (System.nanoTime() - t0) / 1e9;
        System.out.printf(Locale.ROOT, "embeddings: %d sentences in %.1f s = %.0f embeddings/s (quantized all-MiniLM-L6-v2, 2 threads)%n",
                timed.size(), secs, timed.size() / secs);

        EmbeddingModel standIn = new StandIn(pool0);
        for (int n : sizes) {
            try {
                run(n, standIn, pool);
            } catch (Throwable t) {
                t.printStackTrace(System.out);
                System.out.flush();
            }
        }
        pool.shutdownNow();
        System.exit(0);
    }

    private static void run(int n, EmbeddingModel standIn, ExecutorService pool) throws Exception {
        TestCatalog cat = TestCatalog.generated(1, 4242, n, false);
        // in-memory H2: an embedded file database refused the pool's extra connections ("exclusive mode") in the first run
        JdbcDataSource ds = new JdbcDataSource();
        ds.setURL("jdbc:h2:mem:sm-bench-" + n + "-" + System.nanoTime() + ";DB_CLOSE_DELAY=-1");
        SemanticIndex index = new SemanticIndex(ds, () -> Embedder.of("stand-in", standIn), pool, SemanticSettings.defaults());
        long t0 = System.nanoTime();
        index.prepare(cat);
        long t1 = System.nanoTime();
        SemanticReviewer reviewer = new SemanticReviewer("C", Set.of("on-specification", "original"), index);
        AtomicLong flagged = new AtomicLong();
        List<Future<?>> fs = new ArrayList<>();
        for (SnapshotItem it : cat.items()) {
            fs.add(pool.submit(() -> {
                SemanticReviewer.Analysis a = reviewer.analyse(new ReviewRequest("spec", it.id(), it.source(), it.content(), List.of()));
                if (!a.duplicates().isEmpty()) {
                    flagged.incrementAndGet();
                }
            }));
        }
        for (Future<?> f : fs) {
            f.get();
        }
        long t2 = System.nanoTime();
        long[] q = index.queryStats();
        System.out.printf(Locale.ROOT,
                "items %7d: index (store vectors, references, LSH bands) %6.1f s; catalog-wide checks for every item %6.1f s"
                        + " (%.2f ms/item); %d LSH queries, %.1f candidates verified per query; %d items with near-duplicates%n",
                n, (t1 - t0) / 1e9, (t2 - t1) / 1e9, (t2 - t1) / 1e6 / n, q[0], (double) q[1] / Math.max(1, q[0]), flagged.get());
        SemanticIndex.PROFILE.forEach((k, v) -> System.out.printf(Locale.ROOT, "    %-8s queries %8d, %.2f ms each%n", k, v[0], v[1] / 1e6 / Math.max(1, v[0])));
        SemanticIndex.PROFILE.clear();
    }

    /** Maps a sentence to a real vector by its template (names, brands and numbers masked), plus noise. */
    private static final class StandIn implements EmbeddingModel {
        private final List<float[]> vectors;

        StandIn(List<float[]> vectors) {
            this.vectors = vectors;
        }

        @Override
        public Response<List<Embedding>> embedAll(List<TextSegment> segments) {
            List<Embedding> out = new ArrayList<>();
            for (TextSegment s : segments) {
                String text = s.text();
                String template = text.replaceAll("\\b[A-Z][a-z]+\\b|\\d+(?:\\.\\d+)?", "_");
                float[] base = vectors.get(Math.floorMod(template.hashCode(), vectors.size()));
                Random r = new Random(text.hashCode());
                float[] v = new float[base.length];
                for (int i = 0; i < v.length; i++) {
                    v[i] = base[i] + (float) (r.nextGaussian() * 0.01);
                }
                out.add(Embedding.from(Vectors.normalise(v)));
            }
            return Response.from(out);
        }
    }
}
