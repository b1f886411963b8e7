package dev.santabatch.run;

import java.sql.SQLException;
import java.util.HashSet;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * The store could not be opened because its H2 database file is held by another process (H2's
 * "Database may be already in use", error 90020): a process that opened the file itself instead of
 * through the holder's {@code AUTO_SERVER}. An environment problem, not a crash: the command says so
 * in one line (exit 2, nothing run) instead of Spring Boot's start-up failure with its stack trace.
 */
public final class StoreLockedException extends RuntimeException {

    /** H2's {@code ErrorCode.DATABASE_ALREADY_OPEN_1}. */
    private static final int H2_DATABASE_ALREADY_OPEN = org.h2.api.ErrorCode.DATABASE_ALREADY_OPEN_1;

    private static final Pattern QUOTED_FILE = Pattern.compile("\"([^\"]+)\"");

    StoreLockedException(@Nullable String url, Throwable cause) {
        super(message(url, lockError(cause)), cause);
    }

    /** True when {@code t}'s cause chain holds H2's "database already in use" error. */
    static boolean locked(@Nullable Throwable t) {
        return lockError(t) != null;
    }

    private static @Nullable SQLException lockError(@Nullable Throwable t) {
        Set<Throwable> seen = new HashSet<>();
        for (Throwable c = t; c != null && seen.add(c); c = c.getCause()) {
            if (c instanceof SQLException sql && sql.getErrorCode() == H2_DATABASE_ALREADY_OPEN) {
                return sql;
            }
        }
        return null;
    }

    private static String message(@Nullable String url, @Nullable SQLException lock) {
        String file = null;
        if (lock != null && lock.getMessage() != null) {
            Matcher m = QUOTED_FILE.matcher(lock.getMessage());
            file = m.find() ? m.group(1) : null;
        }
        return "the store " + (url == null ? "(spring.datasource.url)" : url) + (file == null ? "" : " (file " + file + ")")
                + " is in use by another process that holds its file lock: most likely another santa-batch process, or an"
                + " H2 tool, that opened it without AUTO_SERVER (one with AUTO_SERVER would share it). Find it with 'fuser "
                + (file == null ? "<file>" : file) + "' or 'ps', wait for it to end or stop it; then 'santa-batch status'"
                + " lists the runs. Nothing was run";
    }
}
