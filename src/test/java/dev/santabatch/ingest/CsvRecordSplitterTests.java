package dev.santabatch.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.santabatch.ingest.CsvRecordSplitter.RawRecord;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CsvRecordSplitterTests {

    private static List<RawRecord> split(byte[] bytes) throws IOException {
        return split(bytes, CsvRecordSplitter.DEFAULT_MAX_RECORD_BYTES);
    }

    private static List<RawRecord> split(byte[] bytes, int cap) throws IOException {
        List<RawRecord> out = new ArrayList<>();
        try (CsvRecordSplitter s = new CsvRecordSplitter(new ByteArrayInputStream(bytes), 0, 1, cap)) {
            RawRecord r;
            while ((r = s.next()) != null) {
                out.add(r);
            }
        }
        return out;
    }

    private static List<RawRecord> split(String text) throws IOException {
        return split(text.getBytes(StandardCharsets.UTF_8));
    }

    private static String text(RawRecord r) {
        return new String(r.bytes(), StandardCharsets.UTF_8);
    }

    @Test
    void splitsLfRecordsWithLinesAndOffsets() throws IOException {
        // given
        String csv = "a,b\n1,2\n333,4\n";
        // when
        List<RawRecord> records = split(csv);
        // then
        assertThat(records).extracting(CsvRecordSplitterTests::text).containsExactly("a,b", "1,2", "333,4");
        assertThat(records).extracting(RawRecord::firstLine).containsExactly(1L, 2L, 3L);
        assertThat(records).extracting(RawRecord::lastLine).containsExactly(1L, 2L, 3L);
        assertThat(records).extracting(RawRecord::startOffset).containsExactly(0L, 4L, 8L);
        assertThat(records).extracting(RawRecord::endOffset).containsExactly(4L, 8L, 14L);
    }

    @Test
    void crlfEndsRecordsAndIsNotPartOfTheRecord() throws IOException {
        // given
        String csv = "a,b\r\n1,2\r\n3,4";
        // when
        List<RawRecord> records = split(csv);
        // then
        assertThat(records).extracting(CsvRecordSplitterTests::text).containsExactly("a,b", "1,2", "3,4");
        assertThat(records).extracting(RawRecord::endOffset).containsExactly(5L, 10L, 13L);
    }

    @Test
    void quotedFieldMayHoldNewlinesCommasAndEscapedQuotes() throws IOException {
        // given
        String csv = "h1,h2\n1,\"x\r\ny\nz, \"\"q\"\"\"\n2,after\n";
        // when
        List<RawRecord> records = split(csv);
        // then
        assertThat(records).hasSize(3);
        assertThat(text(records.get(1))).isEqualTo("1,\"x\r\ny\nz, \"\"q\"\"\"");
        assertThat(records.get(1).firstLine()).isEqualTo(2);
        assertThat(records.get(1).lastLine()).isEqualTo(4);
        assertThat(records.get(2).firstLine()).isEqualTo(5);
        assertThat(text(records.get(2))).isEqualTo("2,after");
    }

    @Test
    void quoteInsideUnquotedFieldIsData() throws IOException {
        // given
        String csv = "a,5\" screen,b\nnext,1,2\n";
        // when
        List<RawRecord> records = split(csv);
        // then
        assertThat(records).extracting(CsvRecordSplitterTests::text).containsExactly("a,5\" screen,b", "next,1,2");
    }

    @Test
    void utf8BomIsSkipped() throws IOException {
        // given
        byte[] bom = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF};
        byte[] rest = "id,x\n1,2\n".getBytes(StandardCharsets.UTF_8);
        byte[] all = new byte[bom.length + rest.length];
        System.arraycopy(bom, 0, all, 0, 3);
        System.arraycopy(rest, 0, all, 3, rest.length);
        // when
        List<RawRecord> records = split(all);
        // then
        assertThat(text(records.get(0))).isEqualTo("id,x");
        assertThat(records.get(0).startOffset()).isEqualTo(3);
        assertThat(records.get(1).firstLine()).isEqualTo(2);
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource(
            delimiter = '|',
            quoteCharacter = '`',
            value = {
                "trailing blank line     | a\\n1\\n\\n      | 2 | 1,2",
                "blank line in middle    | a\\n\\n1\\n     | 2 | 1,3",
                "blank CRLF lines        | a\\r\\n\\r\\n1\\r\\n\\r\\n | 2 | 1,3",
                "no final newline        | a\\n1        | 2 | 1,2",
            })
    void emptyLinesAreSkippedButCounted(String name, String escaped, int count, String lines) throws IOException {
        // given
        String csv = escaped.replace("\\r", "\r").replace("\\n", "\n");
        // when
        List<RawRecord> records = split(csv);
        // then
        assertThat(records).hasSize(count);
        assertThat(records).extracting(r -> String.valueOf(r.firstLine()))
                .containsExactly(lines.split(","));
    }

    @Test
    void unterminatedQuoteRunsToEndOfInput() throws IOException {
        // given
        String csv = "h\n1,ok\n2,\"open\n3,x\n4,y\n";
        // when
        List<RawRecord> records = split(csv);
        // then
        assertThat(records).hasSize(3);
        RawRecord last = records.get(2);
        assertThat(last.unterminatedQuote()).isTrue();
        assertThat(last.firstLine()).isEqualTo(3);
        assertThat(last.lastLine()).isEqualTo(5);
        assertThat(last.endOffset()).isEqualTo(csv.length());
        assertThat(records.get(1).unterminatedQuote()).isFalse();
    }

    @Test
    void recordLongerThanCapIsTruncatedButScannedToItsEnd() throws IOException {
        // given
        String csv = "h\n" + "x".repeat(100) + "\nnext\n";
        // when
        List<RawRecord> records = split(csv.getBytes(StandardCharsets.UTF_8), 10);
        // then
        assertThat(records.get(1).truncated()).isTrue();
        assertThat(records.get(1).bytes()).hasSize(10);
        assertThat(records.get(2).firstLine()).isEqualTo(3);
        assertThat(text(records.get(2))).isEqualTo("next");
        assertThat(records.get(2).truncated()).isFalse();
    }

    @Test
    void startsAtAGivenOffsetAndLine() throws IOException {
        // given: the bytes after a header "h\n" that was 2 bytes long
        byte[] tail = "1,a\n2,b\n".getBytes(StandardCharsets.UTF_8);
        // when
        List<RawRecord> records = new ArrayList<>();
        try (CsvRecordSplitter s = new CsvRecordSplitter(new ByteArrayInputStream(tail), 2, 2, 1024)) {
            RawRecord r;
            while ((r = s.next()) != null) {
                records.add(r);
            }
        }
        // then
        assertThat(records).extracting(RawRecord::startOffset).containsExactly(2L, 6L);
        assertThat(records).extracting(RawRecord::firstLine).containsExactly(2L, 3L);
    }
}
