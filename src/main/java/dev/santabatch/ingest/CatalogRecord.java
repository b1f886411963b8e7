package dev.santabatch.ingest;

import java.util.List;

/** One data record of the input catalog: a readable {@link CatalogRow} or a {@link Reject}. */
public sealed interface CatalogRecord permits CatalogRecord.CatalogRow, CatalogRecord.Reject {

    /** 1-based physical line where the record starts (the header is line 1). */
    long line();

    /**
     * A readable row.
     *
     * @param line 1-based physical line where the row starts
     * @param recordIndex 0-based index of the record among the data records (rows and rejects;
     *     skipped empty lines do not count)
     * @param id the value of the id column, exactly as in the file (never blank)
     * @param values every field, in header order, exactly as in the file
     */
    record CatalogRow(long line, long recordIndex, String id, List<String> values) implements CatalogRecord {
        public CatalogRow {
            values = List.copyOf(values);
        }
    }

    /**
     * A record that cannot be used.
     *
     * @param line 1-based physical line where the record starts
     * @param endLine 1-based physical line where it ends (greater than {@code line} when a quoted
     *     field spans lines, or for an unterminated quote)
     * @param reason why, e.g. {@code expected 8 fields, found 7}
     * @param raw the record's text, decoded leniently (U+FFFD for invalid bytes), truncated to
     *     {@link CatalogReader#MAX_RAW_CHARS} characters
     */
    record Reject(long line, long endLine, String reason, String raw) implements CatalogRecord {}
}
