package dev.santabatch.export;

import java.util.List;
import java.util.stream.Collectors;

/** A filled-in audit file that cannot be taken back; every problem names its line. */
public final class AuditFileException extends Exception {

    /**
     * One problem.
     *
     * @param line the 1-based physical line where the record starts (1 for the header)
     * @param message what is wrong
     */
    public record Problem(long line, String message) {
        @Override
        public String toString() {
            return "line " + line + ": " + message;
        }
    }

    private final transient List<Problem> problems;

    public AuditFileException(String file, List<Problem> problems) {
        super(file + ": " + problems.stream().map(Problem::toString).collect(Collectors.joining("; ")));
        this.problems = List.copyOf(problems);
    }

    /** The problems, in file order. */
    public List<Problem> problems() {
        return problems;
    }
}
