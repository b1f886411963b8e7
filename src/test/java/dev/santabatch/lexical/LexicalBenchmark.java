package dev.santabatch.lexical;

import dev.santabatch.offline.SnapshotItem;
import dev.santabatch.sampledata.SampleCatalogGenerator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.h2.jdbcx.JdbcDataSource;

/**
 * Sketching and near-duplicate search at 10,000 and 100,000 generated items (not a test; the
 * surefire configuration excludes *Benchmark*). The store is an H2 file database in a temporary
 * folder, as in a real run. Prints items per second for {@code prepare} (sketch + bands + source
 * index into the store) and for the near-duplicate query of every item, with the candidate count.
 *
 * <p>Arguments: item counts, default {@code 10000 100000}.
 */
public final class LexicalBenchmark {

    public static void main(String[] args) throws Exception {
        int[] sizes = args.length == 0 ? new int[] {10_000, 100_000} : java.util.Arrays.stream(args).mapToInt(Integer::parseInt).toArray();
        Path dir = Files.createTempDirectory("lexical-bench");
        System.out.printf(Locale.ROOT, "max heap %d MB, %d cores%n", Runtime.getRuntime().maxMemory() >> 20, Runtime.getRuntime().availableProcessors());
        for (int rows : sizes) {
            Path csv = dir.resolve("catalog-" + rows + ".csv");
            SampleCatalogGenerator.write(7L, rows, false, csv, null);
            CsvSnapshot snapshot = CsvSnapshot.products(csv, 1);
            JdbcDataSource ds = new JdbcDataSource();
            ds.setURL("jdbc:h2:file:" + dir.resolve("store-" + rows).toAbsolutePath() + ";DB_CLOSE_DELAY=-1");
            LexicalIndex index = new LexicalIndex(ds, LexicalThresholds.defaults());
            long t0 = System.nanoTime();
            index.prepare(snapshot);
            double prep = (System.nanoTime() - t0) / 1e9;
            long t1 = System.nanoTime();
            long found = 0;
            long flagged = 0;
            for (SnapshotItem it : snapshot.items()) {
                int d = index.nearDuplicates(it.id(), it.content()).size();
                found += d;
                flagged += d > 0 ? 1 : 0;
            }
            double query = (System.nanoTime() - t1) / 1e9;
            double pairs = (double) rows * (rows - 1) / 2;
            System.out.printf(Locale.ROOT,
                    "%,d items: prepare (sketch + store) %.1f s = %,.0f items/s; near-duplicate search of every item %.1f s = %,.0f items/s;"
                            + " %,d bucket candidates (%.5f of n^2/2), %,d verified exactly, %,d items with a near-duplicate (%,d pairs both ways)%n",
                    rows, prep, rows / prep, query, rows / query, index.candidateComparisons(), index.candidateComparisons() / 2.0 / pairs,
                    index.exactVerifications(), flagged, found);
        }
    }
}
