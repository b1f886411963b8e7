package dev.santabatch.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import dev.santabatch.execution.RunContext;
import dev.santabatch.config.JobDefinition;
import dev.santabatch.config.JobFileLoader;
import dev.santabatch.export.RunReport;
import dev.santabatch.persistence.Store;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/** The last resort's parts that must work when the store does not: the report, the heartbeat. */
class LastResortTests {

    @TempDir
    Path dir;

    /** A store whose connection is gone: every statement fails. */
    private Store deadStore() {
        return new Store(new DriverManagerDataSource("jdbc:h2:file:" + dir.resolve("gone/santa") + ";IFEXISTS=TRUE", "sa", ""));
    }

    @Test
    void anErrorWhenTheStoreIsDeadStillWritesItsCauseToReportJson() throws Exception {
        // given a run whose store no longer answers
        JobDefinition job = JobFileLoader.load(Path.of("jobs/product-descriptions.yml"));
        Path out = dir.resolve("out");
        RunContext run = new RunContext(job, "r1", 1, dir.resolve("in.csv"), out, 1L, List.of(), List.of());
        ByteArrayOutputStream err = new ByteArrayOutputStream();

        // when an error ends it
        int exit = Launcher.lastResort(deadStore(), run, null, new OutOfMemoryError("simulated: Java heap space"),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), new RunMetrics());

        // then report.json says failed, with the cause and why the counts are missing
        assertThat(exit).isEqualTo(1);
        Map<String, Object> report = RunReport.read(out.resolve("report.json"));
        assertThat(report.get("status")).isEqualTo("failed");
        assertThat(report.get("failures").toString()).contains("OutOfMemoryError", "simulated");
        assertThat(report.get("restart").toString()).contains("--run-id r1");
        assertThat(((Map<?, ?>) report.get("store")).get("readable")).isEqualTo(false);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("simulated").doesNotContain("could not write");
    }

    @Test
    void aFailedRunsReportReplacesAnEarlierExportWholeAndAWriteThatFailsLeavesItAsItWas() throws Exception {
        // given the outputs of an earlier not-clean export of the run
        Path out = dir.resolve("out/job/r1");
        java.nio.file.Files.createDirectories(out);
        java.nio.file.Files.writeString(out.resolve("verified.csv"), "id\nA\n");
        java.nio.file.Files.writeString(out.resolve("unverified.csv"), "id\nB\n");
        java.nio.file.Files.writeString(out.resolve("report.json"), "{\"status\": \"not-clean\"}");

        // when a failed run's report cannot be written (a map with a null key cannot be serialized: as a full disk would)
        var unwritable = new dev.santabatch.export.FailedReport("failed", "job", "r1", null, List.of(), null, null, null,
                null, new dev.santabatch.export.FailedReport.Run(new dev.santabatch.export.SpendReport.ModelCalls(
                        new dev.santabatch.export.SpendReport.Calls(null, 0, 0, 0, 0, 0, 0, 0, 0,
                                java.util.Collections.singletonMap(null, 1L), null), List.of(), null, "")), null);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Launcher.writeFailedReport(out, unwritable, java.util.List.of()))
                .isInstanceOf(java.io.IOException.class);

        // then the earlier export is as it was, its report with it: not a mix of the two
        try (var files = java.nio.file.Files.list(out)) {
            assertThat(files.map(p -> p.getFileName().toString()).sorted().toList())
                    .containsExactly("report.json", "unverified.csv", "verified.csv");
        }
        assertThat(java.nio.file.Files.readString(out.resolve("report.json"))).contains("not-clean");

        // and when it can be written, it replaces the whole folder: the report (json and html) alone, nothing left beside it
        Launcher.writeFailedReport(out, new dev.santabatch.export.FailedReport("failed", "job", "r1", null, List.of(), null,
                null, null, null, null, null), java.util.List.of());
        try (var files = java.nio.file.Files.list(out)) {
            assertThat(files.map(p -> p.getFileName().toString()).sorted().toList()).containsExactly("report.html", "report.json");
        }
        assertThat(RunReport.read(out.resolve("report.json")).get("status")).isEqualTo("failed");
        try (var siblings = java.nio.file.Files.list(out.getParent())) {
            assertThat(siblings.map(p -> p.getFileName().toString()).toList()).containsExactly("r1");
        }
    }

    @Test
    void anErrorInTheHeartbeatIsCaughtSoTheNextBeatRuns() {
        // given a store whose first heartbeat throws an Error
        AtomicInteger beats = new AtomicInteger();
        Store store = new Store(new DriverManagerDataSource("jdbc:h2:mem:unused")) {
            @Override
            public boolean heartbeat(long runPk, String owner) {
                if (beats.incrementAndGet() == 1) {
                    throw new StackOverflowError("simulated");
                }
                return true;
            }
        };
        Runnable beat = Launcher.heartbeat(store, 1, "me");

        // when it beats twice, then nothing escapes the task (a scheduled task that throws is never run again)
        assertThatCode(beat::run).doesNotThrowAnyException();
        assertThatCode(beat::run).doesNotThrowAnyException();
        assertThat(beats).hasValue(2);
    }
}
