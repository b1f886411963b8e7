package dev.santabatch.run;

import java.nio.file.Path;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * A {@code run} as asked for on the command line.
 *
 * @param input overrides the job file's input.path when given
 * @param runId {@code null} for a new run id
 * @param seed overrides the job file's sampling.seed when given
 */
public record RunRequest(Path jobFile, @Nullable Path input, Path out, @Nullable String runId, @Nullable Long seed) {

    /** A run id is used as a folder name: a safe path segment. */
    public static final Pattern SAFE_ID = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9._-]{0,127}");
}
