package dev.santabatch.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.santabatch.execution.StopSignal;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The whole job in this JVM, through the command line, against an H2 file store in a temp folder. */
public class RunFunctionalTests {

    @TempDir
    Path dir;

    public record Result(int exit, String out, String err) {}

    @BeforeEach
    void resetStop() {
        StopSignal.reset();
    }

    Result cli(String... args) {
        return cli(TestJobs.h2(dir), args);
    }

    /** The command line, with reviewers that pass everything (what they say is not tested here). */
    public static Result cli(Map<String, Object> props, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = PassAll.run(props, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), args);
        return new Result(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void aGroundTruthIsUsedOnlyForTheCatalogItDescribes() throws Exception {
        // given a job whose input.path has a ground truth, and another catalog with the same ids
        List<List<String>> rows = TestJobs.rows(60);
        Path catalog = TestJobs.writeCatalog(dir.resolve("in.csv"), rows);
        Path other = TestJobs.writeCatalog(dir.resolve("other.csv"), rows);
        Path truth = dir.resolve("truth.csv");
        Files.writeString(truth, "id,kind,detail,wrong,truth,group\n" + rows.get(0).get(0) + ",boilerplate,x,,,\n");
        Path job = TestJobs.writeJob(dir, "truth", catalog, 7);
        Files.writeString(job, Files.readString(job).replace("  category-column: category\n",
                "  category-column: category\n  ground-truth: " + truth.toAbsolutePath() + "\n"));

        // when it runs on its own input, and then on --input another catalog
        Result own = cli("run", job.toString(), "--out", dir.resolve("out").toString(), "--run-id", "own");
        Result over = cli("run", job.toString(), "--input", other.toString(), "--out", dir.resolve("out").toString(),
                "--run-id", "over");

        // then only the first is scored against the ground truth; the second says why not
        assertThat(own.exit()).as(own.out() + own.err()).isEqualTo(0);
        assertThat(Files.readString(dir.resolve("out/truth/own/report.json"))).contains("escape_rates_against_ground_truth");
        assertThat(own.err()).doesNotContain("input.ground-truth");
        assertThat(over.exit()).as(over.out() + over.err()).isEqualTo(0);
        assertThat(over.err()).contains("warning: input.ground-truth").contains("describes input.path, not " + other.toAbsolutePath());
        String report = Files.readString(dir.resolve("out/truth/over/report.json"));
        assertThat(report).doesNotContain("escape_rates_against_ground_truth").contains("describes input.path");
    }

    @Test
    void unchangedItemsRoundTripWithIdenticalFieldValues() throws Exception {
        // given a catalog whose values need quoting (commas, quotes, newlines, non-ASCII, spaces)
        List<List<String>> rows = TestJobs.rows(60);
        Path catalog = TestJobs.writeCatalog(dir.resolve("in.csv"), rows);
        Path job = TestJobs.writeJob(dir, "roundtrip", catalog, 7);

        // when it runs
        Result r = cli("run", job.toString(), "--out", dir.resolve("out").toString(), "--run-id", "r1");

        // then it completes and every field value comes out identical, in the input's order
        assertThat(r.exit()).as(r.out() + r.err()).isEqualTo(0);
        List<List<String>> written = TestJobs.readCsv(dir.resolve("out/roundtrip/r1/catalog.csv"));
        assertThat(written.get(0)).isEqualTo(TestJobs.HEADER);
        assertThat(written.subList(1, written.size())).isEqualTo(rows);
        assertThat(r.out()).contains("60 records: 60 items, 0 rejected");
    }

    @Test
    void rejectsAreReportedWithLineAndReasonAndTheRestIsKept() throws Exception {
        // given rows with a duplicate id, an empty id, an empty content and a short row
        List<List<String>> rows = new ArrayList<>(TestJobs.rows(10));
        List<String> dup = new ArrayList<>(rows.get(2));
        rows.add(dup); // line 12: duplicate of T0003 (line 4)
        List<String> noId = new ArrayList<>(rows.get(0));
        noId.set(0, "");
        rows.add(noId); // line 13
        List<String> noContent = new ArrayList<>(rows.get(1));
        noContent.set(0, "T9999");
        noContent.set(7, "  ");
        rows.add(noContent); // line 14
        Path catalog = TestJobs.writeCatalog(dir.resolve("in.csv"), rows.stream().map(TestJobs::oneLine).toList());
        Files.writeString(catalog, "T7777,short,row\n", java.nio.file.StandardOpenOption.APPEND); // line 15
        Path job = TestJobs.writeJob(dir, "rejects", catalog, 4);

        Result r = cli("run", job.toString(), "--out", dir.resolve("out").toString(), "--run-id", "r1");

        assertThat(r.exit()).as(r.out() + r.err()).isEqualTo(0);
        List<List<String>> rejects = TestJobs.readCsv(dir.resolve("out/rejects/r1/rejects.csv"));
        assertThat(rejects).hasSize(5);
        assertThat(rejects.get(1).subList(0, 3)).containsExactly("12", "12", "duplicate id 'T0003' (first seen on line 4)");
        assertThat(rejects.get(2).get(0)).isEqualTo("13");
        assertThat(rejects.get(2).get(2)).containsIgnoringCase("id");
        assertThat(rejects.get(3).get(0)).isEqualTo("14");
        assertThat(rejects.get(3).get(2)).containsIgnoringCase("content");
        assertThat(rejects.get(4).get(0)).isEqualTo("15");
        assertThat(rejects.get(4).get(2)).contains("expected 8 fields, found 3");
        assertThat(TestJobs.readCsv(dir.resolve("out/rejects/r1/catalog.csv"))).hasSize(11);
        assertThat(r.out()).contains("14 records: 10 items, 4 rejected".replace("14", "14"));
    }

    @Test
    void aCompletedRunIdIsRefusedWithAHint() throws Exception {
        Path catalog = TestJobs.writeCatalog(dir.resolve("in.csv"), TestJobs.rows(12));
        Path job = TestJobs.writeJob(dir, "twice", catalog, 5);
        assertThat(cli("run", job.toString(), "--out", dir.resolve("out").toString(), "--run-id", "nightly").exit())
                .isEqualTo(0);

        Result again = cli("run", job.toString(), "--out", dir.resolve("out").toString(), "--run-id", "nightly");

        assertThat(again.exit()).isEqualTo(2);
        assertThat(again.err()).contains("already COMPLETED").contains("new --run-id");
    }

    @Test
    void plainRunsGetAFreshRunIdEachTime() throws Exception {
        Path catalog = TestJobs.writeCatalog(dir.resolve("in.csv"), TestJobs.rows(8));
        Path job = TestJobs.writeJob(dir, "fresh", catalog, 5);
        assertThat(cli("run", job.toString(), "--out", dir.resolve("out").toString()).exit()).isEqualTo(0);
        assertThat(cli("run", job.toString(), "--out", dir.resolve("out").toString()).exit()).isEqualTo(0);
        try (var runs = Files.list(dir.resolve("out/fresh"))) {
            assertThat(runs.count()).isEqualTo(2);
        }
    }

    @Test
    void anInvalidJobFileStopsBeforeAnyWorkNamingTheKey() throws Exception {
        Path catalog = TestJobs.writeCatalog(dir.resolve("in.csv"), TestJobs.rows(3));
        Path job = TestJobs.writeJob(dir, "bad", catalog, 5);
        Files.writeString(job, Files.readString(job).replace("chunk-size: 5", "chunk-size: lots"));

        Result r = cli("run", job.toString(), "--out", dir.resolve("out").toString());

        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains(job.toString()).contains("run.chunk-size");
        assertThat(dir.resolve("out")).doesNotExist();
    }

    @Test
    void aMissingInputColumnIsAUsageError() throws Exception {
        Path catalog = dir.resolve("in.csv");
        Files.writeString(catalog, "id,name,description\nA,b,c\n");
        Path job = TestJobs.writeJob(dir, "cols", catalog, 5);

        Result r = cli("run", job.toString(), "--out", dir.resolve("out").toString());

        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("category");
    }

    @Test
    void statusListsExecutions() throws Exception {
        Path catalog = TestJobs.writeCatalog(dir.resolve("in.csv"), TestJobs.rows(5));
        Path job = TestJobs.writeJob(dir, "listed", catalog, 5);
        cli("run", job.toString(), "--out", dir.resolve("out").toString(), "--run-id", "seen-1");

        Result r = cli("status");

        assertThat(r.exit()).isEqualTo(0);
        assertThat(r.out()).contains("listed").contains("seen-1").contains("COMPLETED");
    }

    @Test
    void statusShowsARunWhoseHeartbeatStoppedAsDead() throws Exception {
        // given two runs stored as STARTED: one whose lock holder's heartbeat stopped long ago (the
        // process was killed), one whose holder beats (another host, a fresh heartbeat)
        Path catalog = TestJobs.writeCatalog(dir.resolve("in.csv"), TestJobs.rows(5));
        Path job = TestJobs.writeJob(dir, "listed", catalog, 5);
        cli("run", job.toString(), "--out", dir.resolve("out").toString(), "--run-id", "killed-1");
        cli("run", job.toString(), "--out", dir.resolve("out").toString(), "--run-id", "live-1");
        try (java.sql.Connection c = java.sql.DriverManager.getConnection(TestJobs.h2Url(dir), "sa", "");
                java.sql.Statement st = c.createStatement()) {
            st.executeUpdate("UPDATE BATCH_JOB_EXECUTION SET STATUS = 'STARTED', END_TIME = NULL");
            st.executeUpdate("UPDATE sb_run SET lock_owner = '1@elsewhere#gone', heartbeat_at = TIMESTAMP '2020-01-02 03:04:05'"
                    + " WHERE run_id = 'killed-1'");
            st.executeUpdate("UPDATE sb_run SET lock_owner = '1@elsewhere#live', heartbeat_at = CURRENT_TIMESTAMP WHERE run_id = 'live-1'");
        }

        // when the executions are listed
        Result r = cli("status");

        // then the killed one is DEAD with its last heartbeat, the live one STARTED
        assertThat(r.exit()).isEqualTo(0);
        String killed = r.out().lines().filter(l -> l.contains("killed-1")).findFirst().orElseThrow();
        String live = r.out().lines().filter(l -> l.contains("live-1")).findFirst().orElseThrow();
        assertThat(killed).contains("DEAD (last heartbeat 2020-01-02 03:04:05)");
        assertThat(live).contains("STARTED").doesNotContain("DEAD");
    }
}
