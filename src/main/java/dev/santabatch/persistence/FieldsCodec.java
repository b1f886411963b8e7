package dev.santabatch.persistence;

import java.util.ArrayList;
import java.util.List;

/**
 * Stores a row's fields as one string, exactly: each field as {@code <length>:<value>}, length in
 * UTF-16 units. Unlike re-quoting as CSV, this cannot change a value (quotes, commas, line breaks,
 * leading spaces all survive as they are).
 */
public final class FieldsCodec {

    private FieldsCodec() {}

    public static String encode(List<String> fields) {
        int size = 0;
        for (String f : fields) {
            size += f.length() + 8;
        }
        StringBuilder sb = new StringBuilder(size);
        for (String f : fields) {
            sb.append(f.length()).append(':').append(f);
        }
        return sb.toString();
    }

    public static List<String> decode(String encoded) {
        List<String> fields = new ArrayList<>();
        int i = 0;
        while (i < encoded.length()) {
            int colon = encoded.indexOf(':', i);
            if (colon < 0) {
                throw new IllegalArgumentException("corrupt stored row at offset " + i);
            }
            int len = Integer.parseInt(encoded, i, colon, 10);
            int start = colon + 1;
            fields.add(encoded.substring(start, start + len));
            i = start + len;
        }
        return fields;
    }
}
