package dev.santabatch.model.http;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Removes credentials from text that may reach a log line or an exception message. The secrets
 * are the values of a request's credential headers (and the token after {@code Bearer }); a
 * server that echoes the key in an error body does not get it into our messages: the key, any
 * {@value #FRAGMENT}-character fragment of it (servers often echo a key shortened, e.g.
 * {@code sk-proj-ab...wxyz}), and anything shaped like an OpenAI-style key
 * ({@code sk-[A-Za-z0-9_-]{8,}}, whoever's it is) are masked as {@value #MASK}.
 */
public final class Redactor {

    static final String MASK = "***";

    /** The shortest fragment of a key that is masked wherever it appears. */
    static final int FRAGMENT = 8;

    private static final java.util.regex.Pattern KEY_SHAPE = java.util.regex.Pattern.compile("sk-[A-Za-z0-9_-]{8,}");

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
        boolean[] masked = new boolean[text.length()];
        for (String s : secrets) {
            if (s.length() >= FRAGMENT) {
                for (int i = 0; i + FRAGMENT <= s.length(); i++) {
                    mark(text, s.substring(i, i + FRAGMENT), masked);
                }
            } else if (s.length() >= 4) {
                mark(text, s, masked);
            }
        }
        return apply(text, masked);
    }

    /** Masks anything shaped like an OpenAI-style key ({@code sk-} and at least 8 more key characters). */
    public static String redactKeyShapes(String text) {
        if (text == null) {
            return "";
        }
        return apply(text, new boolean[text.length()]);
    }

    private static void mark(String text, String secret, boolean[] masked) {
        for (int at = text.indexOf(secret); at >= 0; at = text.indexOf(secret, at + 1)) {
            java.util.Arrays.fill(masked, at, at + secret.length(), true);
        }
    }

    /** The text with every masked run, and every key-shaped run, replaced by one {@link #MASK}. */
    private static String apply(String text, boolean[] masked) {
        java.util.regex.Matcher m = KEY_SHAPE.matcher(text);
        while (m.find()) {
            java.util.Arrays.fill(masked, m.start(), m.end(), true);
        }
        StringBuilder out = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            if (!masked[i]) {
                out.append(text.charAt(i));
            } else if (i == 0 || !masked[i - 1]) {
                out.append(MASK);
            }
        }
        return out.toString();
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
