package dev.santabatch.ingest;

import dev.santabatch.ingest.CsvRecordSplitter.RawRecord;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.util.Iterator;
import java.util.List;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVRecord;

/**
 * The fields of records split by {@link CsvRecordSplitter}, parsed by commons-csv ({@link
 * CSVFormat#RFC4180}): one parser reads the records one at a time, as they are handed to {@link
 * #parse} (a parser per record would cost about 6 µs a record). Not thread-safe.
 */
public final class CsvFields {

    /**
     * Stands in for CR while commons-csv parses: outside quotes it would end the record there, but
     * the splitter has ended the record already and a bare CR is data. A lone surrogate never
     * occurs in text decoded from UTF-8.
     */
    private static final char CR_STAND_IN = '\uDFFF';

    /** The record being parsed, then an LF, which ends it for the parser. */
    private final class Feed extends Reader {
        private String text = "";
        private int pos;

        @Override
        public int read(char[] buf, int off, int len) {
            if (pos == text.length()) {
                return -1;
            }
            int n = Math.min(len, text.length() - pos);
            text.getChars(pos, pos + n, buf, off);
            pos += n;
            return n;
        }

        @Override
        public void close() {}
    }

    private Feed feed;
    private Iterator<CSVRecord> records;

    public CsvFields() {
        open();
    }

    private void open() {
        feed = new Feed();
        try {
            records = CSVFormat.RFC4180.parse(feed).iterator();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The fields of {@code record}, decoded as {@code text}, exactly as written (quotes removed,
     * {@code ""} unescaped, no trimming); a quote inside an unquoted field is an ordinary character.
     *
     * @throws IllegalArgumentException for text after a closing quote, or an unterminated quote
     */
    public List<String> parse(RawRecord record, String text) {
        if (record.textAfterQuote() > 0) {
            throw new IllegalArgumentException(
                    "unexpected character after the closing quote of field " + record.textAfterQuote());
        }
        boolean cr = text.indexOf('\r') >= 0;
        feed.text = (cr ? text.replace('\r', CR_STAND_IN) : text) + "\n";
        feed.pos = 0;
        List<String> values;
        try {
            values = records.next().toList();
        } catch (RuntimeException e) {
            open(); // the parser met the end of its input: a quote left open
            throw new IllegalArgumentException(e.getMessage(), e);
        }
        if (cr) {
            values.replaceAll(v -> v.replace(CR_STAND_IN, '\r'));
        }
        return values;
    }
}
