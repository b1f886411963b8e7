package dev.santabatch.review.lexical;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.santabatch.config.LexicalThresholds;
import dev.santabatch.config.ReviewerSpec;
import dev.santabatch.review.offline.SnapshotItem;
import dev.santabatch.review.CheckResult;
import dev.santabatch.review.Review;
import dev.santabatch.review.ReviewRequest;
import dev.santabatch.review.Verdict;
import dev.santabatch.text.SentenceSplitter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

class LexicalReviewerTests {

    static CsvSnapshot snapshot;
    static LexicalIndex index;
    static DataSource ds;

    @BeforeAll
    static void prepare() throws Exception {
        snapshot = CsvSnapshot.fixtures(LexicalFixtureTests.FIXTURES, 11);
        ds = LexicalHarness.h2();
        index = new LexicalIndex(ds, LexicalThresholds.defaults());
        index.prepare(snapshot);
    }

    private static SnapshotItem item(String id) {
        return snapshot.get(id).orElseThrow();
    }

    @Test
    void criteriaItDoesNotJudgeAreNotEvaluated() {
        LexicalReviewer onlyOriginal = LexicalReviewer.of(new ReviewerSpec("B", "lexical", List.of("original"), null, Map.of()), index);
        Review r = LexicalHarness.review(onlyOriginal, LexicalHarness.request(item("F023")));
        assertEquals(CheckResult.NOT_EVALUATED, r.check("compliance").orElseThrow().result());
        assertEquals(CheckResult.NOT_EVALUATED, r.check("on-specification").orElseThrow().result());
        assertEquals(CheckResult.PASS, r.check("original").orElseThrow().result());
        assertEquals(Verdict.PASS, r.verdict());
        assertThrows(IllegalArgumentException.class, () -> new LexicalReviewer("B", Set.of("compliance"), index));
    }

    @Test
    void namedDriftIsLocalisedToItsSentence() {
        LexicalReviewer reviewer = new LexicalReviewer("B", LexicalHarness.JUDGED, index);
        ReviewRequest req = LexicalHarness.request(item("F023"));
        Review r = LexicalHarness.review(reviewer, req);
        assertEquals(Verdict.FAIL, r.verdict());
        assertEquals(CheckResult.FAIL, r.check("on-specification").orElseThrow().result());
        assertEquals(1, r.criticalIssues().size(), r.criticalIssues().toString());
        String issue = r.criticalIssues().get(0);
        assertTrue(issue.startsWith("on-specification: sentence 2 names \"Brewcraft Duo\" (name), \"Kaffeehaus\" (brand) of another item (F003): "
                + "\"The Brewcraft Duo from Kaffeehaus steams milk while it brews.\""), issue);
        List<SentenceSpan> spans = reviewer.offSpecSentences(req);
        assertEquals(1, spans.size());
        SentenceSpan s = spans.get(0);
        assertEquals("The Brewcraft Duo from Kaffeehaus steams milk while it brews.", req.content().substring(s.start(), s.end()));
        // the offline fixer's removal leaves a text the reviewer passes on-specification
        String fixed = SentenceSplitter.remove(req.content(), new SentenceSplitter.Span(s.start(), s.end()));
        Review again = LexicalHarness.review(reviewer, new ReviewRequest(req.taskSpec(), req.itemId(), req.source(), fixed, req.rubric()));
        assertEquals(Verdict.PASS, again.verdict(), again.criticalIssues().toString());
    }

    @Test
    void aComparisonOrCompatibilityWithAnotherProductIsAboutThisOne() {
        // another item's product named in a sentence about this one: kept; named as the subject: fails
        LexicalReviewer reviewer = new LexicalReviewer("B", LexicalHarness.JUDGED, index);
        SnapshotItem own = item("F023");
        List<String> kept = List.of(
                "It takes the same paper filters as the Brewcraft Duo from Kaffeehaus.",
                "Unlike the Brewcraft Duo from Kaffeehaus, there is no milk wand to descale.",
                "They work with the Brewcraft Duo from Kaffeehaus jug as well.",
                "It is compatible with the Brewcraft Duo from Kaffeehaus carafe.");
        List<String> flagged = List.of(
                "The Brewcraft Duo from Kaffeehaus also grinds its own beans.",
                "Many owners pair their mornings with the Brewcraft Duo from Kaffeehaus.",
                "Kaffeehaus also makes the Brewcraft Duo, which many shoppers buy alongside it.",
                "If you prefer something different, the Brewcraft Duo from Kaffeehaus is a popular alternative.");
        assertKeptAndFlagged(reviewer, own, kept, flagged);
    }

    /**
     * A sentence that opens with this product as its subject ("It", "Its", "They", its own name)
     * before naming another is about this product, with or without a comparison word; one that opens
     * otherwise ("Pair it with...", "Shoppers also consider...") still fails.
     */
    @Test
    void aSentenceOpeningWithThisProductIsAboutIt() {
        LexicalReviewer reviewer = new LexicalReviewer("B", LexicalHarness.JUDGED, index);
        SnapshotItem own = item("F023");
        List<String> kept = List.of(
                "It pairs with the Brewcraft Duo from Kaffeehaus milk jug.",
                "Its lid also fits the Brewcraft Duo from Kaffeehaus carafe.",
                "They won't match the Brewcraft Duo from Kaffeehaus on speed, but they cost far less.",
                "The Morning Press sits neatly beside the Brewcraft Duo from Kaffeehaus on a small counter.");
        List<String> flagged = List.of(
                "Pair it with the Brewcraft Duo from Kaffeehaus for a complete setup.",
                "Shoppers also consider the Brewcraft Duo from Kaffeehaus for lattes.",
                "The Brewcraft Duo from Kaffeehaus pairs with it on many counters.");
        assertKeptAndFlagged(reviewer, own, kept, flagged);
    }

    /** Each sentence appended to the item's text: the kept ones are not off-specification, the flagged ones are. */
    private static void assertKeptAndFlagged(LexicalReviewer reviewer, SnapshotItem own, List<String> kept, List<String> flagged) {
        for (String sentence : kept) {
            ReviewRequest req = new ReviewRequest("spec", own.id(), own.source(), own.content() + " " + sentence, List.of());
            assertTrue(reviewer.offSpecSentences(req).stream().noneMatch(s -> s.text().equals(sentence)), sentence);
        }
        for (String sentence : flagged) {
            ReviewRequest req = new ReviewRequest("spec", own.id(), own.source(), own.content() + " " + sentence, List.of());
            assertTrue(reviewer.offSpecSentences(req).stream().anyMatch(s -> s.text().equals(sentence)), sentence);
        }
    }

    @Test
    void copiesNameTheOtherItem() {
        LexicalReviewer reviewer = new LexicalReviewer("B", LexicalHarness.JUDGED, index);
        Review r = LexicalHarness.review(reviewer, LexicalHarness.request(item("F063")));
        assertEquals(List.of(), r.criticalIssues().stream().filter(i -> i.startsWith("on-specification")).toList());
        assertTrue(r.criticalIssues().stream().anyMatch(i -> i.matches("original: near-duplicate of F064 \\(shingle Jaccard 0\\.\\d\\d\\)")),
                r.criticalIssues().toString());
    }

    @Test
    void wholeTextAboutAnotherProductFailsOnSpecification() {
        LexicalReviewer reviewer = new LexicalReviewer("B", LexicalHarness.JUDGED, index);
        SnapshotItem own = item("F012");
        Map<String, String> source = new LinkedHashMap<>(own.source());
        String text = "Marwick Garden's Greenline 36 cuts a 36 cm strip of lawn. It folds flat for storage.";
        Review r = LexicalHarness.review(reviewer, new ReviewRequest(LexicalHarness.TASK, own.id(), source, text, LexicalHarness.RUBRIC));
        assertTrue(r.criticalIssues().stream().anyMatch(i -> i.startsWith("on-specification: the whole text matches the source facts of another item, F004")),
                r.criticalIssues().toString());
    }

    /**
     * One ordinary word of another item's name ("Greenline") in a text that does not repeat its own
     * name is no evidence that the text is about that item; its name and brand together are.
     */
    @Test
    void oneWordOfAnotherItemsNameIsNotAWholeTextAboutIt() {
        LexicalReviewer reviewer = new LexicalReviewer("B", LexicalHarness.JUDGED, index);
        SnapshotItem own = item("F012");
        Map<String, String> source = new LinkedHashMap<>(own.source());
        String oneWord = "A greenline edge keeps the cut neat. It folds flat for storage.";
        Review r = LexicalHarness.review(reviewer, new ReviewRequest(LexicalHarness.TASK, own.id(), source, oneWord, LexicalHarness.RUBRIC));
        assertTrue(r.criticalIssues().stream().noneMatch(i -> i.contains("the whole text matches the source facts of another item")),
                r.criticalIssues().toString());
        String nameAndBrand = "Marwick Garden's Greenline keeps the cut neat. It folds flat for storage.";
        Review named = LexicalHarness.review(reviewer, new ReviewRequest(LexicalHarness.TASK, own.id(), source, nameAndBrand, LexicalHarness.RUBRIC));
        assertTrue(named.criticalIssues().stream().anyMatch(i -> i.startsWith("on-specification: the whole text matches the source facts of another item, F004")),
                named.criticalIssues().toString());
    }

    /** The prepare logs its progress (here every chunk): items sketched of the round's, the last line at all of them. */
    @Test
    void prepareLogsItsProgress() throws Exception {
        ch.qos.logback.classic.Logger logger = (ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory.getLogger(LexicalIndex.class);
        ch.qos.logback.core.read.ListAppender<ch.qos.logback.classic.spi.ILoggingEvent> appender = new ch.qos.logback.core.read.ListAppender<>();
        appender.start();
        logger.addAppender(appender);
        try {
            LexicalIndex fresh = new LexicalIndex(LexicalHarness.h2(), LexicalThresholds.defaults());
            fresh.progressEveryNanos(0);
            fresh.prepare(snapshot);
        } finally {
            logger.detachAppender(appender);
        }
        List<String> lines = appender.list.stream().map(e -> e.getFormattedMessage()).filter(m -> m.startsWith("lexical index, round ")).toList();
        assertFalse(lines.isEmpty());
        assertTrue(lines.get(lines.size() - 1).contains("sketched " + snapshot.size() + " of " + snapshot.size() + " items"), lines.toString());
    }

    @Test
    void prepareIsIdempotentAndSketchesOncePerRevision() {
        JdbcTemplate jdbc = new JdbcTemplate(ds);
        long sketches = jdbc.queryForObject("SELECT COUNT(*) FROM lx_sketch WHERE run_pk = 11", Long.class);
        long bands = jdbc.queryForObject("SELECT COUNT(*) FROM lx_band WHERE run_pk = 11", Long.class);
        long terms = jdbc.queryForObject("SELECT COUNT(*) FROM lx_term WHERE run_pk = 11", Long.class);
        assertEquals(snapshot.size(), sketches);
        // a restart of the same round: nothing new in the store
        LexicalIndex restarted = new LexicalIndex(ds, LexicalThresholds.defaults());
        restarted.prepare(snapshot);
        assertEquals(sketches, jdbc.queryForObject("SELECT COUNT(*) FROM lx_sketch WHERE run_pk = 11", Long.class));
        assertEquals(bands, jdbc.queryForObject("SELECT COUNT(*) FROM lx_band WHERE run_pk = 11", Long.class));
        assertEquals(terms, jdbc.queryForObject("SELECT COUNT(*) FROM lx_term WHERE run_pk = 11", Long.class));
        // the next round sees a revision of F064 that is no longer a copy: only that revision is sketched, and F063 passes
        CsvSnapshot next = snapshot.nextRound(Map.of("F064", "The Metro 3 by Brisco is a light city bike for short hops across town."));
        LexicalIndex round2 = new LexicalIndex(ds, LexicalThresholds.defaults());
        round2.prepare(next);
        assertEquals(sketches + 1, jdbc.queryForObject("SELECT COUNT(*) FROM lx_sketch WHERE run_pk = 11", Long.class));
        LexicalReviewer reviewer = new LexicalReviewer("B", LexicalHarness.JUDGED, round2);
        assertEquals(CheckResult.PASS, LexicalHarness.review(reviewer, LexicalHarness.request(item("F063"))).check("original").orElseThrow().result());
        // the first round's index still judges against its own snapshot
        LexicalReviewer old = new LexicalReviewer("B", LexicalHarness.JUDGED, restarted);
        assertEquals(CheckResult.FAIL, LexicalHarness.review(old, LexicalHarness.request(item("F063"))).check("original").orElseThrow().result());
    }

    @Test
    void defaultJobRunsTheLexicalReviewerAsB() throws Exception {
        ReviewerSpec b = dev.santabatch.config.JobFileLoader.load(java.nio.file.Path.of("jobs/product-descriptions.yml")).reviewers().stream()
                .filter(r -> r.type().equals("lexical")).findFirst().orElseThrow();
        assertEquals("B", b.id());
        LexicalThresholds t = LexicalThresholds.of(b.thresholds());
        assertEquals(LexicalThresholds.defaults(), t);
        assertEquals(Set.of("on-specification", "original"), LexicalReviewer.of(b, index).criteria());
    }

    @Test
    void thresholdsComeFromTheJobFile() {
        LexicalThresholds t = LexicalThresholds.of(Map.of("near-duplicate-jaccard", 0.5));
        assertEquals(0.5, t.nearDuplicateJaccard());
        assertEquals(LexicalThresholds.DEFAULT_SOURCE_OVERLAP_MARGIN, t.sourceOverlapMargin());
        assertThrows(IllegalArgumentException.class, () -> LexicalThresholds.of(Map.of("jaccard", 0.5)));
        assertThrows(IllegalArgumentException.class, () -> LexicalThresholds.of(Map.of("near-duplicate-jaccard", 1.5)));
        assertEquals(LexicalThresholds.DEFAULT_NEAR_DUPLICATE_MIN_SHARED, t.nearDuplicateMinShared());
        assertEquals(6, LexicalThresholds.of(Map.of("near-duplicate-min-shared", 6.0)).nearDuplicateMinShared());
    }
}
