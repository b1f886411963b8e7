package dev.santabatch.bench;

import dev.santabatch.eval.SampleCatalogGenerator;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.util.Map;

/**
 * Two runs of one job on one generated catalog (default 100,000 rows), the second carrying the
 * first's outcomes over: what carry-over costs in the pre-pass, where it is decided, and what it
 * saves in the review. The default job's rules and reviewers that pass everything, as in
 * {@link IngestExportBenchmark}. Not a test: it prints each step's time and items per second for
 * both runs, and what the second carried over.
 *
 * <p>Arguments: row counts, e.g. {@code 100000}.
 */
public final class CarryOverBenchmark {

    public static void main(String[] args) throws Exception {
        long[] sizes = args.length == 0 ? new long[] {100_000}
                : java.util.Arrays.stream(args).mapToLong(Long::parseLong).toArray();
        Path dir = Files.createTempDirectory("santa-carry-bench");
        System.out.printf("max heap %d MB, %d cores%n", Runtime.getRuntime().maxMemory() >> 20,
                Runtime.getRuntime().availableProcessors());
        for (long rows : sizes) {
            Path csv = dir.resolve("catalog-" + rows + ".csv");
            SampleCatalogGenerator.write(7L, (int) rows, true, csv, dir.resolve("truth-" + rows + ".csv"));
            Path job = dir.resolve("carry-" + rows + ".yml");
            Files.writeString(job, Files.readString(Path.of("jobs/product-descriptions.yml"))
                    .replace("name: product-descriptions", "name: carry-" + rows)
                    .replace("path: ../sample-data/products.csv", "path: " + csv)
                    .replace("ground-truth: ../sample-data/products.truth.csv", "ground-truth: " + dir.resolve("truth-" + rows + ".csv"))
                    .replace("chunk-size: 500", "chunk-size: 1000"));
            String url = "jdbc:h2:file:" + dir.resolve("db-" + rows + "/santa") + ";AUTO_SERVER=TRUE;WRITE_DELAY=0";
            for (String runId : new String[] {"first", "second"}) {
                long t0 = System.nanoTime();
                int exit = dev.santabatch.run.PassAll.run(Map.of("spring.datasource.url", url),
                        new PrintStream(new ByteArrayOutputStream()), System.err,
                        "run", job.toString(), "--out", dir.resolve("out").toString(), "--run-id", runId);
                double wall = (System.nanoTime() - t0) / 1e9;
                System.out.printf("rows=%d run=%s exit=%d wall=%.1fs%n", rows, runId, exit, wall);
                try (Connection c = DriverManager.getConnection(url, "sa", "")) {
                    try (ResultSet rs = c.createStatement().executeQuery("SELECT s.STEP_NAME, s.READ_COUNT, s.START_TIME,"
                            + " s.END_TIME FROM BATCH_STEP_EXECUTION s JOIN BATCH_JOB_EXECUTION_PARAMS p"
                            + " ON p.JOB_EXECUTION_ID = s.JOB_EXECUTION_ID AND p.PARAMETER_NAME = 'run.id'"
                            + " WHERE p.PARAMETER_VALUE = '" + runId + "' ORDER BY s.STEP_EXECUTION_ID")) {
                        while (rs.next()) {
                            double secs = java.time.Duration.between(rs.getTimestamp(3).toInstant(),
                                    rs.getTimestamp(4).toInstant()).toMillis() / 1000.0;
                            long read = rs.getLong(2);
                            System.out.printf("  %-10s %8.1fs  %,10d read  %,10.0f items/s%n", rs.getString(1), secs, read,
                                    (read > 0 ? read : rows) / Math.max(secs, 1e-3));
                        }
                    }
                    try (ResultSet rs = c.createStatement().executeQuery("SELECT i.carry, COUNT(*) FROM sb_item i JOIN sb_run r"
                            + " ON r.run_pk = i.run_pk WHERE r.run_id = '" + runId + "' GROUP BY i.carry ORDER BY i.carry")) {
                        StringBuilder carried = new StringBuilder("  carried:");
                        while (rs.next()) {
                            carried.append(' ').append(rs.getString(1) == null ? "none" : rs.getString(1)).append('=')
                                    .append(rs.getLong(2));
                        }
                        System.out.println(carried);
                    }
                    try (ResultSet rs = c.createStatement().executeQuery("SELECT COUNT(*) FROM sb_review v JOIN sb_run r"
                            + " ON r.run_pk = v.run_pk WHERE r.run_id = '" + runId + "'")) {
                        rs.next();
                        System.out.printf("  reviews stored: %,d%n", rs.getLong(1));
                    }
                }
            }
        }
    }

    private CarryOverBenchmark() {}
}
