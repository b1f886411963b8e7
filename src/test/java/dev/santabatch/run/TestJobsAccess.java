package dev.santabatch.run;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** Test fixtures of this package, for functional tests in other packages. */
public final class TestJobsAccess {
    private TestJobsAccess() {}

    public static List<List<String>> rows(int n) {
        return TestJobs.rows(n);
    }

    public static Path writeCatalog(Path file, List<List<String>> rows) throws IOException {
        return TestJobs.writeCatalog(file, rows);
    }

    public static Path writeJob(Path dir, String name, Path catalog, int chunkSize) throws IOException {
        return TestJobs.writeJob(dir, name, catalog, chunkSize);
    }

    public static Map<String, Object> h2(Path dir) {
        return TestJobs.h2(dir);
    }
}
