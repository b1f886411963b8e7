package dev.santabatch.ingest;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import org.jspecify.annotations.Nullable;

/**
 * Splits a byte stream into raw CSV records (RFC 4180) without decoding it, so that a record
 * holding an invalid UTF-8 sequence can be rejected on its own and reading continues after it.
 *
 * <p>Rules, at the byte level (all the syntax bytes are ASCII, which never occur inside a
 * multi-byte UTF-8 sequence, so splitting bytes is safe):
 *
 * <ul>
 *   <li>fields are separated by {@code ,}; a field that <em>starts</em> with {@code "} is quoted
 *       and ends at the next lone {@code "} ({@code ""} is an escaped quote); a quote inside an
 *       unquoted field is an ordinary character;
 *   <li>outside quotes a record ends at LF; a CR directly before that LF is dropped (so LF and CRLF
 *       both end records); inside quotes CR and LF are data;
 *   <li>physical lines are counted by LF; a bare CR is data and does not start a line;
 *   <li>a UTF-8 byte order mark at offset 0 is skipped;
 *   <li>empty lines (nothing, or only CR, before the LF) are skipped, anywhere in the file: they
 *       carry no data, and a trailing blank line is what most editors leave;
 *   <li>a quoted field still open at the end of the input makes the record
 *       {@linkplain RawRecord#unterminatedQuote() unterminated}: it runs to the end of the input;
 *   <li>text between a closing quote and the next comma (spaces included) is noted, as {@link
 *       RawRecord#textAfterQuote()}; the field then reads on as unquoted.
 * </ul>
 *
 * <p>Memory is constant: at most {@code maxRecordBytes} bytes of a record are kept; longer
 * records are still scanned to their end (so line numbers and offsets stay right) but come back
 * {@linkplain RawRecord#truncated() truncated}. Not thread-safe.
 */
public final class CsvRecordSplitter implements Closeable {

    /** Default cap on the bytes of one record kept in memory (4 MiB; keeps a worst-case record well inside a 256 MB heap). */
    public static final int DEFAULT_MAX_RECORD_BYTES = 4 * 1024 * 1024;

    private static final int FIELD_START = 0;
    private static final int UNQUOTED = 1;
    private static final int QUOTED = 2;
    private static final int QUOTE_IN_QUOTED = 3;

    /**
     * One record as bytes.
     *
     * @param bytes the record's bytes without its terminating LF / CRLF (at most the cap)
     * @param firstLine 1-based physical line where the record starts
     * @param lastLine 1-based physical line of the record's last byte (its LF included)
     * @param startOffset byte offset of the record's first byte in the input
     * @param endOffset byte offset just after the record, terminator included
     * @param unterminatedQuote a quoted field was still open at the end of the input
     * @param truncated the record was longer than the cap; {@code bytes} holds only its start
     * @param textAfterQuote the 1-based number of the first field with text after its closing quote,
     *     0 when none has
     */
    public record RawRecord(
            byte[] bytes,
            long firstLine,
            long lastLine,
            long startOffset,
            long endOffset,
            boolean unterminatedQuote,
            boolean truncated,
            int textAfterQuote) {}

    private final InputStream in;
    private final int maxRecordBytes;
    private final byte[] buf = new byte[64 * 1024];
    private int bufPos;
    private int bufLen;
    private boolean eof;

    private long offset;
    private long line;

    private byte[] rec = new byte[1024];
    private int recLen;
    private boolean recTruncated;

    /** Splits {@code in} from its start: offset 0, line 1, BOM skipped. */
    public CsvRecordSplitter(InputStream in) throws IOException {
        this(in, 0, 1, DEFAULT_MAX_RECORD_BYTES);
    }

    /**
     * Splits {@code in}, whose first byte is at {@code startOffset} of the file and on physical
     * line {@code startLine}. A BOM is skipped only when {@code startOffset} is 0.
     */
    public CsvRecordSplitter(InputStream in, long startOffset, long startLine, int maxRecordBytes)
            throws IOException {
        if (startOffset < 0 || startLine < 1 || maxRecordBytes < 1) {
            throw new IllegalArgumentException(
                    "bad start: offset " + startOffset + ", line " + startLine + ", cap " + maxRecordBytes);
        }
        this.in = in;
        this.offset = startOffset;
        this.line = startLine;
        this.maxRecordBytes = maxRecordBytes;
        if (startOffset == 0) {
            skipBom();
        }
    }

    private void skipBom() throws IOException {
        while (bufLen < 3 && fillMore()) {
            // keep reading until 3 bytes or EOF
        }
        if (bufLen >= 3 && (buf[0] & 0xFF) == 0xEF && (buf[1] & 0xFF) == 0xBB && (buf[2] & 0xFF) == 0xBF) {
            bufPos = 3;
            offset = 3;
        }
    }

    /** Appends more input to the buffer (only used before the first record). */
    private boolean fillMore() throws IOException {
        int n = in.read(buf, bufLen, buf.length - bufLen);
        if (n < 0) {
            return false;
        }
        bufLen += n;
        return true;
    }

    private int readByte() throws IOException {
        if (bufPos == bufLen) {
            if (eof) {
                return -1;
            }
            int n;
            do {
                n = in.read(buf, 0, buf.length);
            } while (n == 0);
            if (n < 0) {
                eof = true;
                return -1;
            }
            bufPos = 0;
            bufLen = n;
        }
        return buf[bufPos++] & 0xFF;
    }

    private void append(int b) {
        if (recLen >= maxRecordBytes) {
            recTruncated = true;
            return;
        }
        if (recLen == rec.length) {
            rec = Arrays.copyOf(rec, (int) Math.min((long) maxRecordBytes, (long) rec.length * 2));
        }
        rec[recLen++] = (byte) b;
    }

    /** Byte offset of the next unread byte. */
    public long offset() {
        return offset;
    }

    /** Physical line (1-based) of the next unread byte. */
    public long line() {
        return line;
    }

    /** The next non-empty record, or {@code null} at the end of the input. */
    public @Nullable RawRecord next() throws IOException {
        while (true) {
            recLen = 0;
            recTruncated = false;
            long start = offset;
            long firstLine = line;
            long lastLine = line;
            int state = FIELD_START;
            boolean any = false;
            int last = -1;
            int field = 1;
            int textAfterQuote = 0;
            long textAfterQuoteEnd = -1;
            while (true) {
                int b = readByte();
                if (b < 0) {
                    break;
                }
                any = true;
                offset++;
                lastLine = line;
                if (b == '\n') {
                    line++;
                    if (state != QUOTED) {
                        if (last == '\r' && recLen > 0 && !recTruncated) {
                            recLen--; // drop the CR of CRLF
                        }
                        if (last == '\r' && textAfterQuoteEnd == offset - 1) {
                            textAfterQuote = 0; // that CR after the closing quote was the CR of CRLF
                        }
                        break;
                    }
                }
                append(b);
                last = b;
                if (state == QUOTE_IN_QUOTED && b != '"' && b != ',' && textAfterQuote == 0) {
                    textAfterQuote = field;
                    textAfterQuoteEnd = offset;
                }
                if (b == ',' && state != QUOTED) {
                    field++;
                }
                switch (state) {
                    case FIELD_START -> state = b == '"' ? QUOTED : b == ',' ? FIELD_START : UNQUOTED;
                    case UNQUOTED -> {
                        if (b == ',') {
                            state = FIELD_START;
                        }
                    }
                    case QUOTED -> {
                        if (b == '"') {
                            state = QUOTE_IN_QUOTED;
                        }
                    }
                    default -> state = b == '"' ? QUOTED : b == ',' ? FIELD_START : UNQUOTED;
                }
            }
            if (!any) {
                return null;
            }
            boolean unterminated = state == QUOTED;
            if (recLen == 0 && !recTruncated && !unterminated) {
                continue; // empty line: skipped
            }
            return new RawRecord(
                    Arrays.copyOf(rec, recLen), firstLine, lastLine, start, offset, unterminated, recTruncated,
                    textAfterQuote);
        }
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
