package dev.santabatch.run;

import dev.santabatch.job.JobDefinition;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * SHA-256 fingerprints of what a run's results depend on: the catalog file, and the rubric with
 * the task specification and the panel. A restart is refused when either changed since the run
 * started. Limits such as max rounds and budgets are not part of it: raising them is how a
 * not-clean or budget-stopped run is resumed.
 */
final class Fingerprints {

    private Fingerprints() {}

    static String file(Path file) throws IOException {
        MessageDigest md = sha256();
        byte[] buf = new byte[1 << 16];
        try (InputStream in = Files.newInputStream(file)) {
            for (int n; (n = in.read(buf)) > 0; ) {
                md.update(buf, 0, n);
            }
        }
        return HexFormat.of().formatHex(md.digest());
    }

    static String rubric(JobDefinition job) {
        String text = job.taskSpec() + "\n" + job.rubric() + "\n" + job.reviewers();
        return HexFormat.of().formatHex(sha256().digest(text.getBytes(StandardCharsets.UTF_8)));
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
