package dev.santabatch.bench;

import dev.santabatch.cli.Cli;
import dev.santabatch.eval.SampleCatalogGenerator;
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
 *
 * <p>With {@code --model} first, each row count is instead one sampled run of the products model job
 * ({@code bench/products-llm.yml}: rate 0.10, at most 4 rounds) against {@link PatternCBenchmark}'s
 * realistic judges at a local server, seed 1: the model path at a size the offline panel's indexes
 * cannot reach in reasonable time on two cores. It prints the run's status, calls and output sizes.
 */
public final class LoopBenchmark {

    public static void main(String[] args) throws Exception {
        Path dir = Files.createTempDirectory("santa-loop-bench");
        System.out.printf("max heap %d MB, %d cores%n", Runtime.getRuntime().maxMemory() >> 20,
                Runtime.getRuntime().availableProcessors());
        if (args.length > 0 && args[0].equals("--model")) {
            for (String a : java.util.Arrays.copyOfRange(args, 1, args.length)) {
                model(Integer.parseInt(a), dir.resolve("model-" + a));
            }
            return;
        }
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
            sizes(dir.resolve("out").resolve("product-descriptions").resolve("b" + rows));
        }
    }

    /** One sampled run of the products model job at realistic judges, with its calls and output sizes. */
    static void model(int rows, Path dir) throws Exception {
        BenchDomain domain = PatternCBenchmark.DOMAINS.get("products");
        Files.createDirectories(dir);
        Path csv = dir.resolve("catalog-in.csv");
        var defects = domain.write(1, rows, csv, dir.resolve("catalog-in.truth.csv"));
        long t0 = System.nanoTime();
        PatternCBenchmark.Run run = PatternCBenchmark.run(domain, "sampled", csv, defects, 1, PatternCBenchmark.SAMPLED_RATE,
                PatternCBenchmark.SAMPLED_ROUNDS, dir.resolve("sampled"));
        System.out.printf("items=%d (model job, realistic judges) exit=%d status=%s rounds=%d calls=%,d %s wall=%.1fs%n", rows,
                run.exit(), run.status(), run.rounds(), run.total(), run.calls(), (System.nanoTime() - t0) / 1e9);
        System.out.printf("  shipped %,d (%,d still defective), patterns %d%n", run.shipped(), run.shippedDefective(),
                run.patterns().size());
        try (var folders = Files.list(dir.resolve("sampled").resolve("out"))) {
            sizes(folders.findFirst().orElseThrow().resolve(PatternCBenchmark.RUN_ID));
        }
    }

    static void sizes(Path runDir) throws java.io.IOException {
        for (String name : new String[] {"report.json", "report.html"}) {
            Path f = runDir.resolve(name);
            System.out.printf("  %-11s %,d bytes%s%n", name, Files.exists(f) ? Files.size(f) : -1,
                    name.equals("report.html") ? " (target under 1 MB)" : "");
        }
    }

    private LoopBenchmark() {}
}
