package dev.santabatch.review;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Jackson-free reader and writer of the review contract JSON. The reader is a small strict JSON
 * parser (RFC 8259 values) followed by a strict mapping: {@code verdict} and {@code checks} are
 * required, {@code critical_issues} and {@code suggestions} default to empty, a check needs
 * {@code criterion} and {@code result} ({@code detail} defaults to empty), and unknown verdict or
 * result values are errors. Unknown keys are ignored (models like to add a "summary").
 */
final class ReviewJson {

    private ReviewJson() {}

    static String write(Review review) {
        StringBuilder sb = new StringBuilder(256);
        sb.append("{\"verdict\":");
        string(sb, review.verdict().name());
        sb.append(",\"checks\":[");
        for (int i = 0; i < review.checks().size(); i++) {
            Check c = review.checks().get(i);
            if (i > 0) {
                sb.append(',');
            }
            sb.append("{\"criterion\":");
            string(sb, c.criterion());
            sb.append(",\"result\":");
            string(sb, c.result().name());
            sb.append(",\"detail\":");
            string(sb, c.detail());
            sb.append('}');
        }
        sb.append("],\"critical_issues\":");
        strings(sb, review.criticalIssues());
        sb.append(",\"suggestions\":");
        strings(sb, review.suggestions());
        return sb.append('}').toString();
    }

    private static void strings(StringBuilder sb, List<String> values) {
        sb.append('[');
        for (int i = 0; i < values.size(); i++) {
            if (i > 0) {
                sb.append(',');
            }
            string(sb, values.get(i));
        }
        sb.append(']');
    }

    private static void string(StringBuilder sb, String s) {
        sb.append('"');
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            switch (ch) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                case '\b' -> sb.append("\\b");
                case '\f' -> sb.append("\\f");
                default -> {
                    if (ch < 0x20) {
                        sb.append(String.format("\\u%04x", (int) ch));
                    } else {
                        sb.append(ch);
                    }
                }
            }
        }
        sb.append('"');
    }

    static Review read(String json) throws MalformedReviewException {
        if (json == null) {
            throw new MalformedReviewException("no answer");
        }
        Object root;
        try {
            Parser p = new Parser(json);
            root = p.value();
            p.skipWhitespace();
            if (!p.atEnd()) {
                throw p.error("unexpected text after the JSON value");
            }
        } catch (IllegalArgumentException e) {
            throw new MalformedReviewException("not JSON: " + e.getMessage());
        }
        Map<?, ?> obj = object(root, "the review");
        Verdict verdict = verdict(obj.get("verdict"));
        Object checksValue = obj.get("checks");
        if (checksValue == null) {
            throw new MalformedReviewException("missing 'checks'");
        }
        List<Check> checks = new ArrayList<>();
        int index = 0;
        for (Object c : array(checksValue, "'checks'")) {
            checks.add(check(c, index++));
        }
        List<String> issues = stringList(obj.get("critical_issues"), "critical_issues");
        List<String> suggestions = stringList(obj.get("suggestions"), "suggestions");
        return new Review(verdict, checks, issues, suggestions);
    }

    private static Verdict verdict(Object v) throws MalformedReviewException {
        if (v == null) {
            throw new MalformedReviewException("missing 'verdict'");
        }
        if (!(v instanceof String s)) {
            throw new MalformedReviewException("'verdict' is not a string");
        }
        for (Verdict verdict : Verdict.values()) {
            if (verdict.name().equals(s)) {
                return verdict;
            }
        }
        throw new MalformedReviewException(InvalidReviewKind.UNKNOWN_VERDICT, "unknown verdict '" + s + "' (PASS or FAIL)");
    }

    private static Check check(Object value, int index) throws MalformedReviewException {
        String where = "checks[" + index + "]";
        Map<?, ?> obj = object(value, where);
        Object criterion = obj.get("criterion");
        if (!(criterion instanceof String c) || c.isBlank()) {
            throw new MalformedReviewException(where + ": missing or non-string 'criterion'");
        }
        Object result = obj.get("result");
        if (!(result instanceof String r)) {
            throw new MalformedReviewException(where + ": missing or non-string 'result'");
        }
        CheckResult checkResult = null;
        for (CheckResult cr : CheckResult.values()) {
            if (cr.name().equals(r)) {
                checkResult = cr;
            }
        }
        if (checkResult == null) {
            throw new MalformedReviewException(InvalidReviewKind.UNKNOWN_VERDICT,
                    where + ": unknown result '" + r + "' (PASS, FAIL or NOT_EVALUATED)");
        }
        Object detail = obj.get("detail");
        if (detail != null && !(detail instanceof String)) {
            throw new MalformedReviewException(where + ": 'detail' is not a string");
        }
        return new Check(c.strip(), checkResult, detail == null ? "" : (String) detail);
    }

    private static Map<?, ?> object(Object v, String what) throws MalformedReviewException {
        if (v instanceof Map<?, ?> m) {
            return m;
        }
        throw new MalformedReviewException(what + " is not a JSON object");
    }

    private static List<?> array(Object v, String what) throws MalformedReviewException {
        if (v instanceof List<?> l) {
            return l;
        }
        throw new MalformedReviewException(what + " is not a JSON array");
    }

    private static List<String> stringList(Object v, String key) throws MalformedReviewException {
        if (v == null) {
            return List.of();
        }
        List<String> out = new ArrayList<>();
        for (Object o : array(v, "'" + key + "'")) {
            if (!(o instanceof String s)) {
                throw new MalformedReviewException("'" + key + "' holds a non-string value");
            }
            out.add(s);
        }
        return out;
    }

    /** Recursive-descent JSON parser: objects to LinkedHashMap, arrays to ArrayList, JSON null to NULL. */
    private static final class Parser {

        static final Object NULL = new Object();

        private final String s;
        private int pos;
        private int depth;

        Parser(String s) {
            this.s = s;
        }

        boolean atEnd() {
            return pos >= s.length();
        }

        IllegalArgumentException error(String message) {
            return new IllegalArgumentException(message + " at offset " + pos);
        }

        void skipWhitespace() {
            while (pos < s.length()) {
                char c = s.charAt(pos);
                if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
                    pos++;
                } else {
                    break;
                }
            }
        }

        Object value() {
            skipWhitespace();
            if (atEnd()) {
                throw error("unexpected end");
            }
            char c = s.charAt(pos);
            return switch (c) {
                case '{' -> object();
                case '[' -> array();
                case '"' -> string();
                case 't' -> literal("true", Boolean.TRUE);
                case 'f' -> literal("false", Boolean.FALSE);
                case 'n' -> literal("null", NULL);
                default -> {
                    if (c == '-' || (c >= '0' && c <= '9')) {
                        yield number();
                    }
                    throw error("unexpected character '" + c + "'");
                }
            };
        }

        private void enter() {
            if (++depth > 64) {
                throw error("nesting too deep");
            }
        }

        private Map<String, Object> object() {
            enter();
            pos++; // {
            Map<String, Object> map = new LinkedHashMap<>();
            skipWhitespace();
            if (peek() == '}') {
                pos++;
                depth--;
                return map;
            }
            while (true) {
                skipWhitespace();
                if (peek() != '"') {
                    throw error("expected a string key");
                }
                String key = string();
                skipWhitespace();
                expect(':');
                Object v = value();
                if (map.containsKey(key)) {
                    throw error("duplicate key '" + key + "'");
                }
                map.put(key, v == NULL ? null : v);
                skipWhitespace();
                char c = next();
                if (c == '}') {
                    depth--;
                    return map;
                }
                if (c != ',') {
                    throw error("expected ',' or '}'");
                }
            }
        }

        private List<Object> array() {
            enter();
            pos++; // [
            List<Object> list = new ArrayList<>();
            skipWhitespace();
            if (peek() == ']') {
                pos++;
                depth--;
                return list;
            }
            while (true) {
                Object v = value();
                list.add(v == NULL ? null : v);
                skipWhitespace();
                char c = next();
                if (c == ']') {
                    depth--;
                    return list;
                }
                if (c != ',') {
                    throw error("expected ',' or ']'");
                }
            }
        }

        private String string() {
            pos++; // opening quote
            StringBuilder sb = new StringBuilder();
            while (true) {
                if (atEnd()) {
                    throw error("unterminated string");
                }
                char c = s.charAt(pos++);
                if (c == '"') {
                    return sb.toString();
                }
                if (c < 0x20) {
                    throw error("control character in string");
                }
                if (c != '\\') {
                    sb.append(c);
                    continue;
                }
                char e = next();
                switch (e) {
                    case '"' -> sb.append('"');
                    case '\\' -> sb.append('\\');
                    case '/' -> sb.append('/');
                    case 'b' -> sb.append('\b');
                    case 'f' -> sb.append('\f');
                    case 'n' -> sb.append('\n');
                    case 'r' -> sb.append('\r');
                    case 't' -> sb.append('\t');
                    case 'u' -> {
                        if (pos + 4 > s.length()) {
                            throw error("bad unicode escape");
                        }
                        try {
                            sb.append((char) Integer.parseInt(s.substring(pos, pos + 4), 16));
                        } catch (NumberFormatException ex) {
                            throw error("bad unicode escape");
                        }
                        pos += 4;
                    }
                    default -> throw error("bad escape '\\" + e + "'");
                }
            }
        }

        private Object number() {
            int start = pos;
            if (peek() == '-') {
                pos++;
            }
            while (!atEnd() && "0123456789.eE+-".indexOf(s.charAt(pos)) >= 0) {
                pos++;
            }
            String text = s.substring(start, pos);
            if (!text.matches("-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][+-]?[0-9]+)?")) {
                throw error("bad number '" + text + "'");
            }
            return Double.valueOf(text);
        }

        private Object literal(String word, Object value) {
            if (!s.startsWith(word, pos)) {
                throw error("unexpected literal");
            }
            pos += word.length();
            return value;
        }

        private char peek() {
            if (atEnd()) {
                throw error("unexpected end");
            }
            return s.charAt(pos);
        }

        private char next() {
            char c = peek();
            pos++;
            return c;
        }

        private void expect(char c) {
            if (next() != c) {
                throw error("expected '" + c + "'");
            }
        }
    }
}
