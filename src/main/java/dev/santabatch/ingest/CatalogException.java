package dev.santabatch.ingest;

import java.nio.file.Path;

/** A catalog file that cannot be read at all (as opposed to single rows, which become rejects). */
public final class CatalogException extends Exception {

    private final Path file;

    public CatalogException(Path file, String problem) {
        super(file + ": " + problem);
        this.file = file;
    }

    public CatalogException(Path file, String problem, Throwable cause) {
        super(file + ": " + problem, cause);
        this.file = file;
    }

    public Path file() {
        return file;
    }
}
