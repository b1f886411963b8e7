package dev.santabatch.model.http;

import dev.langchain4j.exception.HttpException;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * A non-2xx HTTP answer with its status code and headers, so that the call governor can honour
 * {@code Retry-After}. Extends langchain4j's {@link HttpException}, so langchain4j's exception
 * mapper still recognises it (and wraps it, e.g. in a {@code RateLimitException}, as its cause).
 * The body is already redacted of the request's credentials and shortened.
 */
public final class HttpStatusException extends HttpException {

    private final Map<String, List<String>> headers;

    public HttpStatusException(int statusCode, Map<String, List<String>> headers, String redactedBody) {
        super(statusCode, redactedBody);
        TreeMap<String, List<String>> copy = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        headers.forEach((k, v) -> {
            if (k != null) {
                copy.put(k, List.copyOf(v));
            }
        });
        this.headers = copy;
    }

    /** Response headers, names case-insensitive. */
    public Map<String, List<String>> headers() {
        return headers;
    }

    /** The first value of a header, names compared ignoring case. */
    public Optional<String> header(String name) {
        List<String> values = headers.get(name);
        return values == null || values.isEmpty() ? Optional.empty() : Optional.of(values.get(0));
    }

    /**
     * The wait the server asks for: {@code retry-after-ms} (OpenAI, Azure) or {@code Retry-After}
     * as delta-seconds (fractions allowed) or an HTTP date; empty when absent or unreadable.
     */
    public Optional<Duration> retryAfter() {
        return retryAfter(header("retry-after-ms").orElse(null), header("retry-after").orElse(null));
    }

    static Optional<Duration> retryAfter(@Nullable String millis, @Nullable String value) {
        if (millis != null) {
            try {
                double ms = Double.parseDouble(millis.strip());
                if (ms >= 0 && Double.isFinite(ms)) {
                    return Optional.of(Duration.ofMillis((long) Math.ceil(ms)));
                }
            } catch (NumberFormatException ignored) {
                // fall through to Retry-After
            }
        }
        if (value == null || value.isBlank()) {
            return Optional.empty();
        }
        String v = value.strip();
        try {
            double seconds = Double.parseDouble(v);
            if (seconds >= 0 && Double.isFinite(seconds)) {
                return Optional.of(Duration.ofMillis((long) Math.ceil(seconds * 1000)));
            }
            return Optional.empty();
        } catch (NumberFormatException notSeconds) {
            try {
                ZonedDateTime at = ZonedDateTime.parse(v, DateTimeFormatter.RFC_1123_DATE_TIME.withLocale(Locale.ROOT));
                Duration d = Duration.between(ZonedDateTime.now(at.getZone()), at);
                return Optional.of(d.isNegative() ? Duration.ZERO : d);
            } catch (DateTimeParseException notDate) {
                return Optional.empty();
            }
        }
    }

    /** The OpenAI error code of the body ({@code "code": "model_not_found"}), if any. */
    public Optional<String> errorCode() {
        String body = getMessage();
        if (body == null) {
            return Optional.empty();
        }
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("\"code\"\\s*:\\s*\"([^\"]{1,64})\"").matcher(body);
        return m.find() ? Optional.of(m.group(1)) : Optional.empty();
    }
}
