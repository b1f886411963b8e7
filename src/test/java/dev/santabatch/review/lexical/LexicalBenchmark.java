package dev.santabatch.review.lexical;

import dev.santabatch.config.LexicalThresholds;
import dev.santabatch.review.offline.SnapshotItem;
import dev.santabatch.review.Review;
import dev.santabatch.eval.SampleCatalogGenerator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.IntStream;
import org.h2.jdbcx.JdbcDataSource;

/**
 * Sketching and near-duplicate search at 10,000 and 100,000 generated items (not a test; the
 * surefire configuration excludes *Benchmark*). The store is an H2 file database in a temporary
 * folder, as in a real run. Per size it prints the time of {@code prepare} (sketches, bands, source
 * index and dense-bucket samples into the store), of the near-duplicate query of every item, and of
 * the lexical reviewer's full review of every item (near-duplicates, names of other items, source
 * overlap with other items: every catalog-wide check), both on a pool of one thread per core; the
 * candidates looked at; and, up to 20,000 items, pair recall against exact search (every pair's
 * informative-shingle Jaccard; {@code -Dexact=false} skips it). Then the ratio of the largest size's times to the smallest's: about
 * the size ratio for near-linear work, its square for quadratic. The machine's load average
 * ({@code /proc/loadavg}) is printed before and after each size, since the figures depend on it.
 *
 * <p>Arguments: item counts, default {@code 10000 100000}.
 */
public final class LexicalBenchmark {

    private static final int EXACT_LIMIT = 20_000;

    record Figures(int items, double prepare, double search, double review) {}

    public static void main(String[] args) throws Exception {
        int[] sizes = args.length == 0 ? new int[] {10_000, 100_000} : Arrays.stream(args).mapToInt(Integer::parseInt).toArray();
        Path dir = Files.createTempDirectory("lexical-bench");
        int threads = Runtime.getRuntime().availableProcessors();
        System.out.printf(Locale.ROOT, "max heap %d MB, %d cores, bucket cap %d%n", Runtime.getRuntime().maxMemory() >> 20, threads,
                LexicalIndex.DEFAULT_BUCKET_CAP);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        List<Figures> all = new ArrayList<>();
        for (int rows : sizes) {
            Path csv = dir.resolve("catalog-" + rows + ".csv");
            SampleCatalogGenerator.write(7L, rows, false, csv, null);
            CsvSnapshot snapshot = CsvSnapshot.products(csv, 1);
            List<SnapshotItem> items = new ArrayList<>();
            snapshot.forEach(items::add);
            JdbcDataSource ds = new JdbcDataSource();
            ds.setURL("jdbc:h2:file:" + dir.resolve("store-" + rows).toAbsolutePath() + ";DB_CLOSE_DELAY=-1");
            LexicalIndex index = new LexicalIndex(ds, LexicalThresholds.defaults());
            System.out.printf(Locale.ROOT, "%,d items: load before %s%n", rows, load());
            long t0 = System.nanoTime();
            index.prepare(snapshot);
            double prep = (System.nanoTime() - t0) / 1e9;

            Map<String, List<NearDuplicate>> found = new LinkedHashMap<>();
            items.forEach(it -> found.put(it.id(), List.of()));
            long t1 = System.nanoTime();
            List<Future<?>> fs = new ArrayList<>();
            for (SnapshotItem it : items) {
                fs.add(pool.submit(() -> {
                    List<NearDuplicate> d = index.nearDuplicates(it.id(), it.content());
                    synchronized (found) {
                        found.put(it.id(), d);
                    }
                }));
            }
            for (Future<?> f : fs) {
                f.get();
            }
            double search = (System.nanoTime() - t1) / 1e9;
            long pairs = found.values().stream().mapToLong(List::size).sum();
            long flagged = found.values().stream().filter(l -> !l.isEmpty()).count();

            LexicalReviewer reviewer = new LexicalReviewer("B", LexicalHarness.JUDGED, index);
            AtomicLong failed = new AtomicLong();
            long t2 = System.nanoTime();
            fs.clear();
            for (SnapshotItem it : items) {
                fs.add(pool.submit(() -> {
                    Review r = LexicalHarness.review(reviewer, LexicalHarness.request(it));
                    if (r.verdict() == dev.santabatch.review.Verdict.FAIL) {
                        failed.incrementAndGet();
                    }
                }));
            }
            for (Future<?> f : fs) {
                f.get();
            }
            double review = (System.nanoTime() - t2) / 1e9;
            System.out.printf(Locale.ROOT,
                    "%,d items: prepare (sketch + store) %.1f s = %,.0f items/s; near-duplicate search of every item %.1f s = %,.0f items/s"
                            + " (%d threads); full lexical review of every item %.1f s = %,.0f items/s (%,d fail);"
                            + " %d dense buckets; %,d bucket candidates (%.1f per query, at most %d), %,d verified exactly;"
                            + " %,d items with a near-duplicate (%,d pairs both ways)%n",
                    rows, prep, rows / prep, search, rows / search, threads, review, rows / review, failed.get(), index.denseBuckets(),
                    index.candidateComparisons(), (double) index.candidateComparisons() / index.queries(), MinHasher.BANDS * index.bucketCap(),
                    index.exactVerifications(), flagged, pairs);
            if (rows <= EXACT_LIMIT && !"false".equals(System.getProperty("exact"))) {
                exactRecall(index, items, found);
            }
            System.out.printf(Locale.ROOT, "%,d items: load after %s%n", rows, load());
            all.add(new Figures(rows, prep, search, review));
        }
        if (all.size() >= 2) {
            Figures a = all.get(0);
            Figures b = all.get(all.size() - 1);
            double n = (double) b.items() / a.items();
            System.out.printf(Locale.ROOT, "%,d / %,d items (x%.0f; quadratic would be x%.0f): prepare x%.1f, near-duplicate search x%.1f, full review x%.1f%n",
                    b.items(), a.items(), n, n * n, b.prepare() / a.prepare(), b.search() / a.search(), b.review() / a.review());
        }
        pool.shutdown();
    }

    /** Pair recall of the search against exact search (every pair compared; on all cores). */
    private static void exactRecall(LexicalIndex index, List<SnapshotItem> items, Map<String, List<NearDuplicate>> found) {
        long t0 = System.nanoTime();
        double threshold = index.thresholds().nearDuplicateJaccard();
        long[][] sh = items.stream().map(it -> index.informative(it)).toArray(long[][]::new);
        int n = items.size();
        AtomicLong exact = new AtomicLong();
        AtomicLong hit = new AtomicLong();
        IntStream.range(0, n).parallel().forEach(i -> {
            java.util.Set<String> named = new java.util.HashSet<>();
            found.get(items.get(i).id()).forEach(d -> named.add(d.itemId()));
            for (int j = 0; j < n; j++) {
                if (j != i && sh[i].length > 0 && sh[j].length > 0 && Tokens.jaccard(sh[i], sh[j]) >= threshold
                        && Tokens.shared(sh[i], sh[j]) >= index.thresholds().nearDuplicateMinShared()) {
                    exact.incrementAndGet();
                    if (named.contains(items.get(j).id())) {
                        hit.incrementAndGet();
                    }
                }
            }
        });
        System.out.printf(Locale.ROOT, "%,d items: exact search (all %,d ordered pairs, %.1f s): %,d pairs at Jaccard >= %.2f, the index named %,d (recall %.4f)%n",
                n, (long) n * (n - 1), (System.nanoTime() - t0) / 1e9, exact.get(), threshold, hit.get(), (double) hit.get() / Math.max(1, exact.get()));
    }

    static String load() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).strip();
        } catch (java.io.IOException e) {
            return "unknown";
        }
    }
}
