package dev.santabatch.batch;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * SIGKILL in the review step and in the batch-fix step (child processes, scripted reviewers slowed
 * per review): the rerun with the same run id resumes, reuses the round's sample, stores no review
 * twice, and ends with the same catalog as an uninterrupted run with the same seed.
 */
class LoopKillFunctionalTests {

    @TempDir
    Path dir;

    @ParameterizedTest(name = "killed in {0}")
    @CsvSource({
        "review,    SELECT COUNT(*) FROM sb_sample WHERE outcome IS NOT NULL AND round_no = (SELECT MAX(round_no) FROM sb_round),"
                + " SELECT COUNT(*) FROM sb_sample WHERE round_no = (SELECT MAX(round_no) FROM sb_round)",
        "batch-fix, SELECT COUNT(*) FROM sb_revision WHERE cause = 'batch-fix' AND round_no = (SELECT MAX(round_no) FROM sb_round), reference"
    })
    void aRunKilledMidStepResumesToTheSameCatalog(String step, String doneSql, String totalSql) throws Exception {
        Path job = catalog(dir);
        Path reference = dir.resolve("reference");
        Files.createDirectories(reference);
        Process ref = child(reference, job, "ref", 0);
        assertThat(ref.waitFor(180, TimeUnit.SECONDS)).isTrue();
        assertThat(ref.exitValue()).as(log(reference)).isZero();

        Path killed = dir.resolve("killed");
        Files.createDirectories(killed);
        Process p = child(killed, job, "k1", 40);
        long total = -1;
        long done = -1;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (System.nanoTime() < deadline && p.isAlive()) {
            try {
                // both counts are of the round under way: an earlier round's work would make "some stored" true too early
                total = totalSql.equals("reference")
                        ? query(reference, "SELECT COUNT(*) FROM sb_revision WHERE cause = 'batch-fix' AND round_no = "
                                + query(killed, "SELECT MAX(round_no) FROM sb_round"))
                        : query(killed, totalSql);
                done = query(killed, doneSql);
                if (done > 0 && done < total && running(killed, step)) {
                    break;
                }
            } catch (java.sql.SQLException notYet) {
                // schema or rows not there yet
            }
            Thread.sleep(20);
        }
        p.destroyForcibly();
        p.waitFor(30, TimeUnit.SECONDS);
        long atKill = query(killed, doneSql);
        assertThat(atKill).as("killed in %s with some but not all of its work stored", step).isGreaterThan(0).isLessThan(total);
        List<String> sampleBefore = strings(killed, "SELECT item_id FROM sb_sample WHERE round_no = 1 ORDER BY seq");
        List<String> roundBefore = strings(killed, "SELECT CAST(created_at AS VARCHAR) FROM sb_round WHERE round_no = 1");

        Process again = child(killed, job, "k1", 0);
        assertThat(again.waitFor(180, TimeUnit.SECONDS)).isTrue();
        assertThat(again.exitValue()).as(log(killed)).isZero();
        assertThat(log(killed)).contains("resuming run 'k1'");
        assertThat(strings(killed, "SELECT item_id FROM sb_sample WHERE round_no = 1 ORDER BY seq")).isEqualTo(sampleBefore);
        assertThat(strings(killed, "SELECT CAST(created_at AS VARCHAR) FROM sb_round WHERE round_no = 1"))
                .as("round 1 was drawn once, before the kill").isEqualTo(roundBefore);
        String patterns = "SELECT pattern_no || ':' || matched || '/' || fixed || '/' || escalated FROM sb_pattern ORDER BY round_no, pattern_no";
        assertThat(strings(killed, patterns)).as("pattern counts").isEqualTo(strings(reference, patterns));
        assertThat(query(killed, "SELECT COUNT(*) FROM (SELECT item_id, rev, iteration, reviewer FROM sb_review"
                + " GROUP BY item_id, rev, iteration, reviewer HAVING COUNT(*) > 1) d")).isZero();
        assertThat(Files.readString(killed.resolve("out/loop/k1/catalog.csv")))
                .isEqualTo(Files.readString(reference.resolve("out/loop/ref/catalog.csv")));
    }

    static Path catalog(Path dir) throws Exception {
        List<List<String>> rows = new ArrayList<>();
        for (List<String> r : dev.santabatch.run.TestJobsAccess.rows(400)) {
            List<String> row = new ArrayList<>(r);
            if (Integer.parseInt(row.get(0).substring(1)) % 5 == 0) {
                row.set(7, row.get(7) + ScriptedLoopFunctionalTests.MARKER);
            }
            rows.add(row);
        }
        Path catalog = dev.santabatch.run.TestJobsAccess.writeCatalog(dir.resolve("in.csv"), rows);
        Path job = dev.santabatch.run.TestJobsAccess.writeJob(dir, "loop", catalog, 50);
        Files.writeString(job, Files.readString(job).replace("chunk-size: 50", "chunk-size: 50\n  concurrency: 2")
                + "sampling:\n  seed: 7\n");
        return job;
    }

    static Process child(Path dir, Path job, String runId, long delay) throws Exception {
        List<String> cmd = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m", "-cp",
                System.getProperty("java.class.path"), "-Dsanta.test.review-delay-ms=" + delay,
                "dev.santabatch.batch.ScriptedMain", job.toString(), dir.resolve("out").toString(), runId, url(dir));
        return new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("child.log").toFile())).start();
    }

    static String url(Path dir) {
        return "jdbc:h2:file:" + dir.resolve("db/santa") + ";AUTO_SERVER=TRUE;WRITE_DELAY=0";
    }

    static String log(Path dir) {
        try {
            return Files.readString(dir.resolve("child.log"));
        } catch (Exception e) {
            return "";
        }
    }

    static boolean running(Path dir, String step) throws Exception {
        return query(dir, "SELECT COUNT(*) FROM BATCH_STEP_EXECUTION WHERE STEP_NAME = '" + step + "' AND STATUS = 'STARTED'") > 0;
    }

    static long query(Path dir, String sql) throws Exception {
        if (!Files.exists(dir.resolve("db/santa.mv.db"))) {
            throw new java.sql.SQLException("no database yet");
        }
        try (Connection c = DriverManager.getConnection(url(dir) + ";IFEXISTS=TRUE", "sa", "");
                ResultSet rs = c.createStatement().executeQuery(sql)) {
            return rs.next() ? rs.getLong(1) : -1;
        }
    }

    static List<String> strings(Path dir, String sql) throws Exception {
        List<String> out = new ArrayList<>();
        try (Connection c = DriverManager.getConnection(url(dir) + ";IFEXISTS=TRUE", "sa", "");
                ResultSet rs = c.createStatement().executeQuery(sql)) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        }
        return out;
    }
}
