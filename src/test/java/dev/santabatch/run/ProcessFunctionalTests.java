package dev.santabatch.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs in child processes: SIGTERM, SIGKILL, a concurrent second run and {@code status} during a
 * live run. The child is slowed at chunk boundaries (a test hook) so the signal lands mid-ingest;
 * each test asserts that it did.
 */
class ProcessFunctionalTests {

    static final int ROWS = 200;
    static final String ITEMS = "SELECT COUNT(*) FROM sb_item";

    @TempDir
    Path dir;

    @Test
    void sigtermStopsAtAChunkBoundaryAndTheSameRunIdCompletesIt() throws Exception {
        Path job = TestJobs.writeJob(dir, "term", TestJobs.writeCatalog(dir.resolve("in.csv"), TestJobs.rows(ROWS)), 10);
        ChildRun child = ChildRun.start(dir, 150, "run", job.toString(), "--run-id", "t1");
        long seen = ChildRun.pollUntil(dir, ITEMS, n -> n > 0, 60, child.process);
        assertThat(seen).isLessThan(ROWS);

        child.process.destroy(); // SIGTERM
        int exit = child.await(60);

        assertThat(exit).as(child.output()).isEqualTo(1);
        assertThat(ChildRun.queryString(dir, "SELECT STATUS FROM BATCH_JOB_EXECUTION ORDER BY JOB_EXECUTION_ID DESC"))
                .isEqualTo("STOPPED");
        long stoppedAt = ChildRun.queryLong(dir, ITEMS);
        assertThat(stoppedAt).isGreaterThan(0).isLessThan(ROWS);
        // a stopped run is not publishable: report.json says failed (stopped), and there is no catalog
        java.util.Map<String, Object> report = dev.santabatch.export.RunReport.read(dir.resolve("out/term/t1/report.json"));
        assertThat(report.get("status")).isEqualTo("failed");
        assertThat(report.get("execution").toString()).contains("batch_status=STOPPED").contains("stopped by a signal");
        assertThat(dir.resolve("out/term/t1/catalog.csv")).doesNotExist();
        assertThat(child.output()).contains("status:   FAILED");

        ChildRun again = ChildRun.start(dir, 0, "run", job.toString(), "--run-id", "t1");
        assertThat(again.await(120)).as(again.output()).isEqualTo(0);
        assertThat(again.output()).contains("resuming run 't1'");
        assertCatalogHasEveryRowOnce(dir.resolve("out/term/t1/catalog.csv"));
    }

    @Test
    void aKilledRunIsRecoveredAndResumedWithNothingLostOrDuplicated() throws Exception {
        Path job = TestJobs.writeJob(dir, "kill", TestJobs.writeCatalog(dir.resolve("in.csv"), TestJobs.rows(ROWS)), 10);
        ChildRun child = ChildRun.start(dir, 150, "run", job.toString(), "--run-id", "k1");
        ChildRun.pollUntil(dir, ITEMS, n -> n >= 30, 60, child.process);

        child.process.destroyForcibly(); // SIGKILL
        child.await(30);
        long atKill = ChildRun.queryLong(dir, ITEMS);
        assertThat(atKill).as("store holds some but not all rows when killed").isGreaterThan(0).isLessThan(ROWS);
        assertThat(ChildRun.queryString(dir, "SELECT STATUS FROM BATCH_JOB_EXECUTION ORDER BY JOB_EXECUTION_ID DESC"))
                .isEqualTo("STARTED");

        ChildRun again = ChildRun.start(dir, 0, "run", job.toString(), "--run-id", "k1");
        assertThat(again.await(120)).as(again.output()).isEqualTo(0);
        assertThat(again.output()).contains("is gone").contains("resuming run 'k1'");
        assertThat(ChildRun.queryLong(dir, ITEMS)).isEqualTo(ROWS);
        assertThat(ChildRun.queryLong(dir, "SELECT COUNT(*) FROM sb_reject")).isZero();
        assertCatalogHasEveryRowOnce(dir.resolve("out/kill/k1/catalog.csv"));
    }

    @Test
    void aSecondConcurrentRunIsRefusedAndStatusReadsTheLiveStore() throws Exception {
        Path job = TestJobs.writeJob(dir, "live", TestJobs.writeCatalog(dir.resolve("in.csv"), TestJobs.rows(ROWS)), 10);
        Files.createFile(ChildRun.holdFile(dir)); // the first run stays in its review step until released
        ChildRun child = ChildRun.start(dir, 0, "run", job.toString(), "--run-id", "l1");
        ChildRun.pollUntil(dir, ITEMS, n -> n == ROWS, 60, child.process);

        ChildRun second = ChildRun.start(dir, 0, "run", job.toString(), "--run-id", "l1");
        int secondExit = second.await(60);
        ChildRun status = ChildRun.start(dir, 0, "status");
        int statusExit = status.await(60);
        // the refusal and the STARTED status below are what show the first run was live for both
        assertThat(secondExit).as(second.output()).isEqualTo(2);
        assertThat(second.output()).contains("is live in another process");
        assertThat(statusExit).as(status.output()).isEqualTo(0);
        assertThat(status.output()).contains("l1").contains("STARTED");
        Files.delete(ChildRun.holdFile(dir));
        assertThat(child.await(120)).as(child.output()).isEqualTo(0);
        assertCatalogHasEveryRowOnce(dir.resolve("out/live/l1/catalog.csv"));
    }

    @Test
    void aSecondRunOfAJobWithALiveRunIsRefusedNamingTheLiveRun() throws Exception {
        // given a live run of a job
        Path job = TestJobs.writeJob(dir, "nightly", TestJobs.writeCatalog(dir.resolve("in.csv"), TestJobs.rows(ROWS)), 10);
        Files.createFile(ChildRun.holdFile(dir)); // it stays in its review step until released
        ChildRun child = ChildRun.start(dir, 0, "run", job.toString(), "--run-id", "night-1");
        ChildRun.pollUntil(dir, ITEMS, n -> n == ROWS, 60, child.process);

        // when another run of the same job starts, under another run id
        ChildRun second = ChildRun.start(dir, 0, "run", job.toString(), "--run-id", "night-2");
        int secondExit = second.await(60);

        // then it is refused in one line naming the live run, which goes on to complete
        assertThat(secondExit).as(second.output()).isEqualTo(2);
        List<String> lines = second.output().lines().filter(l -> l.startsWith("santa-batch:")).toList();
        assertThat(lines).as(second.output()).singleElement().satisfies(l -> assertThat(l)
                .contains("job 'nightly' has a live run, 'night-1'").contains("refusing a second concurrent run"));
        // and leaves nothing: no run row, so no line in the job's history and no carry-over source
        assertThat(ChildRun.queryLong(dir, "SELECT COUNT(*) FROM sb_run WHERE run_id = 'night-2'")).isZero();
        ChildRun history = ChildRun.start(dir, 0, "history", job.toString());
        assertThat(history.await(60)).as(history.output()).isZero();
        assertThat(history.output()).contains("night-1").doesNotContain("night-2");
        Files.delete(ChildRun.holdFile(dir));
        assertThat(child.await(120)).as(child.output()).isEqualTo(0);
        assertCatalogHasEveryRowOnce(dir.resolve("out/nightly/night-1/catalog.csv"));

        // and once it has ended, the next run of the job runs
        ChildRun third = ChildRun.start(dir, 0, "run", job.toString(), "--run-id", "night-2");
        assertThat(third.await(120)).as(third.output()).isEqualTo(0);
    }

    @Test
    void aStoreLockedByAnotherProcessIsOneErrorLineWithExit2() throws Exception {
        // given the H2 file held open by another process that did not open it with AUTO_SERVER
        // (here this test's JVM: an embedded connection takes the file lock for itself)
        Path job = TestJobs.writeJob(dir, "locked", TestJobs.writeCatalog(dir.resolve("in.csv"), TestJobs.rows(5)), 10);
        String db = dir.toAbsolutePath().resolve("db/santa").toString();
        try (java.sql.Connection holder = java.sql.DriverManager.getConnection("jdbc:h2:file:" + db, "sa", "")) {
            // when a run starts on it
            ChildRun child = ChildRun.start(dir, 0, "run", job.toString(), "--run-id", "x1");
            int exit = child.await(120);

            // then one ERROR line names the database and the likely cause, without a stack trace
            String output = child.output();
            assertThat(exit).as(output).isEqualTo(2);
            assertThat(output).as(output).doesNotContain("\tat ").doesNotContain("Exception in thread");
            List<String> errors = output.lines().filter(l -> l.contains("ERROR") || l.startsWith("santa-batch:")).toList();
            assertThat(errors).as(output).hasSize(1);
            assertThat(errors.get(0)).contains(db).contains("in use by another process").contains("status");
            assertThat(holder.isValid(5)).isTrue();
        }
    }

    private static void assertCatalogHasEveryRowOnce(Path catalog) throws Exception {
        List<List<String>> rows = TestJobs.readCsv(catalog);
        assertThat(rows).hasSize(ROWS + 1);
        Set<String> ids = new HashSet<>();
        for (List<String> r : rows.subList(1, rows.size())) {
            assertThat(ids.add(r.get(0))).as("id %s once", r.get(0)).isTrue();
        }
        assertThat(rows.subList(1, rows.size())).isEqualTo(TestJobs.rows(ROWS));
    }
}
