package dev.santabatch.loop;

import dev.santabatch.review.IssueSimilarity;
import java.util.HashSet;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Two critical issues are one problem when they name the same criterion and either say the same
 * thing (the embedding similarity) or point at the same evidence: the same quoted passage of the
 * text, or the same other item. Two reviewers that judge by different methods word one problem
 * differently ("sentence 3 names another product" vs "sentence 3 is off-topic"); the evidence they
 * cite is what they agree on, and the gate then counts the issue as flagged by both.
 */
final class EvidenceIssueSimilarity implements IssueSimilarity {

    /** The quoted passage an issue ends with (both offline reviewers quote the sentence last). */
    private static final Pattern QUOTED = Pattern.compile("\"([^\"]{12,})\"\\W*$");
    private static final Pattern ITEM_REF = Pattern.compile("\\bof ([A-Z]{1,4}\\d{3,})\\b|\\b([A-Z]{1,4}\\d{3,})\\b");

    private final IssueSimilarity wording;

    EvidenceIssueSimilarity(IssueSimilarity wording) {
        this.wording = wording;
    }

    @Override
    public boolean same(String a, String b) {
        String ca = criterion(a);
        if (ca == null || !ca.equals(criterion(b))) {
            return false;
        }
        if (shares(QUOTED, a, b) || shares(ITEM_REF, a, b)) {
            return true;
        }
        return wording.same(a, b);
    }

    private static String criterion(String issue) {
        int colon = issue.indexOf(':');
        return colon > 0 ? issue.substring(0, colon).strip() : null;
    }

    private static boolean shares(Pattern p, String a, String b) {
        Set<String> left = new HashSet<>();
        Matcher m = p.matcher(a);
        while (m.find()) {
            left.add(group(m));
        }
        Matcher n = p.matcher(b);
        while (n.find()) {
            if (left.contains(group(n))) {
                return true;
            }
        }
        return false;
    }

    private static String group(Matcher m) {
        for (int g = 1; g <= m.groupCount(); g++) {
            if (m.group(g) != null) {
                return m.group(g).strip();
            }
        }
        return m.group();
    }
}
