package dev.santabatch.llm.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Removes credentials from text that may reach a log line or an exception message. The secrets
 * are the values of a request's credential headers (and the token after {@code Bearer }); a
 * server that echoes the key in an error body does not get it into our messages.
 */
final class Redactor {

    static final String MASK = "***";

    private static final List<String> SECRET_HEADER_WORDS =
            List.of("auth", "api-key", "api_key", "apikey", "token", "secret", "password", "credential", "cookie");

    private final List<String> secrets;

    private Redactor(List<String> secrets) {
        this.secrets = secrets;
    }

    static boolean isSecretHeader(String name) {
        String n = name.toLowerCase(Locale.ROOT);
        return SECRET_HEADER_WORDS.stream().anyMatch(n::contains);
    }

    static Redactor forHeaders(Map<String, List<String>> headers) {
        List<String> secrets = new ArrayList<>();
        headers.forEach((name, values) -> {
            if (name != null && values != null && isSecretHeader(name)) {
                for (String v : values) {
                    if (v == null || v.isBlank()) {
                        continue;
                    }
                    secrets.add(v);
                    int space = v.indexOf(' ');
                    if (space > 0 && space < v.length() - 1) {
                        secrets.add(v.substring(space + 1).strip());
                    }
                }
            }
        });
        // longest first, so "Bearer key" is replaced before "key"
        secrets.sort((a, b) -> Integer.compare(b.length(), a.length()));
        return new Redactor(List.copyOf(secrets));
    }

    String redact(String text) {
        if (text == null) {
            return "";
        }
        String out = text;
        for (String s : secrets) {
            if (s.length() >= 4) {
                out = out.replace(s, MASK);
            }
        }
        return out;
    }

    /** Headers for a log line: credential headers fully masked. */
    static String formatHeaders(Map<String, List<String>> headers) {
        StringBuilder sb = new StringBuilder();
        headers.forEach((name, values) -> {
            if (sb.length() > 0) {
                sb.append(", ");
            }
            sb.append(name).append(": ").append(isSecretHeader(name) ? MASK : String.join(",", values));
        });
        return sb.toString();
    }
}
