package dev.santabatch.batch;

import dev.santabatch.review.step.ReviewerType;
import static org.assertj.core.api.Assertions.assertThat;

import dev.santabatch.execution.StopSignal;
import dev.santabatch.review.FixOutcome;
import dev.santabatch.review.ReviewOutcome;
import dev.santabatch.review.ReviewRequest;
import dev.santabatch.review.Reviewer;
import dev.santabatch.run.Launcher;
import dev.santabatch.run.RunRequest;
import dev.santabatch.run.TestJobsAccess;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A stop (SIGTERM) that lands after the batch-fix step COMPLETED and before the round's decision
 * is stored: the restart re-runs sample, review, classify and batch-fix (every loop step may run
 * again in a round), and the re-run batch-fix must not fix the already fixed items again (no second
 * revision, no doubled pattern counts). The fixer removes one marker per call, so the items carrying
 * two still show the pattern after their batch fix: a re-run that scanned them again would fix them
 * a second time in the same round.
 */
public class BatchFixRerunFunctionalTests {

    static final String MARKER = ScriptedLoopFunctionalTests.MARKER;

    @TempDir
    Path dir;

    @BeforeEach
    @AfterEach
    void reset() {
        StopSignal.reset();
    }

    /**
     * The marker reviewers, reviewer B running {@code onReview} with the item id on every call; the
     * fixer removes the marker.
     */
    public static Extensions extensions(java.util.function.Consumer<String> onReview) {
        String wording = "carries the shop-now boilerplate sentence";
        ReviewerType b = spec -> {
            Reviewer marker = new ScriptedLoopFunctionalTests.MarkerReviewer(spec, wording);
            return new Reviewer() {
                @Override
                public String id() {
                    return marker.id();
                }

                @Override
                public java.util.Set<String> criteria() {
                    return marker.criteria();
                }

                @Override
                public ReviewOutcome review(ReviewRequest request) {
                    onReview.accept(request.itemId());
                    return marker.review(request);
                }
            };
        };
        ReviewerType c = spec -> new ScriptedLoopFunctionalTests.MarkerReviewer(spec, wording);
        // one marker per fix: an item carrying it twice still fails review after one fix
        return new Extensions(Map.of("lexical", b, "semantic", c), request -> {
            String text = request.content();
            int at = text.indexOf(MARKER);
            return new FixOutcome.Fixed(at < 0 ? text : text.substring(0, at) + text.substring(at + MARKER.length()));
        });
    }

    public Path job(Path where) throws Exception {
        Files.createDirectories(where);
        List<List<String>> rows = new ArrayList<>();
        for (List<String> r : TestJobsAccess.rows(410)) {
            List<String> row = new ArrayList<>(r);
            int n = Integer.parseInt(row.get(0).substring(1));
            if (n % 5 == 0) {
                row.set(7, row.get(7) + MARKER + (n % 10 == 0 ? MARKER : ""));
            }
            rows.add(row);
        }
        Path catalog = TestJobsAccess.writeCatalog(where.resolve("in.csv"), rows);
        Path job = TestJobsAccess.writeJob(where, "loop", catalog, 50);
        Files.writeString(job, Files.readString(job) + "sampling:\n  seed: 7\n");
        return job;
    }

    int run(Path where, Path job, String runId, Extensions ext, ByteArrayOutputStream out) {
        return Extensions.run(new RunRequest(job, null, where.resolve("out"), runId, null), TestJobsAccess.h2(where),
                new PrintStream(out, true, StandardCharsets.UTF_8), System.err, ext);
    }

    @Test
    void aBatchFixStepRerunAfterItCompletedFixesNothingTwice() throws Exception {
        // given an uninterrupted reference run
        Path ref = dir.resolve("ref");
        ByteArrayOutputStream refOut = new ByteArrayOutputStream();
        assertThat(run(ref, job(ref), "r1", extensions(id -> {}), refOut)).as(refOut.toString(StandardCharsets.UTF_8)).isZero();
        // the last item round 1's batch-fix scans (in catalog order, skipping the round's sample): it
        // is reviewed in the step's last chunk, and in no other step of round 1
        assertThat(strings(ref, "SELECT COUNT(*) FROM sb_revision WHERE cause = 'batch-fix' AND round_no = 1"
                        + " AND content LIKE '%" + MARKER.strip() + "%'").get(0))
                .as("round 1 batch-fixed items that still show the pattern").isNotEqualTo("0");
        String last = strings(ref, "SELECT item_id FROM sb_item WHERE item_id NOT IN"
                + " (SELECT item_id FROM sb_sample WHERE round_no = 1) ORDER BY record_index DESC").get(0);

        // when a second run of the same job is stopped (as by SIGTERM) while batch-fix reviews that
        // item: the step finishes its last chunk, COMPLETED, and decide stops the job
        Path stopped = dir.resolve("stopped");
        Path job = job(stopped);
        AtomicBoolean once = new AtomicBoolean();
        ByteArrayOutputStream out1 = new ByteArrayOutputStream();
        int first = run(stopped, job, "r1", extensions(id -> {
            if (id.equals(last) && once.compareAndSet(false, true)) {
                StopSignal.request("test SIGTERM");
            }
        }), out1);
        assertThat(once).as("the stop was requested in round 1's batch-fix").isTrue();
        assertThat(first).as(out1.toString(StandardCharsets.UTF_8)).isEqualTo(1);
        assertThat(strings(stopped, "SELECT status FROM BATCH_STEP_EXECUTION WHERE step_name = 'batch-fix'"))
                .as("batch-fix completed before the stop (reads, commits, exit: %s)", strings(stopped,
                        "SELECT read_count || ' ' || commit_count || ' ' || exit_message FROM BATCH_STEP_EXECUTION"
                                + " WHERE step_name = 'batch-fix'"))
                .containsExactly("COMPLETED");
        assertThat(strings(stopped, "SELECT status FROM BATCH_STEP_EXECUTION WHERE step_name = 'decide'"))
                .containsExactly("STOPPED");
        assertThat(strings(stopped, "SELECT COUNT(*) FROM sb_round WHERE decision IS NULL")).containsExactly("1");
        String revisions = "SELECT item_id || '#' || rev || '#' || round_no || '#' || cause || '#' || COALESCE(pattern, '')"
                + " || '#' || content FROM sb_revision ORDER BY item_id, rev";
        List<String> revisionsAtStop = strings(stopped, revisions);
        String batchFix = "SELECT COUNT(*) FROM sb_revision WHERE cause = 'batch-fix' AND round_no = 1";
        assertThat(strings(stopped, batchFix)).isEqualTo(strings(ref, batchFix));

        // and it is restarted with the same run id
        StopSignal.reset();
        ByteArrayOutputStream out2 = new ByteArrayOutputStream();
        int second = run(stopped, job, "r1", extensions(id -> {}), out2);

        // then the batch-fix step ran again in round 1 but wrote nothing twice: the same revisions,
        // pattern counts, changes and catalog as the uninterrupted run
        String output = out2.toString(StandardCharsets.UTF_8);
        assertThat(second).as(output).isZero();
        assertThat(output).contains("resuming run 'r1'");
        List<String> after = strings(stopped, revisions);
        assertThat(after).containsAll(revisionsAtStop);
        assertThat(after).isEqualTo(strings(ref, revisions));
        String patterns = "SELECT round_no || ':' || pattern_no || ':' || matched || '/' || fixed || '/' || escalated"
                + " FROM sb_pattern ORDER BY round_no, pattern_no";
        assertThat(strings(stopped, patterns)).as("pattern counts").isEqualTo(strings(ref, patterns));
        assertThat(strings(stopped, "SELECT item_id FROM sb_escalation ORDER BY item_id"))
                .isEqualTo(strings(ref, "SELECT item_id FROM sb_escalation ORDER BY item_id"));
        String batchFixRuns = "SELECT COUNT(*) FROM BATCH_STEP_EXECUTION WHERE step_name = 'batch-fix'";
        assertThat(Long.parseLong(strings(stopped, batchFixRuns).get(0)))
                .as("batch-fix ran twice in round 1, then once a round as in the reference")
                .isEqualTo(Long.parseLong(strings(ref, batchFixRuns).get(0)) + 1);
        for (String file : List.of("catalog.csv", "changes.csv", "escalations.csv")) {
            assertThat(Files.readString(stopped.resolve("out/loop/r1/" + file))).as(file)
                    .isEqualTo(Files.readString(ref.resolve("out/loop/r1/" + file)));
        }
    }

    static List<String> strings(Path where, String sql) throws Exception {
        List<String> out = new ArrayList<>();
        try (Connection c = DriverManager.getConnection(
                        "jdbc:h2:file:" + where.toAbsolutePath().resolve("db/santa") + ";AUTO_SERVER=TRUE;IFEXISTS=TRUE", "sa", "");
                ResultSet rs = c.createStatement().executeQuery(sql)) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        }
        return out;
    }
}
