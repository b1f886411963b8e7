package dev.santabatch.batch;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * SIGKILL of a job's second run, which carries outcomes over from the first (child processes,
 * scripted marker reviewers as in {@link LoopKillFunctionalTests}): killed in the pre-pass (where
 * outcomes are carried over) or in the review step, then rerun with the same run id. The resumed
 * run carries exactly what an uninterrupted second run carries, reviews none of the items it
 * carried NICE, stores no review twice and as many as the uninterrupted run, and ships the same
 * catalog; its covered stratum's sample is the same, drawn and counted as a look once.
 */
class CarryOverKillFunctionalTests {

    @TempDir
    Path dir;

    /** The second run's items, by what it carried: id and kind, in id order. */
    static final String CARRIED = "SELECT i.item_id || ':' || i.carry || ':' || i.carried_runs FROM sb_item i JOIN sb_run r"
            + " ON r.run_pk = i.run_pk WHERE r.run_id = 'n2' AND i.carry IS NOT NULL ORDER BY i.item_id";

    static final String REVIEWS = "SELECT COUNT(*) FROM sb_review v JOIN sb_run r ON r.run_pk = v.run_pk WHERE r.run_id = 'n2'";

    /** The second run's covered sample (item ids) and its draw (looks, size), as stored. */
    static final String COVERED_SAMPLE = "SELECT s.item_id FROM sb_sample s JOIN sb_run r ON r.run_pk = s.run_pk"
            + " WHERE r.run_id = 'n2' AND s.covered ORDER BY s.item_id";

    static final String DRAW = "SELECT s.round_no || ':' || s.looks || ':' || s.sample_size || ':' || s.items FROM sb_stratum s"
            + " JOIN sb_run r ON r.run_pk = s.run_pk WHERE r.run_id = 'n2'";

    @ParameterizedTest(name = "killed in {0}")
    @ValueSource(strings = {"pre-pass", "review"})
    void aSecondRunKilledMidStepCarriesOverOnceAndPaysNoReviewTwice(String step) throws Exception {
        Path job = LoopKillFunctionalTests.catalog(dir);
        Path reference = dir.resolve("reference");
        Path killed = dir.resolve("killed");
        for (Path store : List.of(reference, killed)) {
            Files.createDirectories(store);
            Process first = child(store, job, "n1", 0, 0);
            assertThat(first.waitFor(180, TimeUnit.SECONDS)).isTrue();
            assertThat(first.exitValue()).as(LoopKillFunctionalTests.log(store)).isZero();
        }
        Process ref = child(reference, job, "n2", 0, 0);
        assertThat(ref.waitFor(180, TimeUnit.SECONDS)).isTrue();
        assertThat(ref.exitValue()).as(LoopKillFunctionalTests.log(reference)).isZero();
        List<String> carried = LoopKillFunctionalTests.strings(reference, CARRIED);
        assertThat(carried).as("the uninterrupted second run carries outcomes over").hasSize(400);
        List<String> coveredSample = LoopKillFunctionalTests.strings(reference, COVERED_SAMPLE);
        assertThat(coveredSample).as("the uninterrupted second run samples its covered stratum").isNotEmpty();

        // when the second run is killed with some but not all of the step's work stored
        boolean prePass = step.equals("pre-pass");
        Process p = child(killed, job, "n2", prePass ? 0 : 150, prePass ? 400 : 0);
        String doneSql = prePass
                ? "SELECT COUNT(*) FROM sb_item i JOIN sb_run r ON r.run_pk = i.run_pk WHERE r.run_id = 'n2' AND i.carry IS NOT NULL"
                : "SELECT COUNT(*) FROM sb_sample s JOIN sb_run r ON r.run_pk = s.run_pk WHERE r.run_id = 'n2'"
                        + " AND s.outcome IS NOT NULL";
        String totalSql = prePass ? "SELECT 400"
                : "SELECT COUNT(*) FROM sb_sample s JOIN sb_run r ON r.run_pk = s.run_pk WHERE r.run_id = 'n2'";
        long done = -1;
        long total = -1;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (System.nanoTime() < deadline && p.isAlive()) {
            if (!LoopKillFunctionalTests.log(killed).contains("starting run 'n2'")) {
                // the store exists (the first run's): a connection from here before the child opened it
                // would race the child for its file
                Thread.sleep(20);
                continue;
            }
            try {
                total = LoopKillFunctionalTests.query(killed, totalSql);
                done = LoopKillFunctionalTests.query(killed, doneSql);
                if (done > 0 && done < total && LoopKillFunctionalTests.running(killed, step)) {
                    break;
                }
            } catch (java.sql.SQLException notYet) {
                // rows not there yet
            }
            Thread.sleep(20);
        }
        p.destroyForcibly();
        p.waitFor(30, TimeUnit.SECONDS);
        long atKill = LoopKillFunctionalTests.query(killed, doneSql);
        assertThat(atKill).as("killed in %s with some but not all of its work stored (%s of %s); log:%n%s", step, done, total,
                LoopKillFunctionalTests.log(killed)).isGreaterThan(0).isLessThan(total);

        Process again = child(killed, job, "n2", 0, 0);
        assertThat(again.waitFor(180, TimeUnit.SECONDS)).isTrue();
        assertThat(again.exitValue()).as(LoopKillFunctionalTests.log(killed)).isZero();

        // then it carried what the uninterrupted run carried, and paid for no review twice
        assertThat(LoopKillFunctionalTests.log(killed)).contains("resuming run 'n2'");
        assertThat(LoopKillFunctionalTests.strings(killed, CARRIED)).isEqualTo(carried);
        assertThat(LoopKillFunctionalTests.query(killed, "SELECT COUNT(*) FROM sb_review v JOIN sb_item i"
                + " ON i.run_pk = v.run_pk AND i.item_id = v.item_id JOIN sb_run r ON r.run_pk = v.run_pk"
                + " WHERE r.run_id = 'n2' AND i.carry IN ('nice', 'held')")).as("reviews of items carried NICE or held").isZero();
        assertThat(LoopKillFunctionalTests.query(killed, "SELECT COUNT(*) FROM (SELECT v.item_id, v.rev, v.iteration, v.reviewer"
                + " FROM sb_review v JOIN sb_run r ON r.run_pk = v.run_pk WHERE r.run_id = 'n2'"
                + " GROUP BY v.item_id, v.rev, v.iteration, v.reviewer HAVING COUNT(*) > 1) d")).isZero();
        assertThat(LoopKillFunctionalTests.query(killed, REVIEWS)).isEqualTo(LoopKillFunctionalTests.query(reference, REVIEWS));
        // the covered stratum drawn once: the same sample, counted as one look
        assertThat(LoopKillFunctionalTests.strings(killed, COVERED_SAMPLE)).isEqualTo(coveredSample);
        assertThat(LoopKillFunctionalTests.strings(killed, DRAW)).isEqualTo(LoopKillFunctionalTests.strings(reference, DRAW))
                .singleElement().asString().startsWith("1:1:");
        assertThat(Files.readString(killed.resolve("out/loop/n2/catalog.csv")))
                .isEqualTo(Files.readString(reference.resolve("out/loop/n2/catalog.csv")));
    }

    /** {@link LoopKillFunctionalTests#child}, with chunk steps slowed by {@code chunkDelay} ms a chunk too. */
    static Process child(Path dir, Path job, String runId, long reviewDelay, long chunkDelay) throws Exception {
        List<String> cmd = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m", "-cp",
                System.getProperty("java.class.path"), "-Dsanta.test.review-delay-ms=" + reviewDelay,
                "-Dsanta.test.chunk-delay-ms=" + chunkDelay,
                "dev.santabatch.batch.ScriptedMain", job.toString(), dir.resolve("out").toString(), runId,
                LoopKillFunctionalTests.url(dir));
        return new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("child.log").toFile())).start();
    }
}
