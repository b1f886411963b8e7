package dev.santabatch.run;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.turbo.TurboFilter;
import ch.qos.logback.core.spi.FilterReply;
import dev.santabatch.review.ConfigurationException;
import java.util.HashSet;
import java.util.Set;
import org.slf4j.LoggerFactory;
import org.slf4j.Marker;

/**
 * Keeps Spring Batch from printing full stack traces for a configuration error (a model's 401 or
 * 404, a missing setting): a step failing on a {@link ConfigurationException} is logged by
 * Spring Batch twice with the whole trace ("Rolling back chunk transaction", "Encountered an error
 * executing step") before santa-batch's summary, which already names the model, the endpoint and
 * what to check. This filter drops exactly those events: loggers under
 * {@code org.springframework.batch} at ERROR or WARN whose exception has a
 * {@link ConfigurationException}, or another {@link dev.santabatch.review.ExpectedFailureException}
 * (a model endpoint whose circuit breaker opened, the failed-review threshold), in its cause chain. Every other error, an unexpected one
 * included, is logged as before; the {@link Launcher} logs the configuration error itself as one
 * ERROR line without a trace.
 *
 * <p>It also drops Spring's start-up failure events for a store whose H2 file is locked by another
 * process ({@link StoreLockedException}): Spring Boot's "Application run failed" with the whole
 * trace, and the context's warning before it that a JDBC connection could not be obtained (its
 * message only; for any other cause Boot's report with the trace follows it). The {@link Launcher}
 * says what happened in one line instead. Installed before the base context is refreshed, so that
 * it sees those events.
 */
final class ConfigurationErrorLogFilter extends TurboFilter {

    private static final String SPRING_BATCH = "org.springframework.batch";
    private static final String SPRING = "org.springframework";
    /** The context's own one-line warning before Spring Boot's failure report (the same exception, again). */
    private static final String CONTEXT_FAILED = "Exception encountered during context initialization";
    private static final String NO_CONNECTION = "Failed to obtain JDBC Connection";

    private ConfigurationErrorLogFilter() {}

    /**
     * Installs the filter into logback's context unless it is there already. Spring Boot resets
     * the context when an application starts, so call it after each start.
     */
    static void install() {
        if (!(LoggerFactory.getILoggerFactory() instanceof LoggerContext context)) {
            return;
        }
        synchronized (context) {
            if (context.getTurboFilterList().stream().noneMatch(f -> f instanceof ConfigurationErrorLogFilter)) {
                ConfigurationErrorLogFilter filter = new ConfigurationErrorLogFilter();
                filter.setName("santa-batch-configuration-errors");
                filter.setContext(context);
                filter.start();
                context.addTurboFilter(filter);
            }
        }
    }

    @Override
    public FilterReply decide(Marker marker, Logger logger, Level level, String format, Object[] params, Throwable t) {
        if (level == null || !level.isGreaterOrEqual(Level.WARN) || logger == null
                || !logger.getName().startsWith(SPRING)) {
            return FilterReply.NEUTRAL;
        }
        if (StoreLockedException.locked(t)
                || t == null && format != null && format.startsWith(CONTEXT_FAILED) && format.contains(NO_CONNECTION)) {
            // a store locked by another process: the Launcher says so in one line
            return FilterReply.DENY;
        }
        if (t == null || !logger.getName().startsWith(SPRING_BATCH)) {
            return FilterReply.NEUTRAL;
        }
        return expectedFailure(t) ? FilterReply.DENY : FilterReply.NEUTRAL;
    }

    /**
     * An {@link dev.santabatch.review.ExpectedFailureException} (a configuration error, an endpoint
     * whose circuit breaker is open) in the cause chain: its message says it all, in one line.
     */
    static boolean expectedFailure(Throwable t) {
        Set<Throwable> seen = new HashSet<>();
        for (Throwable c = t; c != null && seen.add(c); c = c.getCause()) {
            if (c instanceof dev.santabatch.review.ExpectedFailureException) {
                return true;
            }
        }
        return false;
    }

    static boolean configurationError(Throwable t) {
        Set<Throwable> seen = new HashSet<>();
        for (Throwable c = t; c != null && seen.add(c); c = c.getCause()) {
            if (c instanceof ConfigurationException) {
                return true;
            }
        }
        return false;
    }
}
