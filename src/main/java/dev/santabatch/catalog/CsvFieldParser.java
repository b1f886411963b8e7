package dev.santabatch.catalog;

import java.util.ArrayList;
import java.util.List;

/**
 * Parses the fields of one decoded CSV record (without its line terminator), with the same
 * quoting rules as {@link CsvRecordSplitter}: a field starting with {@code "} is quoted, {@code
 * ""} inside it is a quote, and CR / LF / commas inside it are data; a quote inside an unquoted
 * field is an ordinary character. Field values are returned exactly (no trimming).
 */
final class CsvFieldParser {

    /** A record whose quoting is broken. */
    static final class MalformedRecordException extends Exception {
        MalformedRecordException(String message) {
            super(message);
        }
    }

    private CsvFieldParser() {}

    static List<String> parse(String s) throws MalformedRecordException {
        List<String> fields = new ArrayList<>();
        int n = s.length();
        int i = 0;
        StringBuilder sb = new StringBuilder();
        while (true) {
            if (i < n && s.charAt(i) == '"') {
                sb.setLength(0);
                i++;
                while (true) {
                    if (i >= n) {
                        throw new MalformedRecordException("unterminated quoted field " + (fields.size() + 1));
                    }
                    char c = s.charAt(i);
                    if (c == '"') {
                        if (i + 1 < n && s.charAt(i + 1) == '"') {
                            sb.append('"');
                            i += 2;
                        } else {
                            i++;
                            break;
                        }
                    } else {
                        sb.append(c);
                        i++;
                    }
                }
                fields.add(sb.toString());
                if (i == n) {
                    return fields;
                }
                if (s.charAt(i) != ',') {
                    throw new MalformedRecordException(
                            "unexpected character after the closing quote of field " + fields.size());
                }
                i++;
            } else {
                int j = s.indexOf(',', i);
                if (j < 0) {
                    fields.add(s.substring(i));
                    return fields;
                }
                fields.add(s.substring(i, j));
                i = j + 1;
            }
        }
    }
}
