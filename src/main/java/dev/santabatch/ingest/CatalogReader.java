package dev.santabatch.ingest;

import dev.santabatch.ingest.CatalogRecord.CatalogRow;
import dev.santabatch.ingest.CatalogRecord.Reject;
import dev.santabatch.ingest.CsvRecordSplitter.RawRecord;
import dev.santabatch.config.InputSpec;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.channels.Channels;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Streams a catalog CSV file (UTF-8, header row required) record by record, in constant memory.
 *
 * <p>The header (first non-empty record) must decode as UTF-8, have no duplicate names, and name
 * the id, content, category (if set) and source columns of the {@link InputSpec}; otherwise {@link
 * #open} fails with a {@link CatalogException}. Column names are matched exactly (case and spaces).
 *
 * <p>Each later record comes back from {@link #next()} as a {@link CatalogRow}, or as a {@link
 * Reject} with one of these reasons:
 *
 * <ul>
 *   <li>{@code unterminated quoted field: lines A-B} (the rest of the file is this one reject);
 *   <li>{@code invalid UTF-8 byte sequence at byte offset N} (N is the 0-based offset in the file);
 *   <li>{@code record longer than N bytes};
 *   <li>{@code malformed quoting: ...} (text between a closing quote and the next comma);
 *   <li>{@code expected 8 fields, found 7};
 *   <li>{@code missing or empty id (column 'id')} (blank after trimming);
 *   <li>{@code empty content (column 'content')} (blank after trimming).
 * </ul>
 *
 * <p>Choices: empty lines (no bytes, or only CR) are skipped anywhere in the file, not rejected
 * (a trailing newline or blank line is what editors leave; it carries no data); a line of only
 * spaces is data, so it is rejected for its field count. <strong>Duplicate ids are not detected
 * here</strong> (that would need memory proportional to the file): the item store detects them.
 *
 * <p>Restart: {@link #position()} is the position after the last record returned; {@link
 * #open(Path, InputSpec, CatalogPosition)} resumes there without rereading the rows before it (the
 * header is still read from the start of the file). Not thread-safe.
 */
public final class CatalogReader implements AutoCloseable {

    /** Rejects keep at most this many characters of the record's text. */
    public static final int MAX_RAW_CHARS = 10_000;

    private final Path file;
    private final List<String> header;
    private final Map<String, Integer> columnIndex;
    private final int idIndex;
    private final int contentIndex;
    private final String idColumn;
    private final String contentColumn;
    private final long dataStartOffset;
    private final CsvRecordSplitter splitter;
    private final CsvFields fields = new CsvFields();
    private final CharsetDecoder decoder = StandardCharsets.UTF_8
            .newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT);
    private CatalogPosition position;

    private CatalogReader(
            Path file,
            List<String> header,
            Map<String, Integer> columnIndex,
            InputSpec spec,
            long dataStartOffset,
            CsvRecordSplitter splitter,
            CatalogPosition position) {
        this.file = file;
        this.header = header;
        this.columnIndex = columnIndex;
        this.idColumn = spec.idColumn();
        this.contentColumn = spec.contentColumn();
        this.idIndex = columnIndex.get(idColumn);
        this.contentIndex = columnIndex.get(contentColumn);
        this.dataStartOffset = dataStartOffset;
        this.splitter = splitter;
        this.position = position;
    }

    /** Opens {@code spec.path()} from its first data record. */
    public static CatalogReader open(InputSpec spec) throws CatalogException {
        return open(spec.path(), spec, null);
    }

    /** Opens {@code file} from its first data record. */
    public static CatalogReader open(Path file, InputSpec spec) throws CatalogException {
        return open(file, spec, null);
    }

    /**
     * Opens {@code file} (mapped by {@code spec}'s columns; {@code spec.path()} is ignored) and
     * resumes at {@code from}, a {@link #position()} saved earlier on the same file, or at the first
     * data record when {@code from} is {@code null}.
     */
    public static CatalogReader open(Path file, InputSpec spec, @Nullable CatalogPosition from)
            throws CatalogException {
        InputStream in;
        try {
            in = Files.newInputStream(file);
        } catch (NoSuchFileException e) {
            throw new CatalogException(file, "file not found", e);
        } catch (IOException e) {
            throw new CatalogException(file, "cannot open: " + e.getMessage(), e);
        }
        CsvRecordSplitter splitter = null;
        boolean ok = false;
        try {
            splitter = new CsvRecordSplitter(in);
            RawRecord raw = splitter.next();
            if (raw == null) {
                throw new CatalogException(file, "empty file: a header row is required");
            }
            List<String> header = parseHeader(file, raw);
            Map<String, Integer> index = indexHeader(file, header, spec);
            long dataStart = splitter.offset();
            CatalogPosition start;
            if (from == null) {
                start = new CatalogPosition(dataStart, splitter.line(), 0);
            } else {
                long size = Files.size(file);
                if (from.byteOffset() < dataStart || from.byteOffset() > size) {
                    throw new CatalogException(file, "cannot resume at byte offset " + from.byteOffset()
                            + ": data runs from " + dataStart + " to " + size + " (was the file changed?)");
                }
                splitter.close();
                SeekableByteChannel ch = Files.newByteChannel(file, StandardOpenOption.READ);
                ch.position(from.byteOffset());
                splitter = new CsvRecordSplitter(
                        Channels.newInputStream(ch), from.byteOffset(), from.nextLine(),
                        CsvRecordSplitter.DEFAULT_MAX_RECORD_BYTES);
                start = from;
            }
            CatalogReader reader = new CatalogReader(file, header, index, spec, dataStart, splitter, start);
            ok = true;
            return reader;
        } catch (IOException e) {
            throw new CatalogException(file, "cannot read: " + e.getMessage(), e);
        } finally {
            if (!ok) {
                closeQuietly(splitter != null ? splitter : in);
            }
        }
    }

    private static void closeQuietly(AutoCloseable c) {
        try {
            c.close();
        } catch (Exception ignored) {
            // already failing
        }
    }

    private static List<String> parseHeader(Path file, RawRecord raw) throws CatalogException {
        if (raw.unterminatedQuote()) {
            throw new CatalogException(file, "header has an unterminated quoted field (lines "
                    + raw.firstLine() + "-" + raw.lastLine() + ")");
        }
        if (raw.truncated()) {
            throw new CatalogException(file, "header is longer than " + CsvRecordSplitter.DEFAULT_MAX_RECORD_BYTES + " bytes");
        }
        String text;
        try {
            text = decodeStrict(StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT), raw.bytes());
        } catch (InvalidUtf8 e) {
            throw new CatalogException(file, "header is not valid UTF-8: invalid byte sequence at byte offset "
                    + (raw.startOffset() + e.index));
        }
        try {
            return List.copyOf(new CsvFields().parse(raw, text));
        } catch (IllegalArgumentException e) {
            throw new CatalogException(file, "header has malformed quoting: " + e.getMessage());
        }
    }

    private static Map<String, Integer> indexHeader(Path file, List<String> header, InputSpec spec)
            throws CatalogException {
        Map<String, Integer> index = new HashMap<>();
        Set<String> duplicates = new LinkedHashSet<>();
        for (int i = 0; i < header.size(); i++) {
            if (index.putIfAbsent(header.get(i), i) != null) {
                duplicates.add(header.get(i));
            }
        }
        if (!duplicates.isEmpty()) {
            throw new CatalogException(file, "duplicate column name(s) in header: "
                    + String.join(", ", duplicates.stream().map(d -> "'" + d + "'").toList())
                    + "; header is " + header);
        }
        List<String[]> required = new ArrayList<>();
        required.add(new String[] {"id", spec.idColumn()});
        required.add(new String[] {"content", spec.contentColumn()});
        if (spec.categoryColumn() != null) {
            required.add(new String[] {"category", spec.categoryColumn()});
        }
        if (spec.sourceColumns() != null) {
            for (String s : spec.sourceColumns()) {
                required.add(new String[] {"source", s});
            }
        }
        for (String[] r : required) {
            if (!index.containsKey(r[1])) {
                throw new CatalogException(file, r[0] + " column '" + r[1] + "' is not in the header; header is " + header);
            }
        }
        return Map.copyOf(index);
    }

    /** The header's column names, in file order. */
    public List<String> header() {
        return header;
    }

    /** The 0-based index of {@code column} in the header, or -1. */
    public int columnIndex(String column) {
        Integer i = columnIndex.get(column);
        return i == null ? -1 : i;
    }

    /** The file being read. */
    public Path file() {
        return file;
    }

    /** Byte offset of the first data record (just after the header). */
    public long dataStartOffset() {
        return dataStartOffset;
    }

    /** The position just after the last record returned by {@link #next()} (or the start). */
    public CatalogPosition position() {
        return position;
    }

    /** The next record, or {@code null} at the end of the file. */
    public @Nullable CatalogRecord next() throws IOException {
        RawRecord raw = splitter.next();
        if (raw == null) {
            return null;
        }
        long recordIndex = position.nextRecordIndex();
        position = new CatalogPosition(raw.endOffset(), raw.lastLine() + 1, recordIndex + 1);
        return toRecord(raw, recordIndex);
    }

    private CatalogRecord toRecord(RawRecord raw, long recordIndex) {
        if (raw.unterminatedQuote()) {
            return reject(raw, "unterminated quoted field: lines " + raw.firstLine() + "-" + raw.lastLine());
        }
        if (raw.truncated()) {
            return reject(raw, "record longer than " + CsvRecordSplitter.DEFAULT_MAX_RECORD_BYTES + " bytes");
        }
        String text;
        try {
            text = decodeStrict(decoder, raw.bytes());
        } catch (InvalidUtf8 e) {
            return reject(raw, "invalid UTF-8 byte sequence at byte offset " + (raw.startOffset() + e.index));
        }
        List<String> values;
        try {
            values = fields.parse(raw, text);
        } catch (IllegalArgumentException e) {
            return reject(raw, "malformed quoting: " + e.getMessage());
        }
        if (values.size() != header.size()) {
            return reject(raw, "expected " + header.size() + " fields, found " + values.size());
        }
        String id = values.get(idIndex);
        if (id.isBlank()) {
            return reject(raw, "missing or empty id (column '" + idColumn + "')");
        }
        if (values.get(contentIndex).isBlank()) {
            return reject(raw, "empty content (column '" + contentColumn + "')");
        }
        return new CatalogRow(raw.firstLine(), recordIndex, id, values);
    }

    private static Reject reject(RawRecord raw, String reason) {
        return new Reject(raw.firstLine(), raw.lastLine(), reason, lenientText(raw.bytes()));
    }

    /** The bytes decoded with replacement characters, cut to {@link #MAX_RAW_CHARS}. */
    static String lenientText(byte[] bytes) {
        int n = Math.min(bytes.length, MAX_RAW_CHARS * 4);
        String s = new String(bytes, 0, n, StandardCharsets.UTF_8);
        if (s.length() > MAX_RAW_CHARS) {
            int cut = MAX_RAW_CHARS;
            if (Character.isHighSurrogate(s.charAt(cut - 1))) {
                cut--;
            }
            s = s.substring(0, cut);
        }
        return s;
    }

    private static final class InvalidUtf8 extends Exception {
        final int index;

        InvalidUtf8(int index) {
            super(null, null, false, false);
            this.index = index;
        }
    }

    private static String decodeStrict(CharsetDecoder decoder, byte[] bytes) throws InvalidUtf8 {
        decoder.reset();
        ByteBuffer in = ByteBuffer.wrap(bytes);
        CharBuffer out = CharBuffer.allocate(bytes.length);
        CoderResult r = decoder.decode(in, out, true);
        if (r.isError()) {
            throw new InvalidUtf8(in.position());
        }
        r = decoder.flush(out);
        if (r.isError()) {
            throw new InvalidUtf8(in.position());
        }
        out.flip();
        return out.toString();
    }

    @Override
    public void close() throws IOException {
        splitter.close();
    }
}
