package dev.santabatch.review.semantic;

import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.santabatch.config.SemanticSettings;
import dev.santabatch.review.offline.SnapshotItem;
import dev.santabatch.review.ReviewRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Benchmark (not a test): {@code SemanticBenchmark [items...]} (default 10000 100000).
 *
 * <ol>
 *   <li>embeddings per second of the quantized model on 2 threads (real model, real sample sentences);
 *   <li>for each size, a generated catalog indexed in an H2 file store in a temporary directory ({@code prepare}: vectors,
 *       references, typicality, LSH bands), then the near-duplicate search of every item (its content
 *       and passage queries, as the reviewer makes them, from the stored vectors), and, with
 *       {@code -Dfull=true}, the reviewer's whole analysis of every item (adds "closer to another
 *       item's source", one query per sentence); searches on a pool of one thread per core. Then the
 *       ratio of the largest size's times to the smallest's (near-linear: about the size ratio;
 *       quadratic: its square), and the load average before and after each size, since the
 *       machine may be shared. To time the search and not the model, vectors come from
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
        int threads = Runtime.getRuntime().availableProcessors();
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        System.out.printf(Locale.ROOT, "max heap %d MB, %d cores; load %s%n", Runtime.getRuntime().maxMemory() >> 20, threads, load());
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
        System.out.printf(Locale.ROOT, "embeddings: %d sentences in %.1f s = %.0f embeddings/s (quantized all-MiniLM-L6-v2, %d threads); load %s%n",
                timed.size(), secs, timed.size() / secs, threads, load());

        EmbeddingModel standIn = new TemplateStandInModel(pool0, 0.01, new AtomicLong());
        List<double[]> figures = new ArrayList<>();
        for (int n : sizes) {
            figures.add(run(n, standIn, pool));
        }
        if (figures.size() >= 2) {
            double[] a = figures.get(0);
            double[] b = figures.get(figures.size() - 1);
            double r = b[0] / a[0];
            System.out.printf(Locale.ROOT, "%,.0f / %,.0f items (x%.0f; quadratic would be x%.0f): prepare x%.1f, near-duplicate search x%.1f%s%n",
                    b[0], a[0], r, r * r, b[1] / a[1], b[2] / a[2], a[3] > 0 && b[3] > 0 ? String.format(Locale.ROOT, ", full analysis x%.1f", b[3] / a[3]) : "");
            System.out.printf(Locale.ROOT, "  in process CPU time: prepare x%.1f, near-duplicate search x%.1f%n", b[4] / a[4], b[5] / a[5]);
        }
        pool.shutdown(); // no shutdownNow: an interrupted thread inside H2 closes the database
        System.exit(0);
    }

    static String load() {
        try {
            return java.nio.file.Files.readString(java.nio.file.Path.of("/proc/loadavg")).strip();
        } catch (java.io.IOException e) {
            return "unknown";
        }
    }

    /** CPU time of the whole process so far, in nanoseconds. */
    static long cpu() {
        return ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
    }

    /** One item's vectors and what its near-duplicate queries found. */
    private record Found(float[] content, float[] passage, Set<String> byContent, Set<String> byPassage) {}

    /**
     * Recall of the LSH search against exact search (every other item's vector compared), for 500
     * random query items (not timed): per pair above the threshold (a query finds at most
     * {@link SemanticIndex#MAX_NEIGHBOURS}: an item with more exact neighbours counts that many
     * pairs), and per item that has at least one (found to have at least one: what flags it).
     */
    private static void recall(int n, Map<String, Found> found, SemanticSettings s) {
        List<String> ids = new ArrayList<>(found.keySet());
        java.util.Collections.sort(ids);
        List<String> queries = new ArrayList<>(ids);
        java.util.Collections.shuffle(queries, new java.util.Random(7));
        queries = queries.subList(0, Math.min(500, queries.size()));
        long[] c = new long[4]; // content pairs expected, found; items expected, found
        long[] p = new long[4];
        for (String q : queries) {
            Found f = found.get(q);
            Set<String> exactC = new java.util.HashSet<>();
            Set<String> exactP = new java.util.HashSet<>();
            for (String o : ids) {
                if (o.equals(q)) {
                    continue;
                }
                Found g = found.get(o);
                if (Vectors.dot(f.content(), g.content()) >= s.copyCosine()) {
                    exactC.add(o);
                }
                if (f.passage() != null && g.passage() != null && Vectors.dot(f.passage(), g.passage()) >= s.passageCosine()) {
                    exactP.add(o);
                }
            }
            tally(c, exactC, f.byContent());
            tally(p, exactP, f.byPassage());
        }
        System.out.printf(Locale.ROOT, "items %7d: recall against exact search (%d query items): content pairs (up to " + SemanticIndex.MAX_NEIGHBOURS + " per item) %d/%d = %.3f, items %d/%d = %.3f;"
                        + " passage pairs (up to " + SemanticIndex.MAX_NEIGHBOURS + " per item) %d/%d = %.3f, items %d/%d = %.3f%n",
                n, queries.size(), c[1], c[0], (double) c[1] / Math.max(1, c[0]), c[3], c[2], (double) c[3] / Math.max(1, c[2]),
                p[1], p[0], (double) p[1] / Math.max(1, p[0]), p[3], p[2], (double) p[3] / Math.max(1, p[2]));
    }

    private static void tally(long[] t, Set<String> exact, Set<String> got) {
        // a query names at most MAX_NEIGHBOURS: one with more exact neighbours is complete when it found that many
        t[0] += Math.min(exact.size(), SemanticIndex.MAX_NEIGHBOURS);
        t[1] += exact.stream().filter(got::contains).count();
        if (!exact.isEmpty()) {
            t[2]++;
            if (exact.stream().anyMatch(got::contains)) {
                t[3]++;
            }
        }
    }

    /** Items, prepare seconds, near-duplicate search seconds, full analysis seconds (0 when not run). */
    private static double[] run(int n, EmbeddingModel standIn, ExecutorService pool) throws Exception {
        TestCatalog cat = TestCatalog.generated(1, 4242, n, false);
        // a file database, as the job uses: an in-memory one keeps every vector in the heap (at
        // 100,000 items about 700,000 vectors of 2 KB: out of memory at -Xmx2g)
        java.nio.file.Path dir = java.nio.file.Files.createTempDirectory("sm-bench-" + n);
        // a connection pool, as the job has (Spring Boot's Hikari): without one every query opens an
        // H2 session, which waits while the store writes
        com.zaxxer.hikari.HikariDataSource ds = new com.zaxxer.hikari.HikariDataSource();
        ds.setJdbcUrl("jdbc:h2:file:" + dir.resolve("santa") + ";WRITE_DELAY=0" + System.getProperty("h2.settings", ""));
        ds.setUsername("sa");
        ds.setMaximumPoolSize(4);
        SemanticIndex index = new SemanticIndex(ds, () -> Embedder.of("stand-in", standIn), pool, SemanticSettings.defaults());
        System.out.printf(Locale.ROOT, "items %7d: load before %s%n", n, load());
        long t0 = System.nanoTime();
        long c0 = cpu();
        index.prepare(cat);
        long t1 = System.nanoTime();
        long c1 = cpu();
        SemanticSettings s = index.settings();
        AtomicLong flagged = new AtomicLong();
        AtomicLong named = new AtomicLong();
        List<Future<?>> fs = new ArrayList<>();
        List<SnapshotItem> items = new ArrayList<>();
        cat.items().forEach(items::add);
        Map<String, Found> found = new java.util.concurrent.ConcurrentHashMap<>();
        for (SnapshotItem it : items) {
            fs.add(pool.submit(() -> {
                // the reviewer's near-duplicate queries: the content vector, and the passage when it has enough sentences
                SemanticIndex.Stored st = index.stored(it.id()).orElseThrow();
                Set<String> dups = new java.util.HashSet<>();
                Set<String> byContent = new java.util.HashSet<>();
                Set<String> byPassage = new java.util.HashSet<>();
                index.near(SemanticIndex.CONTENT, st.content(), s.copyCosine(), it.id()).forEach(x -> byContent.add(x.itemId()));
                SemanticIndex.Passage p = index.passages(List.of(it.id())).get(it.id());
                boolean banded = p != null && p.sentences() >= s.paraphraseMinSentences();
                if (banded) {
                    index.near(SemanticIndex.PASSAGE, p.vector(), s.passageCosine(), it.id()).forEach(x -> byPassage.add(x.itemId()));
                }
                found.put(it.id(), new Found(st.content(), banded ? p.vector() : null, byContent, byPassage));
                dups.addAll(byContent);
                dups.addAll(byPassage);
                if (!dups.isEmpty()) {
                    flagged.incrementAndGet();
                    named.addAndGet(dups.size());
                }
            }));
        }
        for (Future<?> f : fs) {
            f.get();
        }
        long t2 = System.nanoTime();
        long c2 = cpu();
        long[] q = index.queryStats();
        System.out.printf(Locale.ROOT,
                "items %7d: prepare (store vectors, references, typicality, LSH bands) %6.1f s; near-duplicate search of every item %6.1f s"
                        + " (%.2f ms/item); %d LSH queries, %.1f candidates verified per query; %d queries read the most band rows (%d) with fewer than %d"
                        + " neighbours found; %d items with near-duplicates (%d named)%n",
                n, (t1 - t0) / 1e9, (t2 - t1) / 1e9, (t2 - t1) / 1e6 / n, q[0], (double) q[1] / Math.max(1, q[0]), q[2],
                SemanticIndex.MAX_CANDIDATE_ROWS, SemanticIndex.MAX_NEIGHBOURS, flagged.get(), named.get());
        System.out.printf(Locale.ROOT, "items %7d: process CPU time (all threads; steadier than wall time on a shared machine): prepare %.1f s, search %.1f s%n",
                n, (c1 - c0) / 1e9, (c2 - c1) / 1e9);
        index.takeQueryProfile().forEach((k, v) -> System.out.printf(Locale.ROOT, "    %-8s queries %8d, %.2f ms each, %.1f candidates verified each%n",
                k, v[0], v[1] / 1e6 / Math.max(1, v[0]), (double) v[2] / Math.max(1, v[0])));
        double full = 0;
        if (Boolean.getBoolean("full")) {
            SemanticReviewer reviewer = new SemanticReviewer("C", Set.of("on-specification", "original"), index);
            fs.clear();
            long t3 = System.nanoTime();
            long c3 = cpu();
            for (SnapshotItem it : items) {
                fs.add(pool.submit(() -> reviewer.analyse(new ReviewRequest("spec", it.id(), it.source(), it.content(), List.of()))));
            }
            for (Future<?> f : fs) {
                f.get();
            }
            full = (System.nanoTime() - t3) / 1e9;
            System.out.printf(Locale.ROOT, "items %7d: the reviewer's full analysis of every item (with closer-to-another-source) %6.1f s (%.2f ms/item), %.1f s CPU%n",
                    n, full, full * 1e3 / n, (cpu() - c3) / 1e9);
            index.takeQueryProfile().forEach((k, v) -> System.out.printf(Locale.ROOT, "    %-8s queries %8d, %.2f ms each, %.1f candidates verified each%n",
                k, v[0], v[1] / 1e6 / Math.max(1, v[0]), (double) v[2] / Math.max(1, v[0])));
        }
        recall(n, found, s);
        System.out.printf(Locale.ROOT, "items %7d: load after %s%n", n, load());
        ds.close();
        return new double[] {n, (t1 - t0) / 1e9, (t2 - t1) / 1e9, full, (c1 - c0) / 1e9, (c2 - c1) / 1e9};
    }

}
