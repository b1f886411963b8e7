package dev.santabatch.export;

import dev.santabatch.run.Launcher;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run's output folder is replaced whole: a publish is two renames (the earlier folder aside, the
 * new one in its place), and a process killed between them, or after them before the earlier
 * folder is deleted, leaves a state the next export recovers from: a reader never sees a mix.
 */
class OutputFolderTests {

    @TempDir
    Path out;

    Path target;

    @BeforeEach
    void anEarlierExport() throws Exception {
        target = out.resolve("r1");
        Files.createDirectories(target);
        Files.writeString(target.resolve("catalog.csv"), "old\n");
        Files.writeString(target.resolve("report.json"), "{\"status\": \"clean\"}\n");
    }

    private Path replaced() {
        return out.resolve(".r1.replaced");
    }

    private List<String> names() throws Exception {
        try (Stream<Path> s = Files.list(out)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void aPublishReplacesTheFolderWholeAndLeavesNoHiddenFolder() throws Exception {
        Path partial = OutputFolder.begin(target);
        Files.writeString(partial.resolve("verified.csv"), "new\n");

        OutputFolder.publish(partial, target);

        try (Stream<Path> s = Files.list(target)) {
            assertThat(s.map(p -> p.getFileName().toString()).toList()).containsExactly("verified.csv");
        }
        assertThat(names()).containsExactly("r1");
    }

    @Test
    void aKillBetweenTheTwoRenamesLeavesTheEarlierExportAsideAndTheNextExportPutsItBackThenReplacesIt() throws Exception {
        // given an export killed after its first rename: the earlier folder aside, the new one not in place
        Path partial = OutputFolder.begin(target);
        Files.writeString(partial.resolve("catalog.csv"), "new, never published\n");
        Files.move(target, replaced(), StandardCopyOption.ATOMIC_MOVE);
        assertThat(names()).containsExactly(".r1.partial", ".r1.replaced");

        // when the next export begins, then the earlier export is back, whole, and the half-published one gone
        Path again = OutputFolder.begin(target);
        assertThat(Files.readString(target.resolve("catalog.csv"))).isEqualTo("old\n");
        assertThat(Files.readString(target.resolve("report.json"))).isEqualTo("{\"status\": \"clean\"}\n");
        try (Stream<Path> s = Files.list(again)) {
            assertThat(s.toList()).isEmpty();
        }
        assertThat(names()).containsExactly(".r1.partial", "r1");

        // and its publish replaces it
        Files.writeString(again.resolve("catalog.csv"), "new\n");
        OutputFolder.publish(again, target);
        assertThat(Files.readString(target.resolve("catalog.csv"))).isEqualTo("new\n");
        assertThat(target.resolve("report.json")).doesNotExist();
        assertThat(names()).containsExactly("r1");
    }

    @Test
    void aKillBetweenTheTwoRenamesIsRecoveredByAFailedRunsReportToo() throws Exception {
        // given the earlier folder aside and nothing in its place
        Files.move(target, replaced(), StandardCopyOption.ATOMIC_MOVE);

        // when a failed run's report recovers first (Launcher), then the earlier export is in place
        OutputFolder.recover(target);

        assertThat(Files.readString(target.resolve("catalog.csv"))).isEqualTo("old\n");
        assertThat(names()).containsExactly("r1");
    }

    @Test
    void aKillAfterBothRenamesKeepsTheNewExportAndTheNextExportDeletesTheEarlierOne() throws Exception {
        // given an export killed after its second rename, before it deleted the earlier folder
        Path partial = OutputFolder.begin(target);
        Files.writeString(partial.resolve("catalog.csv"), "new\n");
        Files.move(target, replaced(), StandardCopyOption.ATOMIC_MOVE);
        Files.move(partial, target, StandardCopyOption.ATOMIC_MOVE);

        // when recovery runs, then the new export stays (the earlier one is not put back over it)
        OutputFolder.recover(target);
        assertThat(Files.readString(target.resolve("catalog.csv"))).isEqualTo("new\n");

        // and the next export's publish leaves only its own folder
        Path again = OutputFolder.begin(target);
        Files.writeString(again.resolve("catalog.csv"), "newer\n");
        OutputFolder.publish(again, target);
        assertThat(Files.readString(target.resolve("catalog.csv"))).isEqualTo("newer\n");
        assertThat(names()).containsExactly("r1");
    }
}
