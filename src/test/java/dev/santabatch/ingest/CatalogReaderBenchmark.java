package dev.santabatch.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.santabatch.ingest.CatalogRecord.CatalogRow;
import dev.santabatch.config.InputSpec;
import java.io.BufferedWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One million rows in constant memory. Excluded from the normal build (pom excludes *Benchmark*);
 * run with {@code ./mvnw -o test -Dtest=CatalogReaderBenchmark -DargLine=-Xmx256m}.
 */
class CatalogReaderBenchmark {

    @TempDir
    Path dir;

    @Test
    void readsAMillionRows() throws Exception {
        Path file = dir.resolve("big.csv");
        int rows = 1_000_000;
        try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            w.write("id,title,content,category,price,brand,color,size\n");
            for (int i = 0; i < rows; i++) {
                w.write("id-" + i + ",Title " + i + ",\"A fine, sturdy item\nwith été and 日本 " + i
                        + "\",cat" + (i % 7) + ",9.99,Brand,red,M\n");
            }
        }
        InputSpec spec = new InputSpec(file, "id", "content", "category", List.of("title"), null);
        long start = System.nanoTime();
        long count = 0;
        long lastLine = 0;
        try (CatalogReader reader = CatalogReader.open(spec)) {
            CatalogRecord r;
            while ((r = reader.next()) != null) {
                assertThat(r).isInstanceOf(CatalogRow.class);
                count++;
                lastLine = r.line();
            }
        }
        long ms = (System.nanoTime() - start) / 1_000_000;
        System.out.printf("read %d rows (%d MB) in %d ms, max heap %d MB%n", count, Files.size(file) >> 20, ms,
                Runtime.getRuntime().maxMemory() >> 20);
        assertThat(count).isEqualTo(rows);
        assertThat(lastLine).isEqualTo(2L * rows);
    }
}
