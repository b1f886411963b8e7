package dev.santabatch.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Golden tests of the job file's error and warning messages: each case pins the whole text
 * {@link JobFileLoader} produces today (file, line, dotted key, problem, "did you mean", the keys
 * allowed), so that a rewrite of the loader keeps every message or changes it on purpose.
 *
 * <p>A case is a pair of files in {@code src/test/resources/job-errors} (read from the source tree,
 * so a removed case does not linger in {@code target}):
 * <ul>
 *   <li>{@code <case>.yml}, the job file. It is loaded as {@code job.yml} from a fresh folder that
 *       also holds {@code data.csv}, a folder {@code a-directory} and {@code unreadable.csv}, which
 *       nobody may read. The cases of {@link #NO_JOB_FILE} have none: their job file does not exist.
 *       The cases of {@link #UNREADABLE} need a file nobody may read and are skipped where that
 *       cannot be arranged (as root);
 *   <li>{@code <case>.expected}, the exact message of the {@link JobFileException}; or
 *       {@code <case>.warnings}: the job loads, and these are its warnings, one a line.
 * </ul>
 * In the expected text {@code ${dir}} stands for that folder ({@code ${dir}/job.yml:12: key
 * 'colour': ...}) and a control character in the message is written as its Java escape (a
 * backslash, {@code u} and four hex digits);
 * one final newline of the expected file is not part of the message.
 *
 * <p>To add a case, write its {@code .yml} and an empty {@code .expected} and run this class with
 * {@code -Djob-errors.update=true}: each case whose message differs gets its expected file rewritten
 * and fails; review the diff, then run again without the property.
 */
class JobFileErrorGoldenTests {

    private static final Path CASES = Path.of("src/test/resources/job-errors");
    private static final boolean UPDATE = Boolean.getBoolean("job-errors.update");
    private static final Function<String, String> NO_ENV = name -> null;

    private static final Set<String> NO_JOB_FILE = Set.of("file-not-found");
    private static final Map<String, String> UNREADABLE =
            Map.of("file-unreadable", "job.yml", "input-path-unreadable", "unreadable.csv");
    /**
     * Cases whose message prints a {@code Set.of} (the offline reviewers' threshold names): its
     * iteration order changes from one JVM to the next, so its bracketed list is compared sorted.
     */
    private static final Set<String> UNORDERED_LISTS =
            Set.of("reviewer-lexical-threshold-unknown", "reviewer-semantic-threshold-unknown");
    private static final Pattern BRACKETED = Pattern.compile("\\[([^\\[\\]]*)\\]");

    @TempDir
    Path dir;

    static Stream<String> cases() throws IOException {
        try (Stream<Path> files = Files.list(CASES)) {
            return files.map(p -> p.getFileName().toString())
                    .filter(n -> n.endsWith(".expected") || n.endsWith(".warnings"))
                    .map(n -> n.substring(0, n.lastIndexOf('.')))
                    .sorted()
                    .toList()
                    .stream();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void messageIsExactlyTheGolden(String name) throws Exception {
        // given the case's job file, in a folder with the files it may name
        Path job = prepare(name);
        Path golden = CASES.resolve(name + ".expected");
        boolean warnings = !Files.exists(golden);
        if (warnings) {
            golden = CASES.resolve(name + ".warnings");
        }
        String expected = withoutFinalNewline(Files.readString(golden, StandardCharsets.UTF_8));

        // when
        String actual;
        if (warnings) {
            JobFileLoader.Result result = JobFileLoader.loadWithWarnings(job, NO_ENV);
            actual = result.warnings().stream().map(this::tokenized).collect(Collectors.joining("\n"));
        } else {
            Throwable thrown = catchThrowable(() -> JobFileLoader.loadWithWarnings(job, NO_ENV));
            assertThat(thrown).as(name).isInstanceOf(JobFileException.class);
            assertThat(((JobFileException) thrown).file()).isEqualTo(job);
            actual = tokenized(thrown.getMessage());
        }
        if (UNORDERED_LISTS.contains(name)) {
            actual = sortBracketedLists(actual);
        }

        // then
        if (UPDATE && !expected.equals(actual)) {
            Files.writeString(golden, actual + "\n", StandardCharsets.UTF_8);
            fail("rewrote " + golden + " (was: " + expected + "); review the diff and run again");
        }
        assertEquals(expected, actual, name);
    }

    /** Every job file has its golden, and every golden its job file (but the job file not found). */
    @Test
    void everyCaseIsAPair() throws IOException {
        List<String> names = cases().toList();
        try (Stream<Path> files = Files.list(CASES)) {
            List<String> orphans = files.map(p -> p.getFileName().toString())
                    .filter(n -> n.endsWith(".yml"))
                    .filter(n -> !names.contains(n.substring(0, n.length() - ".yml".length())))
                    .toList();
            assertThat(orphans).as("job files without a golden").isEmpty();
        }
        assertThat(names).filteredOn(n -> !NO_JOB_FILE.contains(n))
                .as("goldens without a job file")
                .allMatch(n -> Files.exists(CASES.resolve(n + ".yml")));
        assertThat(NO_JOB_FILE).allMatch(n -> !Files.exists(CASES.resolve(n + ".yml")));
    }

    private Path prepare(String name) throws IOException {
        Files.writeString(dir.resolve("data.csv"), "id,text\n1,hello\n");
        Files.createDirectories(dir.resolve("a-directory"));
        makeUnreadable(Files.writeString(dir.resolve("unreadable.csv"), "id,text\n"));
        Path job = dir.resolve("job.yml");
        if (!NO_JOB_FILE.contains(name)) {
            Files.copy(CASES.resolve(name + ".yml"), job);
        }
        String unreadable = UNREADABLE.get(name);
        if (unreadable != null) {
            Path file = dir.resolve(unreadable);
            makeUnreadable(file);
            Assumptions.assumeFalse(Files.isReadable(file), "cannot make a file unreadable here (running as root?)");
        }
        return job;
    }

    private static void makeUnreadable(Path file) throws IOException {
        try {
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("---------"));
        } catch (UnsupportedOperationException e) {
            // not a POSIX file system: the cases that need it are skipped
        }
    }

    /** The message with the folder as {@code ${dir}} and control characters as Java escapes. */
    private String tokenized(String message) {
        StringBuilder sb = new StringBuilder();
        message.replace(dir.toString(), "${dir}").chars().forEach(c -> sb.append(Character.isISOControl(c)
                ? String.format("\\u%04x", c) : String.valueOf((char) c)));
        return sb.toString();
    }

    private static String withoutFinalNewline(String s) {
        return s.endsWith("\n") ? s.substring(0, s.length() - 1) : s;
    }

    private static String sortBracketedLists(String s) {
        Matcher m = BRACKETED.matcher(s);
        StringBuilder sb = new StringBuilder();
        while (m.find()) {
            String sorted = Arrays.stream(m.group(1).split(", ")).sorted().collect(Collectors.joining(", "));
            m.appendReplacement(sb, Matcher.quoteReplacement("[" + sorted + "]"));
        }
        m.appendTail(sb);
        return sb.toString();
    }
}
