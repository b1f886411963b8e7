package dev.santabatch.model;

import dev.santabatch.model.http.HttpStatusException;
import dev.santabatch.model.http.HttpTransportException;
import dev.santabatch.model.http.Redactor;
import java.io.IOException;
import java.net.http.HttpTimeoutException;
import java.nio.channels.UnresolvedAddressException;
import java.time.Duration;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;

/**
 * Maps what a langchain4j call threw to an {@link ErrorKind}, by type (never by message):
 * langchain4j wraps our {@link HttpStatusException} in its own typed exceptions as the cause, so
 * the whole cause chain is searched.
 */
final class Failures {

    /**
     * One classified failure: kind, the server's requested wait, a message for people (redacted of
     * anything shaped like an API key), and the HTTP status (0 when there was no HTTP answer).
     */
    public record Failure(ErrorKind kind, Optional<Duration> retryAfter, String message, int status) {

        public Failure {
            message = Redactor.redactKeyShapes(message);
        }

        Failure(ErrorKind kind, Optional<Duration> retryAfter, String message) {
            this(kind, retryAfter, message, 0);
        }

        /** What the circuit breaker tallies: the HTTP status, else the kind's label ({@code connection}, {@code timeout}). */
        public String seen() {
            return status > 0 ? Integer.toString(status) : kind.label();
        }
    }

    private Failures() {}

    public static Failure classify(Throwable thrown) {
        Set<Throwable> seen = new HashSet<>();
        for (Throwable t = thrown; t != null && seen.add(t); t = t.getCause()) {
            if (t instanceof HttpStatusException h) {
                return new Failure(kindOf(h), h.retryAfter(), "HTTP " + h.statusCode() + ": " + brief(h.getMessage()), h.statusCode());
            }
            if (t instanceof HttpTransportException h) {
                return new Failure(h.timedOut() ? ErrorKind.TIMEOUT : ErrorKind.CONNECTION, Optional.empty(), h.getMessage());
            }
        }
        seen.clear();
        for (Throwable t = thrown; t != null && seen.add(t); t = t.getCause()) {
            if (t instanceof HttpTimeoutException || t instanceof dev.langchain4j.exception.TimeoutException) {
                return new Failure(ErrorKind.TIMEOUT, Optional.empty(), "timeout");
            }
            if (t instanceof IOException || t instanceof UnresolvedAddressException
                    || t instanceof dev.langchain4j.exception.UnresolvedModelServerException) {
                return new Failure(ErrorKind.CONNECTION, Optional.empty(), t.getClass().getSimpleName());
            }
            if (t instanceof com.fasterxml.jackson.core.JsonProcessingException) {
                return new Failure(ErrorKind.MALFORMED_RESPONSE, Optional.empty(), "the response is not a chat completion");
            }
            if (t instanceof dev.langchain4j.exception.InternalServerException) {
                return new Failure(ErrorKind.SERVER_ERROR, Optional.empty(), brief(t.getMessage()));
            }
        }
        return new Failure(ErrorKind.UNEXPECTED, Optional.empty(), thrown.getClass().getName());
    }

    /**
     * The error kind of a non-2xx answer: by its status, except that a client error whose body
     * carries the OpenAI error code {@code model_not_found} is an unknown model whatever its status
     * (some servers and proxies answer it with 400, not 404).
     */
    public static ErrorKind kindOf(HttpStatusException h) {
        ErrorKind byStatus = kindOf(h.statusCode());
        if (byStatus == ErrorKind.BAD_REQUEST && h.errorCode().filter(MODEL_NOT_FOUND_CODE::equals).isPresent()) {
            return ErrorKind.MODEL_NOT_FOUND;
        }
        return byStatus;
    }

    /** OpenAI's error code for a model the endpoint does not serve (or the key may not use). */
    static final String MODEL_NOT_FOUND_CODE = "model_not_found";

    /** The error kind of a non-2xx status. */
    public static ErrorKind kindOf(int status) {
        if (status == 429) {
            return ErrorKind.RATE_LIMITED;
        }
        if (status == 408) {
            return ErrorKind.TIMEOUT;
        }
        if (status == 401 || status == 403) {
            return ErrorKind.AUTH;
        }
        if (status == 404) {
            return ErrorKind.MODEL_NOT_FOUND;
        }
        if (status >= 500) {
            return ErrorKind.SERVER_ERROR;
        }
        return ErrorKind.BAD_REQUEST;
    }

    private static String brief(String s) {
        if (s == null) {
            return "";
        }
        String one = s.replaceAll("\\s+", " ").strip();
        return one.length() > 300 ? one.substring(0, 300) + "..." : one;
    }
}
