package dev.santabatch.export;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * A run's output folder, written whole or not at all: the files go into {@code .<run-id>.partial}
 * beside the folder, which then takes the folder's place (the old folder is moved aside to {@code
 * .<run-id>.replaced} and deleted). Hidden names, so that a glob such as {@code out/job/*}{@code
 * /catalog.csv} never matches a folder being written. A reader sees either the earlier export or the
 * new one, never a mix. A process killed mid-export leaves the earlier folder; killed between the
 * two moves, it leaves the earlier folder under {@code .replaced}, which the next export (or a
 * failed run's report) first puts back.
 */
public final class OutputFolder {

    private OutputFolder() {}

    /** A fresh, empty folder to write an export of {@code target} into. */
    public static Path begin(Path target) throws IOException {
        recover(target);
        Path partial = sibling(target, ".partial");
        deleteTree(partial);
        Files.createDirectories(partial);
        return partial;
    }

    /** Puts {@code partial} in {@code target}'s place, replacing what was there. */
    public static void publish(Path partial, Path target) throws IOException {
        Path replaced = sibling(target, ".replaced");
        deleteTree(replaced);
        // the only window without the folder: nothing runs between these two renames (a directory
        // cannot be renamed over a non-empty one); a kill in it leaves the earlier folder aside,
        // which recover() puts back (OutputFolderTests)
        if (Files.exists(target)) {
            Files.move(target, replaced, StandardCopyOption.ATOMIC_MOVE);
        }
        Files.move(partial, target, StandardCopyOption.ATOMIC_MOVE);
        deleteTree(replaced);
    }

    /** Puts back an earlier export moved aside by a publish that did not finish. */
    static void recover(Path target) throws IOException {
        Path replaced = sibling(target, ".replaced");
        if (!Files.exists(target) && Files.exists(replaced)) {
            Files.move(replaced, target, StandardCopyOption.ATOMIC_MOVE);
        }
    }

    private static Path sibling(Path target, String suffix) {
        Path abs = target.toAbsolutePath();
        return abs.resolveSibling("." + abs.getFileName() + suffix);
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
