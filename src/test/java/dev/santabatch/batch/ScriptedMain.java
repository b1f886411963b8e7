package dev.santabatch.batch;

import dev.santabatch.review.step.ReviewerType;
import dev.santabatch.run.Launcher;
import dev.santabatch.run.RunRequest;
import java.nio.file.Path;
import java.util.Map;

/**
 * A child-process entry point for kill tests: runs a job with the scripted marker reviewers and
 * fixer, each review slowed by {@code -Dsanta.test.review-delay-ms} and each ingest and pre-pass chunk by
 * {@code -Dsanta.test.chunk-delay-ms} ({@link SlowChunks}), so a kill lands mid-step.
 * Arguments: job file, out dir, run id, H2 URL.
 */
public final class ScriptedMain {

    public static void main(String[] args) {
        long delay = Long.getLong("santa.test.review-delay-ms", 0L);
        ReviewerType slow = spec -> {
            var inner = new ScriptedLoopFunctionalTests.MarkerReviewer(spec, "carries the shop-now boilerplate sentence");
            return new dev.santabatch.review.Reviewer() {
                @Override
                public String id() {
                    return inner.id();
                }

                @Override
                public java.util.Set<String> criteria() {
                    return inner.criteria();
                }

                @Override
                public dev.santabatch.review.ReviewOutcome review(dev.santabatch.review.ReviewRequest request) {
                    try {
                        Thread.sleep(delay);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    return inner.review(request);
                }
            };
        };
        Extensions ext = new Extensions(Map.of("lexical", slow, "semantic", slow), request ->
                new dev.santabatch.review.FixOutcome.Fixed(request.content().replace(ScriptedLoopFunctionalTests.MARKER, "")));
        int exit = Extensions.run(new RunRequest(Path.of(args[0]), null, Path.of(args[1]), args[2], null),
                Map.of("spring.datasource.url", args[3], dev.santabatch.batch.SantaJobConfiguration.CANARIES_PROPERTY, "false"),
                System.out, System.err, ext, new SlowChunks(Long.getLong("santa.test.chunk-delay-ms", 0L)));
        System.exit(exit);
    }

    private ScriptedMain() {}
}
