package dev.santabatch.patterns;

import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Criterion-prefixed issue texts ({@code <criterion-id>: ...}) and the form they are embedded in:
 * the prefix and item-specific fragments (quoted sentences, item ids, numbers) removed, so two items
 * with the same problem compare by the problem, not by the text they quote.
 */
public final class IssueText {

    private static final Pattern QUOTED = Pattern.compile("\"[^\"]*\"|\u201C[^\u201D]*\u201D|'[^']{12,}'");
    private static final Pattern ITEM_ID = Pattern.compile("\\b[A-Z]{1,4}-?\\d{3,}\\b");
    private static final Pattern NUMBER = Pattern.compile("[-+]?\\$?\\d+(?:[.,]\\d+)*%?");
    private static final Pattern PREFIX = Pattern.compile("^\\s*([A-Za-z0-9][A-Za-z0-9_-]*)\\s*:");

    private IssueText() {}

    /** The criterion id an issue starts with (lower case), if it has the {@code id:} prefix. */
    public static Optional<String> criterion(String issue) {
        java.util.regex.Matcher m = PREFIX.matcher(issue);
        return m.find() ? Optional.of(m.group(1).toLowerCase(Locale.ROOT)) : Optional.empty();
    }

    /** The issue without its criterion prefix. */
    public static String body(String issue) {
        java.util.regex.Matcher m = PREFIX.matcher(issue);
        return (m.find() ? issue.substring(m.end()) : issue).strip();
    }

    /** The body with quoted fragments, item ids and numbers replaced by neutral words. */
    public static String stripped(String issue) {
        String s = body(issue);
        s = QUOTED.matcher(s).replaceAll("a quote");
        s = ITEM_ID.matcher(s).replaceAll("another item");
        s = NUMBER.matcher(s).replaceAll("N");
        s = s.replaceAll("\\(\\s*\\)", " ").replaceAll("\\s+", " ").strip();
        return s.isEmpty() ? body(issue) : s;
    }
}
