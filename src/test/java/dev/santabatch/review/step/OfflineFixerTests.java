package dev.santabatch.review.step;

import dev.santabatch.model.ModelCalls;
import dev.santabatch.patterns.ExactIssueClassifier;
import dev.santabatch.prepass.RulesRevisionCheck;
import static org.assertj.core.api.Assertions.assertThat;

import dev.santabatch.config.JobDefinition;
import dev.santabatch.config.JobFileLoader;
import dev.santabatch.review.lexical.LexicalReviewer;
import dev.santabatch.review.lexical.SentenceSpan;
import dev.santabatch.review.offline.MemorySnapshot;
import dev.santabatch.review.offline.SnapshotItem;
import dev.santabatch.review.FixOutcome;
import dev.santabatch.review.FixRequest;
import dev.santabatch.review.IssueSimilarity;
import dev.santabatch.review.ReviewRequest;
import dev.santabatch.review.SantaOutcome;
import dev.santabatch.review.SantaReason;
import dev.santabatch.review.SantaResult;
import dev.santabatch.prepass.rules.RuleEngine;
import dev.santabatch.review.semantic.SemanticReviewer;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The offline fixer of the default job, over the job's own lexical and semantic reviewers (built
 * from {@code jobs/product-descriptions.yml}) prepared on a small catalog: the hand-written fixtures'
 * twelve base products (one per category, so the semantic off-topic test is not applied and its
 * on-specification findings are sentences closer to another item's source) and the items under
 * test. It removes exactly the sentences both reviewers localise, nothing otherwise; its revision is
 * re-checked by the job's rules; it never alters a clean item.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class OfflineFixerTests {

    static final String OWN_1 = "The Orion Mini from Halvard is a compact camera with a fast 28 mm lens that fits in a jacket pocket.";
    static final String OWN_2 = "Its leaf shutter stays quiet at weddings.";
    /** About F001's product (Velora X2 by Quintex): named, and closer to its source than to its own. */
    static final String ABOUT_F001 = "The Velora X2 is a mirrorless camera made by Quintex.";
    static final String COMPARISON = "Unlike the Velora X2 from Quintex, it records 4K video without a crop.";
    static final String MIDDLE_1 = "The Lumen 5 from Corrigan is a rugged action camera that clips to a helmet.";
    static final String MIDDLE_3 = "It records steady footage on bumpy trails.";
    /** About F003's product (Brewcraft Duo by Kaffeehaus). */
    static final String ABOUT_F003 = "The Brewcraft Duo is an espresso machine made by Kaffeehaus.";
    /** About F007's product (Aquaguard 500 by Pellucid). */
    static final String ABOUT_F007 = "The Aquaguard 500 is an under-sink water filter made by Pellucid.";
    /** About F010's product (Skyrunner Kite by Zephyria). */
    static final String ABOUT_F010 = "The Skyrunner Kite is a stunt kite made by Zephyria.";

    /** Drift in the last sentence. */
    static final String DRIFT = "X901";
    /** Drift in the middle sentence: the sentences around it stay byte for byte, line break included. */
    static final String DRIFT_MIDDLE = "X902";
    /** A legitimate comparison with F001's product: clean. */
    static final String COMPARES = "X903";
    /** Names its own product nowhere: without the drifted sentence nothing is about the item. */
    static final String WHOLE_DRIFT = "X904";
    /** Names F001's product in passing: the lexical reviewer localises the sentence, the semantic one does not. */
    static final String NAMES_IN_PASSING = "X906";
    static final String PASSING = "Velora X2 owners will recognise the menu layout.";
    /**
     * Names its own brand once, and F007's product twice: the lexical reviewer finds the whole text
     * closer to F007's source facts than to its own, so it is whole-text drift, even though both
     * reviewers localise the same two sentences and what is left names its own brand.
     */
    static final String WHOLE_OTHER = "X907";
    static final String OWN_BRAND = "Tamsin's pocket camera has a bright screen for holiday snaps and a sturdy strap.";
    static final String ABOUT_F007_AGAIN = "The Aquaguard 500 from Pellucid filters water in three stages.";
    /** What is left after the removal is too short for the job's length rule (40 characters). */
    static final String SHORT = "X905";

    private JobDefinition job;
    private ExecutorService embedPool;
    private Panels panels;
    private MemorySnapshot catalog;
    private final Map<String, SnapshotItem> added = new LinkedHashMap<>();

    @BeforeAll
    void prepare() throws Exception {
        job = JobFileLoader.load(Path.of("jobs/product-descriptions.yml"));
        embedPool = Executors.newFixedThreadPool(2);
        Map<String, SnapshotItem> items = new LinkedHashMap<>();
        MemorySnapshot.items(MemorySnapshot.records(Path.of("src/test/resources/fixtures/offline-cases.csv")), "item_id", "content",
                MemorySnapshot.PRODUCT_SOURCE).forEach((id, it) -> {
                    if (id.compareTo("F012") <= 0) { // the base products F001-F012
                        items.put(id, it);
                    }
                });
        add(DRIFT, "Orion Mini", "Halvard", OWN_1 + " " + OWN_2 + " " + ABOUT_F001);
        add(DRIFT_MIDDLE, "Lumen 5", "Corrigan", MIDDLE_1 + "\n" + ABOUT_F003 + "  " + MIDDLE_3);
        add(COMPARES, "Falcon Z", "Arkwright", "The Falcon Z by Arkwright is a mirrorless camera built around a 33-megapixel sensor. "
                + COMPARISON + " The grip is deep enough for long lenses.");
        add(WHOLE_DRIFT, "Pico 3", "Tamsin", "A pocket camera with a bright screen for holiday snaps. " + ABOUT_F007);
        add(SHORT, "Kestrel 2", "Vandor", "The Kestrel 2 by Vandor. " + ABOUT_F010);
        add(WHOLE_OTHER, "Pico 5", "Tamsin", OWN_BRAND + " " + ABOUT_F007 + " " + ABOUT_F007_AGAIN);
        add(NAMES_IN_PASSING, "Wren 4", "Oakhurst", "The Wren 4 from Oakhurst is a travel camera with a flip screen. " + PASSING
                + " A spare battery slots into the grip.");
        items.putAll(added);
        catalog = new MemorySnapshot(5, 1, items);
        JdbcDataSource ds = new JdbcDataSource();
        ds.setURL("jdbc:h2:mem:fixer-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
        panels = new Panels(job,
                Map.of("lexical", new OfflineReviewerTypes.Lexical(job, ds), "semantic", new OfflineReviewerTypes.Semantic(job, ds, embedPool)),
                new RulesRevisionCheck(RuleEngine.forJob(job)), IssueSimilarity.exactNormalised(), new ExactIssueClassifier(),
                p -> new OfflineFixer(job, p), ModelCalls.none());
        panels.prepare(catalog);
    }

    private void add(String id, String name, String brand, String content) {
        Map<String, String> source = new LinkedHashMap<>();
        for (String c : MemorySnapshot.PRODUCT_SOURCE) {
            source.put(c, "");
        }
        source.put("name", name);
        source.put("brand", brand);
        source.put("category", "cameras");
        added.put(id, new SnapshotItem(id, 0, content, source, "cameras"));
    }

    @AfterAll
    void close() throws InterruptedException {
        panels.close();
        embedPool.shutdown(); // every task has finished; no interrupt (a task may have been inside H2)
        assertThat(embedPool.awaitTermination(1, TimeUnit.MINUTES)).isTrue();
    }

    private SnapshotItem item(String id) {
        return catalog.get(id).orElseThrow();
    }

    private FixOutcome fix(String id, List<String> issues) {
        SnapshotItem it = item(id);
        return panels.fixer().fix(new FixRequest(it.content(), it.source(), issues, job.taskSpec(), id));
    }

    private static final List<String> ON_SPEC_ISSUE = List.of("on-specification: sentence 3 is about another product");

    /** What each reviewer localises (sentence texts), lexical then semantic. */
    private List<List<String>> localised(String id) {
        SnapshotItem it = item(id);
        ReviewRequest request = new ReviewRequest(job.taskSpec(), id, it.source(), it.content(), job.santaCriteria());
        List<String> lexical = ((LexicalReviewer) panels.type("lexical").create(job.reviewers().get(0))).offSpecSentences(request)
                .stream().map(SentenceSpan::text).toList();
        List<String> semantic = ((SemanticReviewer) panels.type("semantic").create(job.reviewers().get(1))).offSpecificationSentences(request)
                .stream().map(SemanticReviewer.SentenceFinding::text).toList();
        System.out.println(id + ": lexical " + lexical + ", semantic " + semantic);
        return List.of(lexical, semantic);
    }

    @Test
    void removesExactlyTheSentencesBothReviewersLocalise() {
        assertThat(localised(DRIFT)).containsExactly(List.of(ABOUT_F001), List.of(ABOUT_F001));
        FixOutcome out = fix(DRIFT, ON_SPEC_ISSUE);
        assertThat(out).isInstanceOf(FixOutcome.Fixed.class);
        assertThat(((FixOutcome.Fixed) out).text()).isEqualTo(OWN_1 + " " + OWN_2);

        assertThat(localised(DRIFT_MIDDLE)).containsExactly(List.of(ABOUT_F003), List.of(ABOUT_F003));
        FixOutcome middle = fix(DRIFT_MIDDLE, ON_SPEC_ISSUE);
        assertThat(middle).isInstanceOf(FixOutcome.Fixed.class);
        assertThat(((FixOutcome.Fixed) middle).text()).isEqualTo(MIDDLE_1 + "\n" + MIDDLE_3);
    }

    @Test
    void nothingWhenTheReviewersDoNotLocaliseTheSameSentences() {
        // one reviewer localises a sentence, the other none
        assertThat(localised(NAMES_IN_PASSING)).containsExactly(List.of(PASSING), List.of());
        assertThat(fix(NAMES_IN_PASSING, ON_SPEC_ISSUE)).isInstanceOfSatisfying(FixOutcome.CannotFix.class,
                c -> assertThat(c.why()).contains("do not localise the problem to the same whole sentences (lexical: 1, semantic: 0"));
        // neither localises anything
        assertThat(localised(COMPARES)).containsExactly(List.of(), List.of());
        assertThat(fix(COMPARES, ON_SPEC_ISSUE)).isInstanceOf(FixOutcome.CannotFix.class);
    }

    @Test
    void nothingForIssuesOfOtherCriteria() {
        FixOutcome out = fix(DRIFT, List.of("original: near-duplicate of F001 (cosine 0.99)"));
        assertThat(out).isInstanceOfSatisfying(FixOutcome.CannotFix.class,
                c -> assertThat(c.why()).contains("only off-specification sentences can be removed offline").contains("original:"));
        // one issue of another criterion is enough: the fix must address every issue
        assertThat(fix(DRIFT, List.of(ON_SPEC_ISSUE.get(0), "original: near-duplicate of F001 (cosine 0.99)")))
                .isInstanceOf(FixOutcome.CannotFix.class);
    }

    @Test
    void nothingWhenTheRestNoLongerNamesItsOwnProduct() {
        assertThat(localised(WHOLE_DRIFT)).containsExactly(List.of(ABOUT_F007), List.of(ABOUT_F007));
        // the lexical reviewer already finds the whole text closer to F007's source facts; were it not,
        // what is left after the removal names neither the item's product nor its brand
        assertThat(fix(WHOLE_DRIFT, ON_SPEC_ISSUE)).isInstanceOfSatisfying(FixOutcome.CannotFix.class,
                c -> assertThat(c.why()).contains("whole-text drift"));
        assertThat(OfflineFixer.namesItsOwnProduct("A pocket camera with a bright screen for holiday snaps.", item(WHOLE_DRIFT).source()))
                .isFalse();
    }

    @Test
    void nothingForAWholeTextCloserToAnotherItemsSourceFacts() {
        SnapshotItem it = item(WHOLE_OTHER);
        ReviewRequest request = new ReviewRequest(job.taskSpec(), WHOLE_OTHER, it.source(), it.content(), job.santaCriteria());
        assertThat(((LexicalReviewer) panels.type("lexical").create(job.reviewers().get(0))).wholeTextAboutAnotherItem(request)).isTrue();
        // both reviewers localise the same sentences, and the rest names the item's own brand: removing
        // them would leave a text, but the whole text drifted, so only a person can fix it
        assertThat(localised(WHOLE_OTHER)).containsExactly(List.of(ABOUT_F007, ABOUT_F007_AGAIN), List.of(ABOUT_F007, ABOUT_F007_AGAIN));
        assertThat(OfflineFixer.namesItsOwnProduct(OWN_BRAND, it.source())).isTrue();
        assertThat(fix(WHOLE_OTHER, ON_SPEC_ISSUE)).isInstanceOfSatisfying(FixOutcome.CannotFix.class,
                c -> assertThat(c.why()).contains("whole text closer to another item's source facts").contains("whole-text drift"));
    }

    @Test
    void neverAltersACleanItem() {
        int clean = 0;
        for (SnapshotItem it : catalog.items()) {
            if (it.id().startsWith("F") || it.id().equals(COMPARES)) {
                FixOutcome out = fix(it.id(), ON_SPEC_ISSUE);
                assertThat(out).as(it.id()).isInstanceOf(FixOutcome.CannotFix.class);
                clean++;
            }
        }
        assertThat(clean).isEqualTo(13);
    }

    /**
     * In the job's loop the offline fixer's revision is re-checked by the job's rules: a removal that
     * leaves a text the rules reject is a failed fix, not shipped (the item escalates with its text
     * as it was); a removal the rules accept is the item's new revision, reviewed NICE.
     */
    @Test
    void itsRevisionIsReCheckedByTheRules() {
        SnapshotItem shortItem = item(SHORT);
        assertThat(localised(SHORT)).containsExactly(List.of(ABOUT_F010), List.of(ABOUT_F010));
        SantaResult r = panels.processor().process(SHORT, shortItem.content(), shortItem.source());
        assertThat(r.outcome()).isEqualTo(SantaOutcome.ESCALATED);
        assertThat(r.reason()).isEqualTo(SantaReason.FIX_BREAKS_RULES);
        assertThat(r.rejectedFix()).isEqualTo("The Kestrel 2 by Vandor.");
        assertThat(r.ruleViolations()).singleElement().asString().contains("length");
        assertThat(r.revisions()).isEmpty();
        assertThat(r.finalText()).isEqualTo(shortItem.content());

        SnapshotItem drift = item(DRIFT);
        SantaResult ok = panels.processor().process(DRIFT, drift.content(), drift.source());
        assertThat(ok.outcome()).as("%s", ok).isEqualTo(SantaOutcome.NICE);
        assertThat(ok.revisions()).singleElement().satisfies(f -> assertThat(f.after()).isEqualTo(OWN_1 + " " + OWN_2));
        assertThat(panels.revisionCheck().violations(OWN_1 + " " + OWN_2, drift.source())).isEmpty();
    }
}
