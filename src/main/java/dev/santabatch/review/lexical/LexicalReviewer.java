package dev.santabatch.review.lexical;

import dev.santabatch.config.LexicalThresholds;
import dev.santabatch.config.ReviewerSpec;
import dev.santabatch.review.Check;
import dev.santabatch.review.CheckResult;
import dev.santabatch.review.Review;
import dev.santabatch.review.ReviewOutcome;
import dev.santabatch.review.ReviewRequest;
import dev.santabatch.review.Reviewer;
import dev.santabatch.review.Verdict;
import dev.santabatch.text.SentenceSplitter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Reviewer B of the offline panel: judges {@value #ON_SPECIFICATION} and {@value #ORIGINAL} by word
 * statistics against a prepared {@link LexicalIndex}, and answers NOT_EVALUATED for every other
 * criterion. Stateless apart from the shared read-only index: a fresh instance per panel round costs
 * nothing.
 *
 * <ul>
 *   <li>on-specification, by sentence: a sentence that names a value of another item's name/brand
 *       fields, or of any other text column when the value is written as a proper name (a city, a region),
 *       absent from this item's own values, fails ({@link LexicalIndex#isPhraseValue}), unless it opens with this product as its subject
 *       ("It", "Its", "They", or its own name or brand after an optional article) before naming the
 *       other, or it is a comparison about this product
 *       (a comparison or compatibility word such as "unlike", "than", "compared", "where", "although",
 *       "outlasts", "same", "compatible", "works with", and a reference to this product or
 *       "it/this/our/they"; or a sentence "Unlike X, ..." whose other products all come before its
 *       first comma); one critical issue per sentence, with the sentence text;
 *   <li>on-specification, whole text: the text's source-term overlap (IDF share) with another
 *       item's source exceeds its overlap with its own by at least {@code source-overlap-margin};
 *   <li>original: another snapshot item's text, both with their own facts masked, has an
 *       informative-shingle Jaccard of at least {@code near-duplicate-jaccard} and shares at least
 *       {@code near-duplicate-min-shared} informative shingles (templates and house style are stop shingles).
 * </ul>
 */
public final class LexicalReviewer implements Reviewer {

    public static final String TYPE = "lexical";
    public static final String ON_SPECIFICATION = "on-specification";
    public static final String ORIGINAL = "original";
    public static final Set<String> JUDGEABLE = Set.of(ON_SPECIFICATION, ORIGINAL);

    private static final Set<String> COMPARISON = Set.of("unlike", "compared", "comparison", "versus", "vs", "than", "whereas",
            "where", "although", "beats", "rival", "rivals", "competitor", "competitors", "competing",
            // compatibility: "takes the same cells as X", "compatible with X"
            "same", "compatible", "compatibility");
    /** Words for this product (as subject or possessor); "they"/"them" for products named in the plural (earbuds, tablets). */
    private static final Set<String> SELF = Set.of("it", "its", "this", "our", "ours", "here", "we", "they", "them");
    /** Subject words of a sentence about this product, when they open it. */
    private static final Set<String> SUBJECT_SELF = Set.of("it", "its", "they");
    private static final Set<String> ARTICLES = Set.of("the", "a", "an");
    private static final int MAX_NAMED = 5;
    private static final int MAX_QUOTE = 300;

    private final String id;
    private final Set<String> criteria;
    private final LexicalIndex index;
    private final LexicalThresholds thresholds;

    public LexicalReviewer(String id, Set<String> criteria, LexicalIndex index) {
        this.id = Objects.requireNonNull(id, "id");
        for (String c : criteria) {
            if (!JUDGEABLE.contains(c)) {
                throw new IllegalArgumentException("the lexical reviewer cannot judge criterion '" + c + "' (it judges " + JUDGEABLE + ")");
            }
        }
        this.criteria = Set.copyOf(criteria);
        this.index = Objects.requireNonNull(index, "index");
        this.thresholds = index.thresholds();
    }

    /** A reviewer for a job file's reviewer entry (type {@code lexical}); its thresholds are the index's. */
    public static LexicalReviewer of(ReviewerSpec spec, LexicalIndex index) {
        if (!TYPE.equals(spec.type())) {
            throw new IllegalArgumentException("not a lexical reviewer: " + spec.type());
        }
        return new LexicalReviewer(spec.id(), new LinkedHashSet<>(spec.criteria()), index);
    }

    @Override
    public String id() {
        return id;
    }

    @Override
    public Set<String> criteria() {
        return criteria;
    }

    /**
     * Reviews one item. A store failure (the index's tables unreadable) is a failure to review,
     * like a transport error of a model reviewer: the item stays unreviewed this round.
     */
    @Override
    public ReviewOutcome review(ReviewRequest request) {
        try {
            return judge(request);
        } catch (org.springframework.dao.DataAccessException e) {
            return new ReviewOutcome.FailedToReview(ReviewOutcome.FailureKind.TRANSPORT, "lexical index store: " + e.getMessage());
        }
    }

    private ReviewOutcome judge(ReviewRequest request) {
        long start = System.nanoTime();
        List<Check> checks = new ArrayList<>();
        List<String> issues = new ArrayList<>();
        List<String> suggestions = new ArrayList<>();
        for (String criterion : request.criterionIds()) {
            if (!criteria.contains(criterion)) {
                checks.add(new Check(criterion, CheckResult.NOT_EVALUATED, "not judged by the lexical reviewer"));
                continue;
            }
            List<String> found = switch (criterion) {
                case ON_SPECIFICATION -> onSpecification(request, suggestions);
                case ORIGINAL -> original(request);
                default -> throw new IllegalStateException(criterion);
            };
            if (found.isEmpty()) {
                checks.add(new Check(criterion, CheckResult.PASS, passDetail(criterion)));
            } else {
                checks.add(new Check(criterion, CheckResult.FAIL, found.size() + " finding(s)"));
                issues.addAll(found);
            }
        }
        Verdict verdict = checks.stream().anyMatch(c -> c.result() == CheckResult.FAIL) ? Verdict.FAIL : Verdict.PASS;
        Review review = new Review(verdict, checks, issues, suggestions);
        return new ReviewOutcome.Reviewed(review, Duration.ofNanos(System.nanoTime() - start));
    }

    private static String passDetail(String criterion) {
        return criterion.equals(ORIGINAL)
                ? "no other item's text is a near-duplicate by word shingles"
                : "no sentence names another item's product and the text matches its own source facts best";
    }

    // ---------------------------------------------------------------------------------- on-specification

    /**
     * The sentences of the request's content that name another item's product (name, brand...), in
     * order: what the offline fixer may remove.
     */
    public List<SentenceSpan> offSpecSentences(ReviewRequest request) {
        String text = request.content();
        List<SentenceSplitter.Span> spans = SentenceSplitter.split(text);
        List<SentenceSpan> out = new ArrayList<>();
        for (int n = 0; n < spans.size(); n++) {
            SentenceSplitter.Span span = spans.get(n);
            String sentence = span.of(text);
            List<Tokens.Tok> toks = Tokens.tokens(sentence);
            List<LexicalIndex.PhraseHit> hits = index.foreignPhrases(toks, request.source());
            if (hits.isEmpty() || opensWithThisProduct(toks, hits, request) || isComparisonAboutSelf(sentence, toks, hits, request)) {
                continue;
            }
            out.add(new SentenceSpan(n + 1, span.start(), span.end(), sentence, describe(hits)));
        }
        return out;
    }

    /**
     * Whether the sentence opens with this product as its subject, before any other product is
     * named: "It pairs with the X band", "Its grommets clip onto the X", "They won't match the X",
     * "The Vasselby cup fits the X" (this item's own name or brand after an optional article). Such a
     * sentence is about this product, whatever else it names; a sentence about another product opens
     * with that one or with something else ("Shoppers also consider the X", "Pair it with the X").
     */
    private boolean opensWithThisProduct(List<Tokens.Tok> toks, List<LexicalIndex.PhraseHit> hits, ReviewRequest request) {
        int first = hits.stream().mapToInt(LexicalIndex.PhraseHit::tokenStart).min().orElse(0);
        int i = 0;
        if (i < toks.size() && ARTICLES.contains(toks.get(i).lower())) {
            i++;
        }
        if (i >= first || i >= toks.size()) {
            return false;
        }
        String w = toks.get(i).lower();
        return (i == 0 && SUBJECT_SELF.contains(w)) || ownWords(request).contains(w);
    }

    /** The words of this item's own name and brand (its phrase fields), stop words left out. */
    private Set<String> ownWords(ReviewRequest request) {
        return request.source().entrySet().stream()
                .filter(e -> e.getValue() != null && index.isPhraseField(e.getKey()))
                .flatMap(e -> Tokens.words(e.getValue()).stream())
                .filter(w -> !Tokens.STOP.contains(w))
                .collect(Collectors.toSet());
    }

    private boolean isComparisonAboutSelf(String sentence, List<Tokens.Tok> toks, List<LexicalIndex.PhraseHit> hits, ReviewRequest request) {
        boolean comparison = toks.stream().anyMatch(t -> COMPARISON.contains(t.lower())
                || (t.lower().startsWith("out") && t.lower().endsWith("s") && t.lower().length() > 6)); // outlasts, outshines...
        for (int i = 0; i + 1 < toks.size() && !comparison; i++) { // "works with X", "work with X"
            comparison = (toks.get(i).lower().equals("works") || toks.get(i).lower().equals("work")) && toks.get(i + 1).lower().equals("with");
        }
        if (!comparison) {
            return false;
        }
        boolean[] foreign = new boolean[toks.size()];
        for (LexicalIndex.PhraseHit h : hits) {
            for (int i = h.tokenStart(); i < h.tokenEnd(); i++) {
                foreign[i] = true;
            }
        }
        // "Unlike X, ...": the main clause after the comma is this product's, named or not
        int comma = sentence.indexOf(',');
        if (toks.get(0).lower().equals("unlike") && comma >= 0 && hits.stream().allMatch(h -> toks.get(h.tokenEnd() - 1).end() <= comma)) {
            return true;
        }
        Set<String> own = ownWords(request);
        for (int i = 0; i < toks.size(); i++) {
            if (!foreign[i] && (SELF.contains(toks.get(i).lower()) || own.contains(toks.get(i).lower()))) {
                return true;
            }
        }
        return false;
    }

    private String describe(List<LexicalIndex.PhraseHit> hits) {
        List<String> displays = hits.stream().map(LexicalIndex.PhraseHit::display).distinct().toList();
        List<String> ids = index.itemsNaming(displays);
        String named = hits.stream().map(h -> "\"" + h.display() + "\" (" + h.field() + ")").distinct()
                .collect(Collectors.joining(", "));
        return "names " + named + " of another item" + (ids.isEmpty() ? "" : " (" + String.join(", ", ids) + ")");
    }

    /**
     * Whether the whole text matches another item's source facts better than its own (by at least
     * {@code source-overlap-margin}): whole-text drift, which the offline fixer leaves to a person.
     */
    public boolean wholeTextAboutAnotherItem(ReviewRequest request) {
        return aboutAnotherItem(index.sourceOverlap(request.itemId(), request.source(), request.content()));
    }

    private boolean aboutAnotherItem(LexicalIndex.Overlap o) {
        return o.otherId() != null && o.other() - o.own() >= thresholds.sourceOverlapMargin();
    }

    private List<String> onSpecification(ReviewRequest request, List<String> suggestions) {
        List<String> issues = new ArrayList<>();
        for (SentenceSpan s : offSpecSentences(request)) {
            issues.add(String.format(Locale.ROOT, "%s: sentence %d %s: \"%s\"", ON_SPECIFICATION, s.index(), s.reason(), quote(s.text())));
            suggestions.add(String.format(Locale.ROOT, "remove sentence %d, which is about another product", s.index()));
        }
        LexicalIndex.Overlap o = index.sourceOverlap(request.itemId(), request.source(), request.content());
        if (aboutAnotherItem(o)) {
            String what = index.item(o.otherId())
                    .map(it -> it.source().entrySet().stream()
                            .filter(e -> e.getValue() != null && index.isPhraseField(e.getKey()))
                            .map(e -> "\"" + e.getValue() + "\"").collect(Collectors.joining(", ")))
                    .orElse("");
            issues.add(String.format(Locale.ROOT,
                    "%s: the whole text matches the source facts of another item, %s%s, better than its own (source overlap %.2f vs %.2f)",
                    ON_SPECIFICATION, o.otherId(), what.isEmpty() ? "" : " (" + what + ")", o.other(), o.own()));
        }
        return issues;
    }

    private static String quote(String sentence) {
        String s = sentence.replace('\n', ' ');
        return s.length() <= MAX_QUOTE ? s : s.substring(0, MAX_QUOTE) + "…";
    }

    // ---------------------------------------------------------------------------------- original

    private List<String> original(ReviewRequest request) {
        List<NearDuplicate> dups = index.nearDuplicates(request.itemId(), request.source(), request.content(),
                thresholds.nearDuplicateJaccard());
        if (dups.isEmpty()) {
            return List.of();
        }
        String ids = dups.stream().limit(MAX_NAMED).map(NearDuplicate::itemId).collect(Collectors.joining(", "));
        String more = dups.size() > MAX_NAMED ? " and " + (dups.size() - MAX_NAMED) + " more" : "";
        return List.of(String.format(Locale.ROOT, "%s: near-duplicate of %s%s (shingle Jaccard %.2f)", ORIGINAL, ids, more,
                dups.get(0).jaccard()));
    }
}
