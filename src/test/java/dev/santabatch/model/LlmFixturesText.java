package dev.santabatch.model;

import java.io.PrintWriter;
import java.io.StringWriter;

/** Text of exceptions for secret checks. */
final class LlmFixturesText {

    private LlmFixturesText() {}

    /** Every message and the stack trace of a throwable and its causes. */
    static String allMessages(Throwable t) {
        StringWriter w = new StringWriter();
        t.printStackTrace(new PrintWriter(w));
        StringBuilder sb = new StringBuilder(w.toString());
        for (Throwable c = t; c != null; c = c.getCause()) {
            sb.append('\n').append(c).append('\n').append(c.getMessage());
        }
        return sb.toString();
    }
}
