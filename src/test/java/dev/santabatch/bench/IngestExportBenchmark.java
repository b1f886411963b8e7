package dev.santabatch.bench;

import dev.santabatch.eval.SampleCatalogGenerator;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.util.Map;

/**
 * Ingest, pre-pass and export of generated catalogs (default 100,000 and 1,000,000 rows), with the
 * default job's rules and reviewers that pass everything (the loop then ends after one trivial
 * round). Not a test: it prints items per second per step and the peak heap. Run it with
 * {@code -Xmx256m} (issue 2) or {@code -Xmx512m} (issue 5); see README, "Benchmarks".
 *
 * <p>Arguments: row counts, e.g. {@code 100000 1000000}.
 */
public final class IngestExportBenchmark {

    public static void main(String[] args) throws Exception {
        long[] sizes = args.length == 0 ? new long[] {100_000, 1_000_000} : java.util.Arrays.stream(args).mapToLong(Long::parseLong).toArray();
        Path dir = Files.createTempDirectory("santa-bench");
        System.out.printf("max heap %d MB, %d cores%n", Runtime.getRuntime().maxMemory() >> 20, Runtime.getRuntime().availableProcessors());
        for (long rows : sizes) {
            Path csv = dir.resolve("catalog-" + rows + ".csv");
            SampleCatalogGenerator.write(7L, (int) rows, true, csv, dir.resolve("truth-" + rows + ".csv"));
            // the default job's rubric and rules over the generated catalog; reviewers that pass
            // everything, so the figures are those of ingest, pre-pass and export
            Path job = dir.resolve("bench-" + rows + ".yml");
            Files.writeString(job, Files.readString(Path.of("jobs/product-descriptions.yml"))
                    .replace("path: ../sample-data/products.csv", "path: " + csv)
                    .replace("ground-truth: ../sample-data/products.truth.csv", "ground-truth: " + dir.resolve("truth-" + rows + ".csv"))
                    .replace("chunk-size: 500", "chunk-size: 1000"));
            String url = "jdbc:h2:file:" + dir.resolve("db-" + rows + "/santa") + ";AUTO_SERVER=TRUE;WRITE_DELAY=0";
            System.gc();
            ManagementFactory.getMemoryPoolMXBeans().forEach(MemoryPoolMXBean::resetPeakUsage);
            long[] sampledPeak = {0};
            Thread sampler = new Thread(() -> {
                var heap = ManagementFactory.getMemoryMXBean();
                while (!Thread.currentThread().isInterrupted()) {
                    sampledPeak[0] = Math.max(sampledPeak[0], heap.getHeapMemoryUsage().getUsed());
                    try {
                        Thread.sleep(20);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            });
            sampler.setDaemon(true);
            sampler.start();
            long t0 = System.nanoTime();
            int exit = dev.santabatch.run.PassAll.run(Map.of("spring.datasource.url", url),
                    new PrintStream(new ByteArrayOutputStream()), System.err,
                    "run", job.toString(), "--out", dir.resolve("out").toString(), "--run-id", "b" + rows);
            double wall = (System.nanoTime() - t0) / 1e9;
            sampler.interrupt();
            long peak = 0;
            for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
                if (pool.getType() == MemoryType.HEAP) {
                    peak += pool.getPeakUsage().getUsed();
                }
            }
            try (Connection c = DriverManager.getConnection(url, "sa", "");
                    ResultSet rs = c.createStatement().executeQuery(
                            "SELECT STEP_NAME, READ_COUNT, START_TIME, END_TIME FROM BATCH_STEP_EXECUTION ORDER BY STEP_EXECUTION_ID")) {
                System.out.printf("rows=%d exit=%d wall=%.1fs peak heap used (sampled every 20 ms)=%dMB,"
                        + " sum of per-pool peaks=%dMB (csv %d MB)%n", rows, exit, wall, sampledPeak[0] >> 20, peak >> 20,
                        Files.size(csv) >> 20);
                while (rs.next()) {
                    double secs = java.time.Duration.between(rs.getTimestamp(3).toInstant(), rs.getTimestamp(4).toInstant()).toMillis() / 1000.0;
                    long read = rs.getLong(2);
                    System.out.printf("  %-10s %8.1fs  %,10d read  %,10.0f items/s%n", rs.getString(1), secs, read,
                            (read > 0 ? read : rows) / Math.max(secs, 1e-3));
                }
            }
        }
    }
}
