package dev.santabatch.config;

import java.nio.file.Path;
import org.jspecify.annotations.Nullable;

/**
 * A job file that cannot be used. The message names the file, the key (dotted path, e.g.
 * {@code rubric[2].rules[0].fix}) and, where known, the line.
 */
public final class JobFileException extends Exception {

    private final Path file;
    private final @Nullable String key;
    private final int line;

    /**
     * @param line 1-based line, or 0 when unknown
     */
    public JobFileException(Path file, @Nullable String key, int line, String problem) {
        super(format(file, key, line, problem));
        this.file = file;
        this.key = key;
        this.line = line;
    }

    private static String format(Path file, @Nullable String key, int line, String problem) {
        StringBuilder sb = new StringBuilder(file.toString());
        if (line > 0) {
            sb.append(':').append(line);
        }
        sb.append(": ");
        if (key != null) {
            sb.append("key '").append(key).append("': ");
        }
        return sb.append(problem).toString();
    }

    public Path file() {
        return file;
    }

    public @Nullable String key() {
        return key;
    }

    /** 1-based line, or 0 when unknown. */
    public int line() {
        return line;
    }
}
