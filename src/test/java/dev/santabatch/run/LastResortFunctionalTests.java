package dev.santabatch.run;

import dev.santabatch.batch.Extensions;
import dev.santabatch.batch.ReviewReuseFunctionalTests;
import dev.santabatch.batch.ScriptedLoopFunctionalTests;
import dev.santabatch.review.step.ReviewerType;
import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.santabatch.execution.StopSignal;
import dev.santabatch.review.ReviewOutcome;
import dev.santabatch.review.ReviewRequest;
import dev.santabatch.review.Reviewer;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * The last resort: an {@link Error} thrown inside a step (an OutOfMemoryError, an AssertionError:
 * what no code expects) ends the run FAILED with its cause in the log (one ERROR line naming it)
 * and in {@code report.json}'s {@code failures}, like any failed step. A reviewer of the test job
 * throws it for one item. What escapes the step's own handling (the store failing, an Error, while
 * the run's end is recorded) reaches the launcher's last resort: logged, and in {@code report.json}.
 */
class LastResortFunctionalTests {

    @TempDir
    Path dir;

    private final ListAppender<ILoggingEvent> log = new ListAppender<>();
    private final Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);

    private Level rootLevel;

    /** Boot leaves the logging as it is (its reset at start-up would detach the test's appender). */
    @BeforeEach
    void listen() {
        StopSignal.reset();
        System.setProperty(NO_LOGGING_SYSTEM, "none");
        rootLevel = root.getLevel();
        root.setLevel(Level.INFO);
        log.start();
        root.addAppender(log);
    }

    @AfterEach
    void stopListening() {
        root.detachAppender(log);
        root.setLevel(rootLevel);
        System.clearProperty(NO_LOGGING_SYSTEM);
    }

    static final String NO_LOGGING_SYSTEM = "org.springframework.boot.logging.LoggingSystem";

    static Map<String, Supplier<Error>> ERRORS = Map.of(
            "OutOfMemoryError", () -> new OutOfMemoryError("simulated: Java heap space"),
            "AssertionError", () -> new AssertionError("simulated: an invariant broke"));

    /** Reviewer C of the test job, which runs {@code before} and throws {@code error} for item T0007. */
    static ReviewerType throwingFor(String wording, Runnable before, Supplier<Error> error) {
        return spec -> {
            Reviewer healthy = new ScriptedLoopFunctionalTests.MarkerReviewer(spec, wording);
            return new Reviewer() {
                @Override
                public String id() {
                    return healthy.id();
                }

                @Override
                public Set<String> criteria() {
                    return healthy.criteria();
                }

                @Override
                public ReviewOutcome review(ReviewRequest request) {
                    if (request.itemId().equals("T0007")) {
                        before.run();
                        throw error.get();
                    }
                    return healthy.review(request);
                }
            };
        };
    }

    private Path job() throws Exception {
        Path catalog = TestJobsAccess.writeCatalog(dir.resolve("in.csv"), ReviewReuseFunctionalTests.markedRows(30));
        return TestJobsAccess.writeJob(dir, "loop", catalog, 10);
    }

    private static final String WORDING = "carries the shop-now boilerplate sentence";

    private List<String> errorLines() {
        return log.list.stream().filter(e -> e.getLevel() == Level.ERROR)
                .map(e -> e.getLoggerName() + ": " + e.getFormattedMessage()).toList();
    }

    @ParameterizedTest(name = "{0} inside the review step")
    @ValueSource(strings = {"OutOfMemoryError", "AssertionError"})
    void anErrorInsideAStepIsLoggedAndWrittenToTheReport(String error) throws Exception {
        // given a job whose reviewer C throws the error for one item
        Path job = job();
        ReviewerType b = spec -> new ScriptedLoopFunctionalTests.MarkerReviewer(spec, WORDING);
        ReviewerType c = throwingFor(WORDING, () -> {}, ERRORS.get(error));
        ByteArrayOutputStream out = new ByteArrayOutputStream();

        // when it runs
        int exit = Extensions.run(new RunRequest(job, null, dir.resolve("out"), "r1", null), TestJobsAccess.h2(dir),
                new PrintStream(out, true, StandardCharsets.UTF_8), System.err, ReviewReuseFunctionalTests.extensions(b, c));

        // then it fails, restartable, with the cause in the log and in report.json
        assertThat(exit).as(out.toString(StandardCharsets.UTF_8)).isEqualTo(1);
        Path report = dir.resolve("out/loop/r1/report.json");
        assertThat(report).exists();
        Map<String, Object> r = dev.santabatch.export.RunReport.read(report);
        assertThat(r.get("status")).isEqualTo("failed");
        assertThat(r.get("failures").toString()).contains(error).contains("simulated");
        assertThat(errorLines()).as("ERROR lines").anyMatch(l -> l.contains("dev.santabatch.run.Launcher") && l.contains(error)
                && l.contains("simulated"));
    }

    @Test
    void aStoreFailureWhileTheRunsEndIsRecordedIsLoggedAndWrittenToTheReport() throws Exception {
        // given a failing run whose store fails when its end is recorded (a table the end writes is gone)
        Path job = job();
        ReviewerType b = spec -> new ScriptedLoopFunctionalTests.MarkerReviewer(spec, WORDING);
        ReviewerType c = throwingFor(WORDING, () -> {
            try (var conn = java.sql.DriverManager.getConnection("jdbc:h2:file:" + dir.toAbsolutePath().resolve("db/santa")
                    + ";AUTO_SERVER=TRUE;IFEXISTS=TRUE", "sa", "")) {
                conn.createStatement().execute("DROP TABLE IF EXISTS sb_answer");
            } catch (java.sql.SQLException e) {
                throw new IllegalStateException(e);
            }
        }, ERRORS.get("AssertionError"));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();

        // when it runs
        int exit = Extensions.run(new RunRequest(job, null, dir.resolve("out"), "r1", null), TestJobsAccess.h2(dir),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8),
                ReviewReuseFunctionalTests.extensions(b, c));

        // then it fails with both causes in report.json and the store's in the log; it is not "could not be started"
        String printed = out.toString(StandardCharsets.UTF_8) + err.toString(StandardCharsets.UTF_8);
        assertThat(exit).as(printed).isEqualTo(1);
        assertThat(printed).doesNotContain("could not be started");
        Map<String, Object> r = dev.santabatch.export.RunReport.read(dir.resolve("out/loop/r1/report.json"));
        assertThat(r.get("status")).isEqualTo("failed");
        assertThat(r.get("failures").toString()).contains("simulated").containsIgnoringCase("sb_answer");
        assertThat(errorLines()).anyMatch(l -> l.contains("dev.santabatch.run.Launcher") && l.contains("unexpected error")
                && l.toLowerCase(java.util.Locale.ROOT).contains("sb_answer"));
    }

    @Test
    void anErrorOutsideTheStepWhileTheRunsEndIsPrintedIsLoggedAndWrittenToTheReport() throws Exception {
        // given a failing run whose output throws an Error when the run's end line is printed
        Path job = job();
        ReviewerType b = spec -> new ScriptedLoopFunctionalTests.MarkerReviewer(spec, WORDING);
        ReviewerType c = throwingFor(WORDING, () -> {}, ERRORS.get("AssertionError"));
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        java.util.concurrent.atomic.AtomicBoolean thrown = new java.util.concurrent.atomic.AtomicBoolean();
        java.io.OutputStream failingOnce = new java.io.OutputStream() {
            @Override
            public void write(int b) {
                printed.write(b);
                if (printed.toString(StandardCharsets.UTF_8).contains("santa-batch: job 'loop'") && thrown.compareAndSet(false, true)) {
                    throw new OutOfMemoryError("simulated: printing the end");
                }
            }
        };

        // when it runs
        int exit = Extensions.run(new RunRequest(job, null, dir.resolve("out"), "r1", null), TestJobsAccess.h2(dir),
                new PrintStream(failingOnce, true, StandardCharsets.UTF_8), System.err,
                ReviewReuseFunctionalTests.extensions(b, c));

        // then the error is logged and written to report.json, after the step's own failure
        assertThat(thrown).isTrue();
        assertThat(exit).isEqualTo(1);
        Map<String, Object> r = dev.santabatch.export.RunReport.read(dir.resolve("out/loop/r1/report.json"));
        assertThat(r.get("status")).isEqualTo("failed");
        assertThat(r.get("failures").toString()).contains("simulated: an invariant broke", "simulated: printing the end");
        assertThat(errorLines()).anyMatch(l -> l.contains("dev.santabatch.run.Launcher") && l.contains("printing the end"));
    }
}
