package dev.santabatch.model;

import dev.santabatch.cli.Cli;
import dev.santabatch.execution.StopSignal;
import dev.santabatch.run.Launcher;
import dev.santabatch.eval.SampleCatalogGenerator;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVRecord;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;

/**
 * Whole-job fixtures for model-backed runs: a generated catalog with ground truth, a job file whose
 * reviewers, fixer and matcher are models at a {@link CatalogModelServer}, the command line run in
 * this JVM with the API key supplied as a stand-in environment variable, and readers for the
 * outputs and the store.
 */
final class LlmJobs {

    /** The environment variable the job file names; its value is only ever in the test's properties. */
    static final String KEY_ENV = "SANTA_TEST_MODEL_KEY";

    /** A key value distinctive enough to be searched for in every log line, row and file. */
    static final String KEY = "sk-test-9f3c2a7e51d84b6aa0c4e2f1d7b3c5e8";

    private LlmJobs() {}

    /** What a command-line run printed and returned. */
    record Result(int exit, String out, String err) {
        String all() {
            return out + err;
        }
    }

    /** A generated catalog and its ground truth in {@code dir}. */
    record Catalog(Path csv, Path truth) {}

    static Catalog catalog(Path dir, long seed, int rows) throws IOException {
        Path csv = dir.resolve("catalog-in.csv");
        Path truth = dir.resolve("catalog-in.truth.csv");
        SampleCatalogGenerator.write(seed, rows, false, csv, truth);
        return new Catalog(csv, truth);
    }

    /** The default job's rubric (rules included), as YAML lines. */
    static String rubric() throws IOException {
        String job = Files.readString(Path.of("jobs/product-descriptions.yml"));
        int start = job.indexOf("\nrubric:\n");
        int end = job.indexOf("\nsampling:\n");
        return job.substring(start + 1, end + 1);
    }

    static String model(String name, String baseUrl, String timeout) {
        return """
                    model:
                      base-url: %s
                      model: %s
                      api-key-env: %s
                      timeout: %s
                      price-input-per-million: 1.0
                      price-output-per-million: 2.0
                """.formatted(baseUrl, name, KEY_ENV, timeout);
    }

    /**
     * A job over {@code catalog}: the default rubric, reviewers B and C on two models, an {@code llm}
     * fixer, all at {@code baseUrl}; {@code extra} is appended (more top-level sections).
     */
    static Path writeJob(Path dir, String name, Catalog catalog, String baseUrl, int concurrency, String extra)
            throws IOException {
        String yaml = "name: " + name + "\n"
                + "input:\n"
                + "  path: " + catalog.csv().toAbsolutePath() + "\n"
                + "  id-column: id\n"
                + "  content-column: description\n"
                + "  category-column: category\n"
                + "  source-columns: [name, brand, category, price, warranty_years, battery_hours]\n"
                + "  ground-truth: " + catalog.truth().toAbsolutePath() + "\n"
                + "task-spec: |\n"
                + "  Write a product description of 2 to 5 sentences for an online shop. Describe only the product\n"
                + "  named in the source facts. Each description must be written for its own product.\n"
                + rubric()
                + "sampling:\n  seed: 7\n"
                + "reviewers:\n"
                + "  - id: B\n    type: llm\n" + model("model-b", baseUrl, "2s")
                + "  - id: C\n    type: llm\n" + model("model-c", baseUrl, "2s")
                + "fixer:\n  type: llm\n" + model("model-fix", baseUrl, "2s").replace("    ", "  ")
                + "run:\n  chunk-size: 100\n  concurrency: " + concurrency + "\n"
                + extra;
        Path job = dir.resolve(name + ".yml");
        Files.writeString(job, yaml);
        return job;
    }

    /**
     * {@link #writeJob} with concurrency 4, the short retries of {@link LlmFaultFunctionalTests#FAST_RETRIES}
     * and a 1 s model timeout (a hung answer costs a second), then {@code extra}.
     */
    static Path faultJob(Path dir, String name, Catalog catalog, String baseUrl, String extra) throws IOException {
        Path job = writeJob(dir, name, catalog, baseUrl, 4, LlmFaultFunctionalTests.FAST_RETRIES + extra);
        Files.writeString(job, Files.readString(job).replace("timeout: 2s", "timeout: 1s"));
        return job;
    }

    /** Spring properties: an H2 file store in {@code dir} and the API key as a stand-in environment variable. */
    static Map<String, Object> props(Path dir) {
        Map<String, Object> p = new HashMap<>();
        p.put("spring.datasource.url", h2Url(dir));
        p.put(Launcher.ENV_PROPERTY_PREFIX + KEY_ENV, KEY);
        // the scripted models answer from their scripts, which no canary is in (the canary tests turn them on)
        p.put(dev.santabatch.batch.SantaJobConfiguration.CANARIES_PROPERTY, "false");
        return p;
    }

    static String h2Url(Path dir) {
        return "jdbc:h2:file:" + dir.toAbsolutePath().resolve("db/santa") + ";AUTO_SERVER=TRUE;WRITE_DELAY=0";
    }

    /** {@code santa-batch run <job> --out <dir>/out --run-id <id>} in this JVM. */
    static Result run(Path dir, Path job, String runId) {
        return cli(props(dir), "run", job.toString(), "--out", dir.resolve("out").toString(), "--run-id", runId);
    }

    static Result cli(Map<String, Object> props, String... args) {
        StopSignal.reset();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = Cli.run(args, props, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Result(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    static List<CSVRecord> records(Path csv) throws IOException {
        try (Reader in = Files.newBufferedReader(csv, StandardCharsets.UTF_8);
                var p = CSVFormat.RFC4180.builder().setHeader().setSkipHeaderRecord(true).get().parse(in)) {
            return p.getRecords();
        }
    }

    /** Item id to content of a catalog-shaped CSV. */
    static Map<String, String> contents(Path csv, String idColumn, String contentColumn) throws IOException {
        Map<String, String> out = new LinkedHashMap<>();
        for (CSVRecord r : records(csv)) {
            out.put(r.get(idColumn), r.get(contentColumn));
        }
        return out;
    }

    static List<String> ids(Path csv, String idColumn) throws IOException {
        List<String> out = new ArrayList<>();
        for (CSVRecord r : records(csv)) {
            out.add(r.get(idColumn));
        }
        return out;
    }

    /** A store connection for queries after a run (the run's process has closed it). */
    static JdbcTemplate store(Path dir) {
        SingleConnectionDataSource ds = new SingleConnectionDataSource(h2Url(dir), "sa", "", true);
        return new JdbcTemplate(ds);
    }

    static void close(JdbcTemplate jdbc) {
        if (jdbc.getDataSource() instanceof SingleConnectionDataSource s) {
            s.destroy();
        }
    }
}
