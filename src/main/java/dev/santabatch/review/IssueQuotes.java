package dev.santabatch.review;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The passages a critical issue ({@code <criterion-id>: ...}) quotes, and the rest of its body.
 * Quotes are straight or curly double quotes, or single quotes not inside a word ({@code don't} is
 * no quote). The offline reviewers end an issue with the sentence they quote
 * ({@code ...: "<sentence>"}), which may itself contain quotes: that trailing quote is taken whole.
 */
public final class IssueQuotes {

    private static final Pattern QUOTED =
            Pattern.compile("\"([^\"]+)\"|\u201C([^\u201D]+)\u201D|(?<![\\p{L}\\p{N}])'([^']+)'(?![\\p{L}\\p{N}])");

    /**
     * @param quotes the quoted passages as written (not normalised): the trailing whole-sentence quote first, then the others in order
     * @param outside the body with every quote replaced by a blank
     */
    public record Split(List<String> quotes, String outside) {
        public Split {
            quotes = List.copyOf(quotes);
        }
    }

    private IssueQuotes() {}

    /** The quotes of {@code issue}'s body (after its criterion prefix, if any) and what is outside them. */
    public static Split split(String issue) {
        int colon = issue.indexOf(':');
        String rest = (colon > 0 ? issue.substring(colon + 1) : issue).strip();
        List<String> quotes = new ArrayList<>();
        int open = rest.lastIndexOf(": \"");
        if (open >= 0 && rest.endsWith("\"") && rest.length() > open + 4) {
            quotes.add(rest.substring(open + 3, rest.length() - 1));
            rest = rest.substring(0, open + 1);
        }
        StringBuilder outside = new StringBuilder();
        Matcher q = QUOTED.matcher(rest);
        int last = 0;
        while (q.find()) {
            outside.append(rest, last, q.start()).append(' ');
            last = q.end();
            quotes.add(q.group(1) != null ? q.group(1) : q.group(2) != null ? q.group(2) : q.group(3));
        }
        outside.append(rest.substring(last));
        return new Split(quotes, outside.toString());
    }
}
