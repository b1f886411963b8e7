package dev.santabatch.model.http;

import java.time.Duration;
import java.util.Optional;

/** Test access to package-private parsing in the internal package. */
public final class HttpStatusExceptionAccess {

    private HttpStatusExceptionAccess() {}

    public static Optional<Duration> retryAfter(String millis, String value) {
        return HttpStatusException.retryAfter(millis, value);
    }
}
