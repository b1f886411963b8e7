package dev.santabatch.review.step;

import dev.santabatch.review.IssueQuotes;
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
public final class EvidenceIssueSimilarity implements IssueSimilarity {

    private static final Pattern ITEM_ID = Pattern.compile("\\b[A-Z]{1,4}-?\\d{3,}\\b");
    /** A quoted passage of at least this many words is a sentence of the text, shorter ones are terms. */
    static final int SENTENCE_WORDS = 4;

    /** What one issue cites. */
    record Evidence(Set<String> sentences, Set<String> items, Set<String> terms) {}

    private final IssueSimilarity wording;

    public EvidenceIssueSimilarity(IssueSimilarity wording) {
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

    /** The evidence an issue cites: its quotes as {@link IssueQuotes} finds them, and item ids outside them. */
    static Evidence evidence(String issue) {
        IssueQuotes.Split split = IssueQuotes.split(issue);
        Set<String> sentences = new LinkedHashSet<>();
        Set<String> terms = new LinkedHashSet<>();
        split.quotes().forEach(q -> add(q, sentences, terms));
        Set<String> items = new LinkedHashSet<>();
        Matcher m = ITEM_ID.matcher(split.outside());
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
