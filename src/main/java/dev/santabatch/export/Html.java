package dev.santabatch.export;

import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * The one escaping function of {@code report.html}, and the number formats it prints. Every
 * string that reaches the page (catalog text, model answers, issues, ids, labels, keys) goes
 * through {@link #text}: it escapes {@code & < > " '}, so the result is safe both as element
 * content and inside a quoted attribute, and replaces the characters HTML forbids (C0 controls but
 * tab, line feed and carriage return; lone surrogates; U+FFFE, U+FFFF) with U+FFFD.
 */
final class Html {

    private Html() {}

    /** {@code value} as HTML text: {@code null} as the empty string. */
    static String text(@Nullable Object value) {
        String s = value == null ? "" : String.valueOf(value);
        StringBuilder b = new StringBuilder(s.length() + 16);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '&' -> b.append("&amp;");
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                case '"' -> b.append("&quot;");
                case '\'' -> b.append("&#39;");
                default -> {
                    if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                        b.append(c).append(s.charAt(++i));
                    } else if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') || Character.isSurrogate(c)
                            || c == 0xFFFE || c == 0xFFFF || (c >= 0x7F && c <= 0x9F)) {
                        b.append('\uFFFD');
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        return b.toString();
    }

    /** A share as a percentage with one decimal ({@code 0.913} → {@code 91.3 %}); "n/a" when not a number. */
    static String pct(@Nullable Object v) {
        return v instanceof Number n ? String.format(Locale.ROOT, "%.1f %%", n.doubleValue() * 100) : "n/a";
    }

    /** A count with thousands separators; a fraction with up to 4 significant decimals; else the value as text. */
    static String num(@Nullable Object v) {
        if (v instanceof Integer || v instanceof Long) {
            return String.format(Locale.ROOT, "%,d", ((Number) v).longValue());
        }
        if (v instanceof Number n) {
            double d = n.doubleValue();
            if (d == Math.rint(d) && Math.abs(d) < 1e15) {
                return String.format(Locale.ROOT, "%,d", (long) d);
            }
            return String.format(Locale.ROOT, Math.abs(d) >= 100 ? "%,.1f" : Math.abs(d) >= 1 ? "%.2f" : "%.4f", d);
        }
        return v == null ? "n/a" : String.valueOf(v);
    }

    /** An estimated cost in the job file's currency units. */
    static String money(@Nullable Object v) {
        return v instanceof Number n ? String.format(Locale.ROOT, "%.4f", n.doubleValue()) : "n/a";
    }

    static double number(@Nullable Object v) {
        return v instanceof Number n ? n.doubleValue() : 0;
    }

    static long count(@Nullable Object v) {
        return v instanceof Number n ? n.longValue() : 0;
    }

    /** A report key for people: {@code first_pass_rate} → {@code first pass rate}. */
    static String key(String k) {
        return text(k.replace('_', ' '));
    }
}
