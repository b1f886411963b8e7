package dev.santabatch.cli;

/** A command line, job file or input that cannot be used: reported, exit 2, nothing run. */
public final class UsageException extends Exception {
    public UsageException(String message) {
        super(message);
    }
}
