package dev.santabatch.run;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.LongPredicate;

/**
 * santa-batch in a child JVM started from the test classpath (the jar does not exist during
 * {@code mvn test}), with its store in the test's folder.
 */
final class ChildRun {

    final Process process;
    final Path log;

    private ChildRun(Process process, Path log) {
        this.process = process;
        this.log = log;
    }

    static ChildRun start(Path dir, long chunkDelayMillis, String... args) throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-Xmx256m");
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add("-Dspring.datasource.url=" + TestJobs.h2Url(dir));
        cmd.add("-Dsanta.test.chunk-delay-ms=" + chunkDelayMillis);
        cmd.add("-Dsanta.test.hold-file=" + holdFile(dir)); // PassAll's reviewers wait while it exists
        cmd.add("dev.santabatch.run.PassAll"); // the real main, with passing reviewers: signals and locks are tested here
        cmd.addAll(List.of(args));
        Path log = Files.createTempFile(dir, "child-", ".log");
        Process p = new ProcessBuilder(cmd)
                .directory(dir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        return new ChildRun(p, log);
    }

    /** The file whose existence holds a child's reviews ({@link PassAll#awaitRelease}). */
    static Path holdFile(Path dir) {
        return dir.toAbsolutePath().resolve("hold-reviews");
    }

    int await(long seconds) throws InterruptedException {
        if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("child did not end within " + seconds + " s; log:\n" + output());
        }
        return process.exitValue();
    }

    /**
     * Waits until the child has printed {@code text} (within {@code timeoutSeconds}, while it lives): e.g.
     * that it has opened the store, before the test opens it too (an H2 file store is shared through
     * the process that opened it first; opening and closing it in a loop while the child starts races
     * the child for its lock).
     */
    void awaitOutput(String text, long timeoutSeconds) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
        while (!output().contains(text)) {
            if (!process.isAlive() || System.nanoTime() > deadline) {
                throw new AssertionError("child did not print '" + text + "'; log:\n" + output());
            }
            Thread.sleep(50);
        }
    }

    String output() {
        try {
            return Files.readString(log);
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }

    /** Polls {@code sql} (a single number) on the child's store until {@code until} holds. */
    static long pollUntil(Path dir, String sql, LongPredicate until, long timeoutSeconds, Process alive)
            throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
        long last = -1;
        String lastError = "";
        while (System.nanoTime() < deadline) {
            if (!alive.isAlive()) {
                throw new AssertionError("child ended (exit " + alive.exitValue() + ") before the condition held; last value " + last + " " + lastError);
            }
            if (!Files.exists(dir.resolve("db/santa.mv.db"))) {
                Thread.sleep(50);
                continue; // connecting now would create the database and race the child for its lock
            }
            try {
                last = queryLong(dir, sql);
                if (until.test(last)) {
                    return last;
                }
            } catch (SQLException notYet) {
                lastError = notYet.getMessage(); // the schema is not there yet
            }
            Thread.sleep(50);
        }
        throw new AssertionError("condition not reached within " + timeoutSeconds + " s; last value " + last);
    }

    static long queryLong(Path dir, String sql) throws SQLException {
        try (Connection c = DriverManager.getConnection(TestJobs.h2Url(dir) + ";IFEXISTS=TRUE", "sa", "");
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery(sql)) {
            return rs.next() ? rs.getLong(1) : -1;
        }
    }

    static String queryString(Path dir, String sql) throws SQLException {
        try (Connection c = DriverManager.getConnection(TestJobs.h2Url(dir) + ";IFEXISTS=TRUE", "sa", "");
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery(sql)) {
            return rs.next() ? rs.getString(1) : null;
        }
    }

    static String separator() {
        return File.separator;
    }
}
