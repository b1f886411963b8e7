package dev.santabatch.export;

import dev.santabatch.config.ReviewerSpec;
import dev.santabatch.batch.Extensions;
import dev.santabatch.review.step.ReviewerType;
import dev.santabatch.review.Check;
import dev.santabatch.review.CheckResult;
import dev.santabatch.review.FixOutcome;
import dev.santabatch.review.Review;
import dev.santabatch.review.ReviewOutcome;
import dev.santabatch.review.ReviewRequest;
import dev.santabatch.review.Reviewer;
import dev.santabatch.review.Verdict;
import dev.santabatch.run.Launcher;
import dev.santabatch.run.RunRequest;
import dev.santabatch.run.TestJobsAccess;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A real run whose catalog holds hostile text: every fifth item carries a closing script tag, an
 * image whose source is a listener's address and whose error handler is script, and a {@code
 * javascript:} link. Scripted reviewers fail those items quoting the text (so it reaches the
 * pattern's label, the open issues and the escalations), and the fixer has no fix (quoting it
 * again), so they are held; the next sample is clean.
 */
final class HostileRun {

    static final String JOB = "hostile";

    /** A run's folder and what the command line printed. */
    record Result(int exit, Path runDir, String out) {}

    private HostileRun() {}

    /** The hostile text, its image pointed at {@code port} on 127.0.0.1. */
    static String hostile(int port) {
        return "</script><script>alert(1)</script> <img src=http://127.0.0.1:" + port + "/x onerror=alert(1)>"
                + " <a href=\"javascript:alert(1)\">javascript:alert(1)</a> & 'quoted'";
    }

    /** The pattern label the scripted reviewers give the hostile items. */
    static String label(int port) {
        return "on-specification: the text carries " + hostile(port);
    }

    /** Runs the job in this JVM with run id {@code runId}; the store and outputs in {@code dir}. */
    static Result run(Path dir, int port, String runId) throws Exception {
        String bad = hostile(port);
        List<List<String>> rows = new ArrayList<>();
        for (List<String> r : TestJobsAccess.rows(200)) {
            List<String> row = new ArrayList<>(r);
            if (Integer.parseInt(row.get(0).substring(1)) % 5 == 0) {
                row.set(7, row.get(7) + " " + bad);
            }
            rows.add(row);
        }
        Path catalog = TestJobsAccess.writeCatalog(dir.resolve("in.csv"), rows);
        Path job = TestJobsAccess.writeJob(dir, JOB, catalog, 50);
        Files.writeString(job, Files.readString(job) + "sampling:\n  seed: 7\n");
        ReviewerType reviewer = spec -> new QuotingReviewer(spec, bad);
        Extensions ext = new Extensions(Map.of("lexical", reviewer, "semantic", reviewer),
                request -> new FixOutcome.CannotFix("no fix for " + bad));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int exit = Extensions.run(new RunRequest(job, null, dir.resolve("out"), runId, null), TestJobsAccess.h2(dir),
                new PrintStream(out, true, StandardCharsets.UTF_8), System.err, ext);
        return new Result(exit, dir.resolve("out").resolve(JOB).resolve(runId), out.toString(StandardCharsets.UTF_8));
    }

    /** Fails on-specification when the text carries the hostile text, quoting it; passes everything else. */
    private record QuotingReviewer(ReviewerSpec spec, String bad) implements Reviewer {

        @Override
        public String id() {
            return spec.id();
        }

        @Override
        public Set<String> criteria() {
            return new LinkedHashSet<>(spec.criteria());
        }

        @Override
        public ReviewOutcome review(ReviewRequest request) {
            boolean fail = request.content().contains(bad);
            List<Check> checks = new ArrayList<>();
            for (var c : request.rubric()) {
                boolean f = fail && c.id().equals("on-specification");
                checks.add(new Check(c.id(), f ? CheckResult.FAIL : CheckResult.PASS, f ? bad : "ok"));
            }
            Review review = new Review(fail ? Verdict.FAIL : Verdict.PASS, checks,
                    fail ? List.of("on-specification: the text carries " + bad) : List.of(), List.of());
            return new ReviewOutcome.Reviewed(review, Duration.ofMillis(1));
        }
    }
}
