package dev.santabatch.review.step;

import dev.santabatch.config.JobDefinition;
import dev.santabatch.config.ReviewerSpec;
import dev.santabatch.review.lexical.LexicalReviewer;
import dev.santabatch.review.lexical.SentenceSpan;
import dev.santabatch.review.FixOutcome;
import dev.santabatch.review.FixRequest;
import dev.santabatch.review.Fixer;
import dev.santabatch.review.ReviewRequest;
import dev.santabatch.text.SentenceSplitter;
import dev.santabatch.review.semantic.SemanticReviewer;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * What can be fixed without a model: where the lexical and the semantic reviewer both localise an
 * on-specification failure to the same whole sentences, those sentences are removed (the rules'
 * remove-sentence fix: the rest of the text stays byte for byte), provided what is left still names
 * the item's own product or brand (otherwise the whole text has drifted). Anything else (boilerplate,
 * whole-text drift, sentences only one method points at, issues of other criteria) cannot be fixed
 * offline: the fixer says so ({@link FixOutcome.CannotFix}, reason {@code NO_FIX}), and the item
 * escalates to a person with that reason, not as a fix that returned its input.
 */
public final class OfflineFixer implements Fixer {

    static final String ON_SPECIFICATION = "on-specification";

    private final JobDefinition job;
    private final Panels panels;

    public OfflineFixer(JobDefinition job, Panels panels) {
        this.job = job;
        this.panels = panels;
    }

    @Override
    public FixOutcome fix(FixRequest request) {
        for (String issue : request.criticalIssues()) {
            if (!issue.startsWith(ON_SPECIFICATION + ":")) {
                return new FixOutcome.CannotFix("no offline fix: only off-specification sentences can be removed offline,"
                        + " not: " + issue);
            }
        }
        ReviewRequest review = new ReviewRequest(job.taskSpec(), request.itemId(), request.source(), request.content(),
                job.santaCriteria());
        Set<List<Integer>> lexical = null;
        Set<List<Integer>> semantic = null;
        for (ReviewerSpec spec : job.reviewers()) {
            if (LexicalReviewer.TYPE.equals(spec.type())) {
                LexicalReviewer reviewer = (LexicalReviewer) panels.type(spec.type()).create(spec);
                if (reviewer.wholeTextAboutAnotherItem(review)) {
                    return wholeText("the lexical reviewer finds the whole text closer to another item's source facts");
                }
                Set<List<Integer>> spans = new TreeSet<>(OfflineFixer::compare);
                for (SentenceSpan s : reviewer.offSpecSentences(review)) {
                    spans.add(List.of(s.start(), s.end()));
                }
                lexical = spans;
            } else if ("semantic".equals(spec.type())) {
                SemanticReviewer.Analysis analysis = ((SemanticReviewer) panels.type(spec.type()).create(spec)).analyse(review);
                if (analysis.wholeText()) {
                    return wholeText("the semantic reviewer finds the whole text off-topic");
                }
                Set<List<Integer>> spans = new TreeSet<>(OfflineFixer::compare);
                for (SemanticReviewer.SentenceFinding f : analysis.findings()) {
                    spans.add(List.of(f.span().start(), f.span().end()));
                }
                semantic = spans;
            }
        }
        if (lexical == null || semantic == null) {
            return new FixOutcome.CannotFix("no offline fix: it needs both the lexical and the semantic reviewer");
        }
        if (lexical.isEmpty() || !lexical.equals(semantic)) {
            return new FixOutcome.CannotFix("no offline fix: the two reviewers do not localise the problem to the same"
                    + " whole sentences (lexical: " + lexical.size() + ", semantic: " + semantic.size() + " sentence(s))");
        }
        List<Integer> offsets = new ArrayList<>();
        lexical.forEach(s -> offsets.add(s.get(0)));
        String fixed = SentenceSplitter.removeSentencesAt(request.content(), offsets);
        if (!namesItsOwnProduct(fixed, request.source())) {
            // what is left is not about this item either: whole-text drift, which only a person can fix
            return new FixOutcome.CannotFix("no offline fix: without the off-specification sentences the text no"
                    + " longer names its own product or brand (whole-text drift, which only a person can rewrite)");
        }
        return new FixOutcome.Fixed(fixed);
    }

    /** Whole-text drift: removing sentences cannot fix it, only a person can rewrite the text. */
    private static FixOutcome wholeText(String why) {
        return new FixOutcome.CannotFix("no offline fix: " + why + " (whole-text drift, which only a person can rewrite)");
    }

    /**
     * A text fixed by removing off-specification sentences must still be about its own item: it
     * names the item's product or brand (when the source has such columns).
     */
    static boolean namesItsOwnProduct(String text, java.util.Map<String, String> source) {
        String lower = text.toLowerCase(java.util.Locale.ROOT);
        boolean hasNames = false;
        for (String field : dev.santabatch.review.lexical.LexicalIndex.DEFAULT_PHRASE_FIELDS) {
            String value = source.get(field);
            if (value != null && !value.isBlank()) {
                hasNames = true;
                if (lower.contains(value.strip().toLowerCase(java.util.Locale.ROOT))) {
                    return true;
                }
            }
        }
        return !hasNames;
    }

    private static int compare(List<Integer> a, List<Integer> b) {
        int c = Integer.compare(a.get(0), b.get(0));
        return c != 0 ? c : Integer.compare(a.get(1), b.get(1));
    }
}
