package dev.santabatch.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.santabatch.ingest.CatalogRecord.CatalogRow;
import dev.santabatch.config.InputSpec;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class CatalogCsvWriterTests {

    static final List<String> HEADER = List.of("id", "title", "content", "category");

    @TempDir
    Path dir;

    static InputSpec spec(Path file) {
        return new InputSpec(file, "id", "content", "category", List.of("title"), null);
    }

    static List<CatalogRecord> readAll(Path file) throws Exception {
        List<CatalogRecord> out = new ArrayList<>();
        try (CatalogReader reader = CatalogReader.open(spec(file))) {
            assertThat(reader.header()).isEqualTo(HEADER);
            CatalogRecord r;
            while ((r = reader.next()) != null) {
                out.add(r);
            }
        }
        return out;
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @ValueSource(strings = {
        "plain",
        "say \"hi\"",
        "\"quoted at start\"",
        "a, b, c",
        "line one\r\nline two",
        "line one\nline two\n",
        "lone\rcarriage return",
        "\nleading newline",
        "été, 日本, 🎅🏽 emoji",
        "  leading and trailing spaces  ",
        "\ttab first",
        "#hash first",
        "'single quote'",
        "=SUM(A1:A2)",
        "5\" screen",
        "ends with quote\"",
        ",",
        "\"\"",
    })
    void anyValueRoundTripsExactly(String value) throws Exception {
        // given
        Path file = dir.resolve("catalog.csv");
        try (CatalogCsvWriter writer = CatalogCsvWriter.create(file, HEADER)) {
            writer.writeRow("id-1", value, value, value);
            writer.writeRow(value.isBlank() ? "id-2" : value, "t", "after", "k");
            writer.commit();
        }
        // when
        List<CatalogRecord> records = readAll(file);
        // then
        assertThat(records).containsExactly(
                new CatalogRow(2, 0, "id-1", List.of("id-1", value, value, value)),
                new CatalogRow(
                        3 + value.chars().filter(c -> c == '\n').count() * 3,
                        1,
                        value.isBlank() ? "id-2" : value,
                        List.of(value.isBlank() ? "id-2" : value, "t", "after", "k")));
    }

    @Test
    void writesUtf8WithoutBomWithCrlfRecordsAndMinimalQuoting() throws Exception {
        // given
        Path file = dir.resolve("catalog.csv");
        // when
        try (CatalogCsvWriter writer = CatalogCsvWriter.create(file, HEADER)) {
            writer.writeRow("a1", "é", "x,y", null);
            writer.commit();
        }
        // then
        byte[] bytes = Files.readAllBytes(file);
        assertThat(bytes[0]).isEqualTo((byte) 'i');
        assertThat(new String(bytes, StandardCharsets.UTF_8))
                .isEqualTo("id,title,content,category\r\na1,é,\"x,y\",\r\n");
    }

    @Test
    void nothingUnderTheFinalNameUntilCommit() throws Exception {
        // given
        Path file = dir.resolve("catalog.csv");
        Path tmp = dir.resolve("catalog.csv.tmp");
        try (CatalogCsvWriter writer = CatalogCsvWriter.create(file, HEADER)) {
            writer.writeRow("a1", "t", "c", "k");
            // then
            assertThat(file).doesNotExist();
            assertThat(tmp).exists();
            // when
            writer.commit();
        }
        // then
        assertThat(file).exists();
        assertThat(tmp).doesNotExist();
    }

    @Test
    void failedExportLeavesTheOldFileAndNoTemporaryFile() throws Exception {
        // given
        Path file = dir.resolve("catalog.csv");
        Files.writeString(file, "old");
        // when
        assertThatThrownBy(() -> {
                    try (CatalogCsvWriter writer = CatalogCsvWriter.create(file, HEADER)) {
                        writer.writeRow("a1", "t", "c", "k");
                        throw new IllegalStateException("export failed");
                    }
                })
                .hasMessage("export failed");
        // then
        assertThat(Files.readString(file)).isEqualTo("old");
        assertThat(dir.resolve("catalog.csv.tmp")).doesNotExist();
    }

    @Test
    void commitReplacesAnExistingFile() throws Exception {
        // given
        Path file = dir.resolve("catalog.csv");
        Files.writeString(file, "old");
        // when
        try (CatalogCsvWriter writer = CatalogCsvWriter.create(file, HEADER)) {
            writer.writeRow("a1", "t", "c", "k");
            writer.commit();
        }
        // then
        assertThat(Files.readString(file)).isEqualTo("id,title,content,category\r\na1,t,c,k\r\n");
    }

    @Test
    void rowWithTheWrongFieldCountIsRefused() throws Exception {
        // given
        Path file = dir.resolve("catalog.csv");
        try (CatalogCsvWriter writer = CatalogCsvWriter.create(file, HEADER)) {
            // when / then
            assertThatThrownBy(() -> writer.writeRow("a1", "t"))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("row has 2 fields, header has 4");
        }
    }

    @ParameterizedTest(name = "[{index}] [{0}] -> [{1}]")
    @CsvSource(
            delimiter = '|',
            quoteCharacter = '`',
            value = {
                "=1+2          | '=1+2",
                "+44 20 7946   | '+44 20 7946",
                "-5            | '-5",
                "@SUM(A1)      | '@SUM(A1)",
                "`\t=x`        | `'\t=x`",
                "`\rx`         | `'\rx`",
                "plain         | plain",
                "a=b           | a=b",
                "`  =x`        | `  =x`",
                "'already      | 'already",
                "``            | ``",
            })
    void neutralisationTable(String value, String expected) {
        assertThat(CatalogCsvWriter.neutralise(value)).isEqualTo(expected);
    }

    @Test
    void neutralisingWriterQuotesFormulaCellsAndThePlainWriterDoesNot() throws Exception {
        // given
        Path plain = dir.resolve("catalog.csv");
        Path safe = dir.resolve("escalations.csv");
        List<String> row = Arrays.asList("a1", "=HYPERLINK(\"x\")", "-1", "@me");
        // when
        try (CatalogCsvWriter p = CatalogCsvWriter.create(plain, HEADER);
                CatalogCsvWriter s = CatalogCsvWriter.neutralising(safe, HEADER)) {
            p.writeRow(row);
            s.writeRow(row);
            p.commit();
            s.commit();
        }
        // then
        assertThat(((CatalogRow) readAll(plain).get(0)).values()).isEqualTo(row);
        assertThat(((CatalogRow) readAll(safe).get(0)).values())
                .containsExactly("a1", "'=HYPERLINK(\"x\")", "'-1", "'@me");
    }

    @Test
    void writeAfterCommitIsRefused() throws IOException {
        // given
        Path file = dir.resolve("catalog.csv");
        CatalogCsvWriter writer = CatalogCsvWriter.create(file, HEADER);
        writer.commit();
        // when / then
        assertThatThrownBy(() -> writer.writeRow("a", "b", "c", "d")).isInstanceOf(IllegalStateException.class);
        writer.close();
        assertThat(file).exists();
    }
}
