package dev.santabatch.ingest;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVPrinter;
import org.apache.commons.csv.QuoteMode;
import org.jspecify.annotations.Nullable;

/**
 * Writes a CSV file (UTF-8 without BOM, RFC 4180: comma, double quotes, minimal quoting, records
 * ended by CRLF as RFC 4180 says) that {@link CatalogReader} reads back to exactly the same values:
 * quotes, commas, CR and LF, non-ASCII and leading / trailing spaces included. Fields holding CR or
 * LF are quoted, so their line breaks are kept byte for byte.
 *
 * <p>Atomic: everything goes to {@code <name>.tmp} in the target's folder; {@link #commit()} moves
 * it to the final name ({@code ATOMIC_MOVE}, {@code REPLACE_EXISTING}). {@link #close()} without
 * {@link #commit()} deletes the temporary file, so a failed export (an exception inside
 * try-with-resources) never leaves a file, whole or half, under the final name.
 *
 * <p>Spreadsheet neutralisation ({@link #neutralising}; for files opened by people in a
 * spreadsheet, such as escalations.csv and audit.csv, never for catalog.csv): a data cell starting
 * with {@code =}, {@code +}, {@code -}, {@code @}, TAB or CR gets a leading {@code '} so it is not
 * run as a formula. Header names are written as given. Not thread-safe.
 */
public final class CatalogCsvWriter implements AutoCloseable {

    /** RFC 4180 with minimal quoting and CRLF record separators. */
    static final CSVFormat FORMAT = CSVFormat.RFC4180
            .builder()
            .setQuoteMode(QuoteMode.MINIMAL)
            .setRecordSeparator("\r\n")
            .get();

    private final Path target;
    private final Path tmp;
    private final List<String> header;
    private final boolean neutralise;
    private final CSVPrinter printer;
    private boolean committed;
    private boolean closed;

    private CatalogCsvWriter(Path target, List<String> header, boolean neutralise) throws IOException {
        this.target = target;
        this.tmp = target.resolveSibling(target.getFileName() + ".tmp");
        this.header = List.copyOf(header);
        this.neutralise = neutralise;
        BufferedWriter out = new BufferedWriter(new OutputStreamWriter(
                Files.newOutputStream(tmp, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                        StandardOpenOption.WRITE),
                StandardCharsets.UTF_8.newEncoder()), 64 * 1024);
        this.printer = new CSVPrinter(out, FORMAT);
        printer.printRecord(this.header);
    }

    /** A writer for {@code target} that writes values unchanged (use for catalog.csv). */
    public static CatalogCsvWriter create(Path target, List<String> header) throws IOException {
        return new CatalogCsvWriter(target, header, false);
    }

    /** A writer for {@code target} that neutralises formula-like cells (escalations.csv, audit.csv). */
    public static CatalogCsvWriter neutralising(Path target, List<String> header) throws IOException {
        return new CatalogCsvWriter(target, header, true);
    }

    /** A writer for {@code target}, neutralising formula-like cells when {@code neutralise}. */
    public static CatalogCsvWriter create(Path target, List<String> header, boolean neutralise) throws IOException {
        return new CatalogCsvWriter(target, header, neutralise);
    }

    /** {@code value} with a leading {@code '} when it starts with =, +, -, @, TAB or CR. */
    public static String neutralise(String value) {
        if (!value.isEmpty()) {
            char c = value.charAt(0);
            if (c == '=' || c == '+' || c == '-' || c == '@' || c == '\t' || c == '\r') {
                return "'" + value;
            }
        }
        return value;
    }

    public List<String> header() {
        return header;
    }

    /** Writes one row; {@code null} is written as an empty field. */
    public void writeRow(List<? extends @Nullable Object> values) throws IOException {
        if (committed || closed) {
            throw new IllegalStateException("writer for " + target + " is already committed or closed");
        }
        if (values.size() != header.size()) {
            throw new IllegalArgumentException(
                    "row has " + values.size() + " fields, header has " + header.size() + " for " + target);
        }
        String[] cells = new String[values.size()];
        for (int i = 0; i < cells.length; i++) {
            Object v = values.get(i);
            String s = v == null ? "" : v.toString();
            cells[i] = neutralise ? neutralise(s) : s;
        }
        printer.printRecord((Object[]) cells);
    }

    /** Writes one row. */
    public void writeRow(@Nullable Object... values) throws IOException {
        writeRow(java.util.Arrays.asList(values));
    }

    /** Flushes, closes and moves the temporary file to the final name. */
    public void commit() throws IOException {
        if (committed) {
            return;
        }
        if (closed) {
            throw new IllegalStateException("writer for " + target + " was closed without commit");
        }
        closed = true;
        printer.close(true);
        Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        committed = true;
    }

    /** The final file. */
    public Path target() {
        return target;
    }

    /** Closes; when not committed, deletes the temporary file and leaves the target untouched. */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        try {
            printer.close();
        } finally {
            Files.deleteIfExists(tmp);
        }
    }
}
