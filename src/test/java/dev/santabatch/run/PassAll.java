package dev.santabatch.run;

import dev.santabatch.cli.Cli;
import dev.santabatch.batch.Extensions;
import dev.santabatch.batch.SlowChunks;
import dev.santabatch.review.step.ReviewerType;
import dev.santabatch.review.step.ScriptedReviewer;
import dev.santabatch.review.Check;
import dev.santabatch.review.CheckResult;
import dev.santabatch.review.FixOutcome;
import dev.santabatch.review.Review;
import dev.santabatch.review.ReviewOutcome;
import dev.santabatch.review.Reviewer;
import dev.santabatch.review.Verdict;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reviewers that pass every item, for tests of the run's infrastructure (ingest, export, locks,
 * signals, restarts) where what the reviewers say is not the point. Also a child-process entry
 * point: {@code run <job> [--out d] [--run-id id]} runs with them, each ingest and pre-pass chunk
 * slowed by {@code -Dsanta.test.chunk-delay-ms} ({@link SlowChunks}); other commands go to the CLI.
 */
public final class PassAll {

    private PassAll() {}

    public static Extensions extensions() {
        ReviewerType pass = ScriptedReviewer.answering(request -> {
            awaitRelease();
            return List.of();
        });
        return new Extensions(Map.of("lexical", pass, "semantic", pass), r -> new FixOutcome.Fixed(r.content()));
    }

    /**
     * Holds a review while the file named by {@code -Dsanta.test.hold-file} exists: a child run a test
     * must find live (refusals, {@code status}) stays in its review step until the test deletes it.
     */
    static void awaitRelease() {
        String hold = System.getProperty("santa.test.hold-file");
        while (hold != null && java.nio.file.Files.exists(Path.of(hold))) {
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** Runs {@code run <job> [--out d] [--run-id id]} with passing reviewers; other commands as the CLI. */
    public static int run(Map<String, Object> props, PrintStream out, PrintStream err, String... args) {
        if (args.length == 0 || !args[0].equals("run")) {
            return Cli.run(args, props, out, err);
        }
        Path out2 = Path.of("out");
        Path input = null;
        String runId = null;
        Long seed = null;
        for (int i = 2; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--out" -> out2 = Path.of(args[i + 1]);
                case "--input" -> input = Path.of(args[i + 1]);
                case "--run-id" -> runId = args[i + 1];
                case "--seed" -> seed = Long.parseLong(args[i + 1]);
                default -> throw new IllegalArgumentException("PassAll: unknown option " + args[i]);
            }
        }
        // a panel that passes everything catches no canary: canaries off (docs/canaries.md)
        Map<String, Object> withoutCanaries = new java.util.HashMap<>(props);
        withoutCanaries.putIfAbsent(dev.santabatch.batch.SantaJobConfiguration.CANARIES_PROPERTY, "false");
        return Extensions.run(new RunRequest(Path.of(args[1]), input, out2, runId, seed), withoutCanaries, out, err,
                extensions(), new SlowChunks(Long.getLong("santa.test.chunk-delay-ms", 0L)));
    }

    /** Child-process entry point; the store URL comes from {@code -Dspring.datasource.url}. */
    public static void main(String[] args) {
        Map<String, Object> props = System.getProperty("spring.datasource.url") == null ? Map.of()
                : Map.of("spring.datasource.url", System.getProperty("spring.datasource.url"));
        System.exit(run(props, System.out, System.err, args));
    }
}
