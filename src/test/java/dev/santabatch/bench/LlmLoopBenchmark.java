package dev.santabatch.bench;

import dev.santabatch.cli.Cli;
import dev.santabatch.model.CatalogModelServer;
import dev.santabatch.run.Launcher;
import dev.santabatch.eval.SampleCatalogGenerator;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The review step of a model-backed job at a fixed model latency: a generated catalog reviewed in
 * full (sampling rate 1.0 by the explicit override, one round) by two model reviewers and a model
 * fixer at a local {@link CatalogModelServer} that answers every call after a fixed 200 ms, with
 * the calls in flight across all roles limited to {@code C} (the governor's in-flight limit at the
 * endpoint). Not a test. Prints, per {@code C}: the review step's wall time (its first call to its
 * last answer, at the server), the whole job's wall time, the calls (retries included), and
 * efficiency = calls x 0.2 s / (C x review-step wall time): the share of the available call slots
 * the step kept busy.
 *
 * <p>Arguments: {@code [items] [C...]}, default {@code 2000 8 32}.
 */
public final class LlmLoopBenchmark {

    static final Duration LATENCY = Duration.ofMillis(200);

    public static void main(String[] args) throws Exception {
        int items = args.length > 0 ? Integer.parseInt(args[0]) : 2000;
        List<Integer> levels = args.length > 1
                ? java.util.Arrays.stream(args).skip(1).map(Integer::parseInt).toList()
                : List.of(8, 32);
        Path dir = Files.createTempDirectory("santa-llm-bench");
        Path csv = dir.resolve("catalog.csv");
        Path truth = dir.resolve("truth.csv");
        SampleCatalogGenerator.write(11L, items, false, csv, truth);
        System.out.printf("%d items, %d cores, max heap %d MB, model latency %d ms%n", items,
                Runtime.getRuntime().availableProcessors(), Runtime.getRuntime().maxMemory() >> 20, LATENCY.toMillis());
        for (int c : levels) {
            try (CatalogModelServer server = CatalogModelServer.start(CatalogModelServer.reviewerDefects(truth)).delay(LATENCY)) {
                Path job = dir.resolve("bench-" + c + ".yml");
                Files.writeString(job, job(csv, server.baseUrl(), c));
                String url = "jdbc:h2:file:" + dir.resolve("db-" + c + "/santa") + ";AUTO_SERVER=TRUE;WRITE_DELAY=0";
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                long t0 = System.nanoTime();
                int exit = Cli.run(new String[] {"run", job.toString(), "--out", dir.resolve("out").toString(), "--run-id", "c" + c},
                        Map.of("spring.datasource.url", url, Launcher.ENV_PROPERTY_PREFIX + "BENCH_MODEL_KEY", "none"),
                        new PrintStream(out, true, StandardCharsets.UTF_8), System.err);
                double wall = (System.nanoTime() - t0) / 1e9;
                List<CatalogModelServer.Call> calls = server.calls();
                long first = calls.stream().mapToLong(CatalogModelServer.Call::arrivalNanos).min().orElse(0);
                double review = (server.lastAnswerNanos() - first) / 1e9;
                long reviews = calls.stream().filter(k -> k.kind() == CatalogModelServer.Kind.REVIEW).count();
                long fixes = calls.stream().filter(k -> k.kind() == CatalogModelServer.Kind.FIX).count();
                double efficiency = calls.size() * LATENCY.toMillis() / 1000.0 / (c * review);
                System.out.printf("C=%d exit=%d: review step %.1f s (first call to last answer), whole job %.1f s, calls %d"
                                + " (%d reviews, %d fixes), max in flight %d, efficiency %.3f%n",
                        c, exit, review, wall, calls.size(), reviews, fixes, server.maxInFlight(), efficiency);
                for (String line : out.toString(StandardCharsets.UTF_8).split("\n")) {
                    if (line.startsWith("santa-batch:") || line.startsWith("  status") || line.startsWith("  rounds")) {
                        System.out.println("    " + line.strip());
                    }
                }
            }
        }
    }

    static String job(Path csv, String baseUrl, int c) throws Exception {
        String rubric = Files.readString(Path.of("jobs/product-descriptions.yml"));
        rubric = rubric.substring(rubric.indexOf("\nrubric:\n") + 1, rubric.indexOf("\nsampling:\n") + 1);
        String model = """
                    model:
                      base-url: %s
                      model: %%s
                      api-key-env: BENCH_MODEL_KEY
                      timeout: 30s
                """.formatted(baseUrl);
        return "name: llm-bench\n"
                + "input:\n  path: " + csv + "\n  id-column: id\n  content-column: description\n  category-column: category\n"
                + "  source-columns: [name, brand, category, price, warranty_years, battery_hours]\n"
                + "task-spec: Write a product description of 2 to 5 sentences about the product in the source facts.\n"
                + rubric
                + "sampling:\n  rate: 1.0\n  allow-rate-outside-range: true\n  seed: 7\n"
                + "santa:\n  max-rounds: 1\n"
                + "reviewers:\n  - id: B\n    type: llm\n" + model.formatted("model-b")
                + "  - id: C\n    type: llm\n" + model.formatted("model-c")
                + "fixer:\n  type: llm\n" + model.formatted("model-fix").replace("    ", "  ")
                // enough items at once to fill C call slots (two reviewers each)
                + "run:\n  chunk-size: 500\n  concurrency: " + c + "\n"
                + "governor:\n  max-in-flight-per-endpoint: " + c + "\n  max-in-flight-per-model: " + c + "\n";
    }
}
