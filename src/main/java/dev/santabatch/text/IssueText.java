package dev.santabatch.text;

import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Criterion-prefixed issue texts ({@code <criterion-id>: ...}) and the form they are embedded in:
 * the prefix and item-specific fragments (quoted sentences, item ids, numbers) removed, so two items
 * with the same problem compare by the problem, not by the text they quote.
 */
public final class IssueText {

    private static final Pattern QUOTED = Pattern.compile("\"([^\"]*)\"|\u201C([^\u201D]*)\u201D|'([^']*)'");
    /** Words every issue uses (about the source, the text, comparison), which say nothing about the problem. */
    private static final java.util.Set<String> GENERIC = java.util.Set.of(
            "a", "an", "the", "is", "are", "was", "of", "to", "in", "on", "at", "as", "by", "for", "but", "and", "or", "vs",
            "while", "with", "its", "it", "this", "that", "than", "which", "whereas", "source", "sources", "fact", "facts",
            "says", "say", "said", "states", "state", "stated", "gives", "given", "lists", "listed", "text", "description",
            "contradicts", "contradict", "contradicting", "contradiction", "contradictory", "does", "not", "match", "matches",
            "claims", "claim", "claimed", "n", "h", "similarity", "cosine");
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

    /**
     * The body reduced to what names the problem: quoted sentences (four words or more: the item's
     * own text) dropped while quoted terms stay, item ids and numbers dropped, and the generic words
     * every issue uses (source, says, contradicts, ...) removed.
     */
    public static String stripped(String issue) {
        String s = body(issue);
        java.util.regex.Matcher q = QUOTED.matcher(s);
        StringBuilder sb = new StringBuilder();
        while (q.find()) {
            String inner = q.group(1) != null ? q.group(1) : q.group(2) != null ? q.group(2) : q.group(3);
            q.appendReplacement(sb, java.util.regex.Matcher.quoteReplacement(inner.strip().split("\\s+").length >= 4 ? " " : inner));
        }
        q.appendTail(sb);
        s = ITEM_ID.matcher(sb.toString()).replaceAll(" ");
        s = NUMBER.matcher(s).replaceAll(" ");
        StringBuilder out = new StringBuilder();
        for (String w : s.split("[^\\p{L}\\p{N}'-]+")) {
            String lw = w.toLowerCase(Locale.ROOT).replaceAll("^[-']+|[-']+$", "");
            if (!lw.isEmpty() && !GENERIC.contains(lw)) {
                out.append(out.length() == 0 ? "" : " ").append(lw);
            }
        }
        return out.length() == 0 ? body(issue) : out.toString();
    }
}
