package dev.santabatch.catalog;

import java.util.List;

/** The catalog's RFC 4180 field parser, for other readers of files split by {@link CsvRecordSplitter}. */
public final class CsvRecords {

    private CsvRecords() {}

    /**
     * The fields of one decoded record, exactly as written (quotes removed, {@code ""} unescaped).
     *
     * @throws IllegalArgumentException for an unterminated quote or text after a closing quote
     */
    public static List<String> fields(String record) {
        try {
            return CsvFieldParser.parse(record);
        } catch (CsvFieldParser.MalformedRecordException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }
}
