package dev.santabatch.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import dev.santabatch.ingest.CatalogRecord.CatalogRow;
import dev.santabatch.ingest.CatalogRecord.Reject;
import dev.santabatch.config.InputSpec;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.batch.infrastructure.item.ExecutionContext;
import org.springframework.batch.infrastructure.item.ItemStreamException;

class CatalogReaderTests {

    static final String HEADER = "id,title,content,category\n";

    @TempDir
    Path dir;

    static InputSpec spec(Path file) {
        return new InputSpec(file, "id", "content", "category", List.of("title"), null);
    }

    Path write(String text) throws IOException {
        return writeBytes(text.getBytes(StandardCharsets.UTF_8));
    }

    Path writeBytes(byte[] bytes) throws IOException {
        Path file = dir.resolve("catalog.csv");
        Files.write(file, bytes);
        return file;
    }

    static List<CatalogRecord> readAll(Path file) throws Exception {
        try (CatalogReader reader = CatalogReader.open(spec(file))) {
            return drain(reader);
        }
    }

    static List<CatalogRecord> drain(CatalogReader reader) throws IOException {
        List<CatalogRecord> out = new ArrayList<>();
        CatalogRecord r;
        while ((r = reader.next()) != null) {
            out.add(r);
        }
        return out;
    }

    @Test
    void readsRowsWithValuesLinesAndIndexes() throws Exception {
        // given
        Path file = write(HEADER + "a1,T,hello,toys\na2,\"T, two\",\"say \"\"hi\"\"\",books\n");
        // when
        List<CatalogRecord> records = readAll(file);
        // then
        assertThat(records).containsExactly(
                new CatalogRow(2, 0, "a1", List.of("a1", "T", "hello", "toys")),
                new CatalogRow(3, 1, "a2", List.of("a2", "T, two", "say \"hi\"", "books")));
    }

    static Stream<Arguments> badRows() {
        return Stream.of(
                arguments("empty id", ",T,hello,toys", "missing or empty id (column 'id')"),
                arguments("blank id", "   ,T,hello,toys", "missing or empty id (column 'id')"),
                arguments("quoted empty id", "\"\",T,hello,toys", "missing or empty id (column 'id')"),
                arguments("empty content", "a1,T,,toys", "empty content (column 'content')"),
                arguments("blank content", "a1,T,\"  \",toys", "empty content (column 'content')"),
                arguments("too few columns", "a1,T,hello", "expected 4 fields, found 3"),
                arguments("too many columns", "a1,T,hello,toys,extra", "expected 4 fields, found 5"),
                arguments("only an id", "a1", "expected 4 fields, found 1"),
                arguments("only spaces", "   ", "expected 4 fields, found 1"),
                arguments("text after close quote", "a1,\"T\"x,hello,toys",
                        "malformed quoting: unexpected character after the closing quote of field 2"));
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @MethodSource("badRows")
    void rejectsABadRowWithItsLineAndKeepsReadingAfterIt(String name, String row, String reason) throws Exception {
        // given
        Path file = write(HEADER + "ok1,T,c,k\n" + row + "\nok2,T,c,k\n");
        // when
        List<CatalogRecord> records = readAll(file);
        // then
        assertThat(records).hasSize(3);
        assertThat(records.get(1)).isEqualTo(new Reject(3, 3, reason, row));
        assertThat(records.get(2)).isEqualTo(new CatalogRow(4, 2, "ok2", List.of("ok2", "T", "c", "k")));
    }

    static Stream<Arguments> quotingEdges() {
        return Stream.of(
                arguments("space after close quote", "a1,\"T\" ,hello,toys",
                        "malformed quoting: unexpected character after the closing quote of field 2"),
                arguments("tab after close quote, last field", "a1,T,hello,\"toys\"\t",
                        "malformed quoting: unexpected character after the closing quote of field 4"),
                arguments("bare CR after close quote", "a1,\"T\"\r,hello,toys",
                        "malformed quoting: unexpected character after the closing quote of field 2"),
                arguments("first of two bad fields", "a1,\"T\"x,\"hello\"y,toys",
                        "malformed quoting: unexpected character after the closing quote of field 2"));
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @MethodSource("quotingEdges")
    void rejectsAnyTextAfterAClosingQuoteWithItsFieldNumber(String name, String row, String reason) throws Exception {
        // given
        Path file = write(HEADER + row + "\nok2,T,c,k\n");
        // when
        List<CatalogRecord> records = readAll(file);
        // then
        assertThat(records).containsExactly(new Reject(2, 2, reason, row),
                new CatalogRow(3, 1, "ok2", List.of("ok2", "T", "c", "k")));
    }

    @Test
    void aBareCrIsDataAndACrlfAfterAClosingQuoteEndsTheRecord() throws Exception {
        // given: a CR inside unquoted fields, and a record ending in a quoted field then CRLF
        Path file = write(HEADER + "a1,T\rT,x\r\ry,\"k\"\r\na2,\"T\",c,k\r\r\n");
        // when
        List<CatalogRecord> records = readAll(file);
        // then
        assertThat(records).containsExactly(
                new CatalogRow(2, 0, "a1", List.of("a1", "T\rT", "x\r\ry", "k")),
                new CatalogRow(3, 1, "a2", List.of("a2", "T", "c", "k\r")));
    }

    @ParameterizedTest(name = "[{index}] bytes {0}")
    @CsvSource({"C3 28, 1", "FF, 0", "E2 82, 0"})
    void rejectsInvalidUtf8MidFileAndReadsTheRowsAfterIt(String hex, int offsetInBad) throws Exception {
        // given: header, a good row, a row with the bad bytes in its content, a good row
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes((HEADER + "ok1,T,c,k\n").getBytes(StandardCharsets.UTF_8));
        int badRowStart = out.size();
        out.writeBytes("bad,T,x".getBytes(StandardCharsets.UTF_8));
        for (String h : hex.split(" ")) {
            out.write(Integer.parseInt(h, 16));
        }
        out.writeBytes("y,k\nok2,T,été 日本,k\n".getBytes(StandardCharsets.UTF_8));
        Path file = writeBytes(out.toByteArray());
        // when
        List<CatalogRecord> records = readAll(file);
        // then
        assertThat(records).hasSize(3);
        Reject reject = (Reject) records.get(1);
        assertThat(reject.line()).isEqualTo(3);
        assertThat(reject.reason())
                .isEqualTo("invalid UTF-8 byte sequence at byte offset " + (badRowStart + "bad,T,x".length()));
        assertThat(reject.raw()).startsWith("bad,T,x\uFFFD").endsWith("y,k");
        assertThat(records.get(2)).isEqualTo(new CatalogRow(4, 2, "ok2", List.of("ok2", "T", "été 日本", "k")));
    }

    @Test
    void unterminatedQuoteMakesTheRestOfTheFileOneRejectAndKeepsTheRowsBefore() throws Exception {
        // given
        Path file = write(HEADER + "a1,T,c,k\na2,T,c,k\na3,\"T,c,k\na4,T,c,k\na5,T,c,k\n");
        // when
        List<CatalogRecord> records = readAll(file);
        // then
        assertThat(records).hasSize(3);
        assertThat(records.subList(0, 2)).extracting(CatalogRecord::line).containsExactly(2L, 3L);
        assertThat(records.subList(0, 2)).allMatch(r -> r instanceof CatalogRow);
        Reject reject = (Reject) records.get(2);
        assertThat(reject.line()).isEqualTo(4);
        assertThat(reject.endLine()).isEqualTo(6);
        assertThat(reject.reason()).isEqualTo("unterminated quoted field: lines 4-6");
        assertThat(reject.raw()).isEqualTo("a3,\"T,c,k\na4,T,c,k\na5,T,c,k\n");
    }

    @Test
    void bomIsTolerated() throws Exception {
        // given
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(0xEF);
        out.write(0xBB);
        out.write(0xBF);
        out.writeBytes((HEADER + "a1,T,c,k\n").getBytes(StandardCharsets.UTF_8));
        Path file = writeBytes(out.toByteArray());
        // when
        List<CatalogRecord> records;
        List<String> header;
        try (CatalogReader reader = CatalogReader.open(spec(file))) {
            header = reader.header();
            records = drain(reader);
        }
        // then
        assertThat(header).containsExactly("id", "title", "content", "category");
        assertThat(records).containsExactly(new CatalogRow(2, 0, "a1", List.of("a1", "T", "c", "k")));
    }

    @Test
    void quotedNewlinesKeepLaterLineNumbersRight() throws Exception {
        // given: row 1 spans lines 2-4, row 2 spans lines 5-6 (CRLF inside), row 3 is on line 7
        Path file = write(HEADER + "a1,T,\"one\ntwo\nthree\",k\r\na2,T,\"x\r\ny\",k\na3,T,c,k\n");
        // when
        List<CatalogRecord> records = readAll(file);
        // then
        assertThat(records).extracting(CatalogRecord::line).containsExactly(2L, 5L, 7L);
        assertThat(((CatalogRow) records.get(0)).values().get(2)).isEqualTo("one\ntwo\nthree");
        assertThat(((CatalogRow) records.get(1)).values().get(2)).isEqualTo("x\r\ny");
    }

    @Test
    void rejectOfAMultiLineRecordNamesItsLineRange() throws Exception {
        // given
        Path file = write(HEADER + "a1,\"T\nT\",c\na2,T,c,k\n");
        // when
        List<CatalogRecord> records = readAll(file);
        // then
        assertThat(records.get(0)).isEqualTo(new Reject(2, 3, "expected 4 fields, found 3", "a1,\"T\nT\",c"));
        assertThat(records.get(1).line()).isEqualTo(4);
    }

    @Test
    void blankLinesAreSkippedNotRejected() throws Exception {
        // given
        Path file = write(HEADER + "a1,T,c,k\n\na2,T,c,k\n\n\n");
        // when
        List<CatalogRecord> records = readAll(file);
        // then
        assertThat(records).extracting(CatalogRecord::line).containsExactly(2L, 4L);
        assertThat(records).allMatch(r -> r instanceof CatalogRow);
        assertThat(records).extracting(r -> ((CatalogRow) r).recordIndex()).containsExactly(0L, 1L);
    }

    @Test
    void duplicateIdsAreNotDetectedHere() throws Exception {
        // given
        Path file = write(HEADER + "a1,T,c,k\na1,T,d,k\n");
        // when
        List<CatalogRecord> records = readAll(file);
        // then
        assertThat(records).allMatch(r -> r instanceof CatalogRow).hasSize(2);
    }

    @Test
    void restartFromASavedPositionYieldsExactlyTheRemainingRecords() throws Exception {
        // given: rows, a reject, a multi-line row and a blank line
        Path file = write(HEADER + "a1,T,c,k\na2,T,\"multi\nline\",k\nbad\n\na4,T,c,k\na5,T,c,k\n");
        List<CatalogRecord> all = readAll(file);
        for (int stop = 0; stop <= all.size(); stop++) {
            CatalogPosition saved;
            try (CatalogReader first = CatalogReader.open(spec(file))) {
                for (int i = 0; i < stop; i++) {
                    first.next();
                }
                saved = first.position();
            }
            // when
            List<CatalogRecord> rest;
            try (CatalogReader resumed = CatalogReader.open(file, spec(file), saved)) {
                rest = drain(resumed);
            }
            // then
            assertThat(rest).as("resumed after %d records", stop).isEqualTo(all.subList(stop, all.size()));
        }
    }

    @Test
    void resumingBeyondTheFileFails() throws Exception {
        // given
        Path file = write(HEADER + "a1,T,c,k\n");
        // when / then
        assertThatThrownBy(() -> CatalogReader.open(file, spec(file), new CatalogPosition(10_000, 3, 1)))
                .isInstanceOf(CatalogException.class)
                .hasMessageContaining("cannot resume at byte offset 10000");
    }

    @Test
    void itemReaderSavesAndResumesItsPosition() throws Exception {
        // given
        Path file = write(HEADER + "a1,T,c,k\na2,T,c,k\n,T,c,k\na4,T,c,k\n");
        ExecutionContext ctx = new ExecutionContext();
        CatalogItemReader first = new CatalogItemReader(spec(file));
        first.open(ctx);
        first.read();
        first.read();
        first.update(ctx);
        first.read(); // read but not committed: must be read again
        first.close();
        // when
        CatalogItemReader second = new CatalogItemReader(spec(file));
        second.open(ctx);
        List<CatalogRecord> rest = new ArrayList<>();
        CatalogRecord r;
        while ((r = second.read()) != null) {
            rest.add(r);
        }
        second.update(ctx);
        second.close();
        // then
        assertThat(ctx.getLong("catalog.reader.offset")).isEqualTo(Files.size(file));
        assertThat(ctx.getLong("catalog.reader.index")).isEqualTo(4);
        assertThat(rest).extracting(CatalogRecord::line).containsExactly(4L, 5L);
        assertThat(rest.get(0)).isInstanceOf(Reject.class);
        assertThat(rest.get(1)).isEqualTo(new CatalogRow(5, 3, "a4", List.of("a4", "T", "c", "k")));
    }

    @Test
    void itemReaderReportsHeaderErrorsAsItemStreamException() throws Exception {
        // given
        Path file = write("");
        CatalogItemReader reader = new CatalogItemReader(spec(file));
        // when / then
        assertThatThrownBy(() -> reader.open(new ExecutionContext()))
                .isInstanceOf(ItemStreamException.class)
                .hasMessageContaining("empty file");
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource(
            delimiter = '|',
            quoteCharacter = '`',
            value = {
                "empty file          | ``                                 | empty file: a header row is required",
                "only blank lines    | \\n\\n                             | empty file: a header row is required",
                "duplicate names     | id,title,content,category,title\\n | duplicate column name(s) in header: 'title'; header is [id, title, content, category, title]",
                "no id column        | ident,title,content,category\\n    | id column 'id' is not in the header; header is [ident, title, content, category]",
                "no content column   | id,title,body,category\\n          | content column 'content' is not in the header; header is [id, title, body, category]",
                "no category column  | id,title,content\\n                | category column 'category' is not in the header; header is [id, title, content]",
                "no source column    | id,content,category\\n             | source column 'title' is not in the header; header is [id, content, category]",
                "unterminated header | id,\"title\\n                      | header has an unterminated quoted field (lines 1-1)",
            })
    void headerErrorsNameTheFileAndTheProblem(String name, String escaped, String message) throws Exception {
        // given
        Path file = write(escaped.replace("\\n", "\n"));
        // when / then
        assertThatThrownBy(() -> CatalogReader.open(spec(file)))
                .isInstanceOf(CatalogException.class)
                .hasMessage(file + ": " + message);
    }

    @Test
    void headerNotValidUtf8IsAnError() throws Exception {
        // given
        Path file = writeBytes(new byte[] {'i', 'd', ',', (byte) 0xFF, '\n'});
        // when / then
        assertThatThrownBy(() -> CatalogReader.open(spec(file)))
                .isInstanceOf(CatalogException.class)
                .hasMessage(file + ": header is not valid UTF-8: invalid byte sequence at byte offset 3");
    }

    @Test
    void missingFileIsAnError() {
        // given
        Path file = dir.resolve("nope.csv");
        // when / then
        assertThatThrownBy(() -> CatalogReader.open(spec(file)))
                .isInstanceOf(CatalogException.class)
                .hasMessage(file + ": file not found");
    }
}
