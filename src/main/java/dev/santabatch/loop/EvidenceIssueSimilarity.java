package dev.santabatch.loop;

import dev.santabatch.review.IssueSimilarity;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The gate's merge of critical issues: two issues are one problem when they name the same criterion
 * and their evidence agrees, or, when they cite no evidence of a kind both have, their wording says
 * the same (the embedding similarity of the stripped texts, {@code santa.pattern-similarity}).
 *
 * <p>Evidence is what an issue points at in this item and in the catalog, strongest first:
 * <ol>
 *   <li>quoted sentences (four words or more: the item's own text);
 *   <li>other items' ids ({@code near-duplicate of P00037}, {@code is about P00048});
 *   <li>quoted terms (fewer than four words: a banned term, another product's name).
 * </ol>
 * The first kind both issues cite decides: they are one problem when they share a piece of it (a
 * quoted sentence counts as shared when one contains the other after normalisation, so a quote cut
 * short with "…" still matches), and two problems when they share none, however alike their
 * wording. Two reviewers that judge by different methods word one problem differently ("sentence 3
 * names another product" vs "sentence 3 is off-topic"); the sentence they quote is what they agree
 * on, and the gate counts the issue as flagged by both. Two near-duplicate issues that name
 * different other items, or two off-topic issues that quote different sentences, are different
 * problems even when worded alike (the wording similarity strips ids and quoted sentences, so it
 * would call them the same).
 *
 * <p>Item ids are recognised by their shape (one to four capital letters, an optional hyphen, three
 * or more digits), outside quotes. Thread-safe when the wording similarity is.
 */
final class EvidenceIssueSimilarity implements IssueSimilarity {

    /** Quoted passages: straight or curly double quotes, or single quotes not inside a word. */
    private static final Pattern QUOTED =
            Pattern.compile("\"([^\"]+)\"|\u201C([^\u201D]+)\u201D|(?<![\\p{L}\\p{N}])'([^']+)'(?![\\p{L}\\p{N}])");
    private static final Pattern ITEM_ID = Pattern.compile("\\b[A-Z]{1,4}-?\\d{3,}\\b");
    /** A quoted passage of at least this many words is a sentence of the text, shorter ones are terms. */
    static final int SENTENCE_WORDS = 4;

    /** What one issue cites. */
    record Evidence(Set<String> sentences, Set<String> items, Set<String> terms) {}

    private final IssueSimilarity wording;

    EvidenceIssueSimilarity(IssueSimilarity wording) {
        this.wording = wording;
    }

    /**
     * The wording similarity alone: for comparing issues of different items (the batch-fix matcher
     * matching an item's issue to a pattern's label), whose evidence differs by nature.
     */
    IssueSimilarity wording() {
        return wording;
    }

    @Override
    public boolean same(String a, String b) {
        String ca = criterion(a);
        if (ca == null || !ca.equals(criterion(b))) {
            return false;
        }
        Evidence ea = evidence(a);
        Evidence eb = evidence(b);
        if (!ea.sentences().isEmpty() && !eb.sentences().isEmpty()) {
            return sharesSentence(ea.sentences(), eb.sentences());
        }
        if (!ea.items().isEmpty() && !eb.items().isEmpty()) {
            return shares(ea.items(), eb.items());
        }
        if (!ea.terms().isEmpty() && !eb.terms().isEmpty()) {
            return shares(ea.terms(), eb.terms());
        }
        return wording.same(a, b);
    }

    private static String criterion(String issue) {
        int colon = issue.indexOf(':');
        return colon > 0 ? issue.substring(0, colon).strip().toLowerCase(java.util.Locale.ROOT) : null;
    }

    /**
     * The evidence an issue cites. The offline reviewers end an issue with the sentence they quote
     * ({@code ...: "<sentence>"}), which may itself contain quotes: that trailing quote is taken
     * whole; other quotes are found by {@link #QUOTED}.
     */
    static Evidence evidence(String issue) {
        int colon = issue.indexOf(':');
        String body = colon > 0 ? issue.substring(colon + 1) : issue;
        Set<String> sentences = new LinkedHashSet<>();
        Set<String> terms = new LinkedHashSet<>();
        String rest = body.strip();
        int open = rest.lastIndexOf(": \"");
        if (open >= 0 && rest.endsWith("\"") && rest.length() > open + 4) {
            add(rest.substring(open + 3, rest.length() - 1), sentences, terms);
            rest = rest.substring(0, open + 1);
        }
        StringBuilder outside = new StringBuilder();
        Matcher q = QUOTED.matcher(rest);
        int last = 0;
        while (q.find()) {
            outside.append(rest, last, q.start()).append(' ');
            last = q.end();
            String inner = q.group(1) != null ? q.group(1) : q.group(2) != null ? q.group(2) : q.group(3);
            add(inner, sentences, terms);
        }
        outside.append(rest.substring(last));
        Set<String> items = new LinkedHashSet<>();
        Matcher m = ITEM_ID.matcher(outside);
        while (m.find()) {
            items.add(m.group().replace("-", ""));
        }
        return new Evidence(sentences, items, terms);
    }

    private static void add(String quoted, Set<String> sentences, Set<String> terms) {
        String stem = quoted.strip();
        if (stem.endsWith("\u2026") || stem.endsWith("...")) {
            stem = stem.substring(0, stem.length() - (stem.endsWith("\u2026") ? 1 : 3));
        }
        String n = IssueSimilarity.normalise(stem);
        if (n.isEmpty()) {
            return;
        }
        (n.split(" ").length >= SENTENCE_WORDS ? sentences : terms).add(n);
    }

    private static boolean sharesSentence(Set<String> a, Set<String> b) {
        for (String x : a) {
            for (String y : b) {
                // one contains the other from a word start (a quote cut short may end inside a word)
                if ((" " + x).contains(" " + y) || (" " + y).contains(" " + x)) {
                    return true;
                }
            }
        }
        return false;
    }

    private static boolean shares(Set<String> a, Set<String> b) {
        for (String x : a) {
            if (b.contains(x)) {
                return true;
            }
        }
        return false;
    }
}
