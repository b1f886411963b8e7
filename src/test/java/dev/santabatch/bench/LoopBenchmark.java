package dev.santabatch.bench;

import dev.santabatch.cli.Cli;
import dev.santabatch.sampledata.SampleCatalogGenerator;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The whole offline loop (the default job's rubric, rules, lexical and semantic reviewers) over
 * generated held-out catalogs. Not a test: prints items per second per step (summed over rounds)
 * and the peak heap sampled every 20 ms. Run with {@code -Xmx512m} (README, "Benchmarks").
 *
 * <p>Arguments: row counts (default 10000 100000). Ingest, pre-pass and export alone at 1,000,000
 * rows: {@link IngestExportBenchmark}.
 */
public final class LoopBenchmark {

    public static void main(String[] args) throws Exception {
        Path dir = Files.createTempDirectory("santa-loop-bench");
        System.out.printf("max heap %d MB, %d cores%n", Runtime.getRuntime().maxMemory() >> 20,
                Runtime.getRuntime().availableProcessors());
        for (String a : args.length == 0 ? new String[] {"10000", "100000"} : args) {
            int rows = Integer.parseInt(a);
            Path csv = dir.resolve("catalog-" + rows + ".csv");
            Path truth = dir.resolve("truth-" + rows + ".csv");
            SampleCatalogGenerator.write(11L, rows, true, csv, truth);
            String job = Files.readString(Path.of("jobs/product-descriptions.yml"))
                    .replace("path: ../sample-data/products.csv", "path: " + csv)
                    .replace("ground-truth: ../sample-data/products.truth.csv", "ground-truth: " + truth);
            Path jobFile = dir.resolve("bench-" + rows + ".yml");
            Files.writeString(jobFile, job);
            String url = "jdbc:h2:file:" + dir.resolve("db-" + rows + "/santa") + ";AUTO_SERVER=TRUE;WRITE_DELAY=0";
            long[] peak = {0};
            Thread sampler = new Thread(() -> {
                var heap = ManagementFactory.getMemoryMXBean();
                while (!Thread.currentThread().isInterrupted()) {
                    peak[0] = Math.max(peak[0], heap.getHeapMemoryUsage().getUsed());
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
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            int exit = Cli.run(new String[] {"run", jobFile.toString(), "--out", dir.resolve("out").toString(), "--run-id", "b" + rows},
                    Map.of("spring.datasource.url", url), new PrintStream(out, true, StandardCharsets.UTF_8), System.err);
            double wall = (System.nanoTime() - t0) / 1e9;
            sampler.interrupt();
            System.out.printf("items=%d exit=%d wall=%.1fs peak heap used=%dMB%n", rows, exit, wall, peak[0] >> 20);
            Map<String, double[]> steps = new LinkedHashMap<>();
            try (Connection c = DriverManager.getConnection(url, "sa", "");
                    ResultSet rs = c.createStatement().executeQuery(
                            "SELECT STEP_NAME, READ_COUNT, START_TIME, END_TIME FROM BATCH_STEP_EXECUTION ORDER BY STEP_EXECUTION_ID")) {
                while (rs.next()) {
                    double secs = Duration.between(rs.getTimestamp(3).toInstant(), rs.getTimestamp(4).toInstant()).toMillis() / 1000.0;
                    double[] s = steps.computeIfAbsent(rs.getString(1), k -> new double[4]);
                    long read = rs.getLong(2);
                    s[0] += secs;
                    s[1] += read;
                    s[2]++;
                    // a tasklet step (sample, classify, decide, export) reads nothing: its rate is
                    // over the catalog's items, as in IngestExportBenchmark
                    s[3] += read > 0 ? read : rows;
                }
            }
            steps.forEach((name, s) -> System.out.printf(
                    "  %-10s %3.0f run(s) %8.1fs  %,8.0f items read  %,10.1f items/s%s%n", name, s[2], s[0], s[1],
                    s[3] / Math.max(s[0], 1e-3), s[1] == 0 ? " (of the catalog's items: the step reads none)" : ""));
            for (String line : out.toString(StandardCharsets.UTF_8).split("\n")) {
                if (line.startsWith("  status") || line.startsWith("  rounds") || line.startsWith("  ground truth")) {
                    System.out.println(line);
                }
            }
            Path runDir = dir.resolve("out").resolve("product-descriptions").resolve("b" + rows);
            for (String name : new String[] {"report.json", "report.html"}) {
                Path f = runDir.resolve(name);
                System.out.printf("  %-11s %,d bytes%s%n", name, Files.exists(f) ? Files.size(f) : -1,
                        name.equals("report.html") ? " (target under 1 MB)" : "");
            }
        }
    }

    private LoopBenchmark() {}
}
