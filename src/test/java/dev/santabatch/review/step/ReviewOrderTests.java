package dev.santabatch.review.step;

import dev.santabatch.model.ModelCalls;
import dev.santabatch.patterns.ExactIssueClassifier;
import dev.santabatch.prepass.RulesRevisionCheck;
import dev.santabatch.review.offline.StoreSnapshot;
import static org.assertj.core.api.Assertions.assertThat;

import dev.santabatch.config.JobDefinition;
import dev.santabatch.config.JobFileLoader;
import dev.santabatch.review.offline.MemorySnapshot;
import dev.santabatch.review.offline.SnapshotItem;
import dev.santabatch.config.SourceFields;
import dev.santabatch.review.Check;
import dev.santabatch.review.IssueSimilarity;
import dev.santabatch.review.PanelReview;
import dev.santabatch.review.Review;
import dev.santabatch.review.ReviewOutcome;
import dev.santabatch.review.ReviewRequest;
import dev.santabatch.prepass.rules.RuleEngine;
import dev.santabatch.persistence.FieldsCodec;
import dev.santabatch.persistence.Store;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.commons.csv.CSVRecord;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.Test;

/**
 * The offline reviewers judge a round against the catalog as it stood when the round started, so
 * their verdicts do not depend on the order in which the round's items are reviewed, nor on the
 * fixes written while the round runs. The default job's panel (lexical B, semantic C) is prepared on
 * the sample catalog held in the run's store ({@link StoreSnapshot}, as the review step prepares
 * it); a set of the round's items (every item with planted drift or boilerplate, and clean ones) is
 * reviewed once sequentially in input order, then again in reverse order, concurrently, by a fresh
 * panel prepared after fixes were written to other items in the middle of the round (as a restarted
 * review step would be), with a review of such a fixed revision before each item. Every reviewer's
 * verdict, checks, critical issues and the other items they name are the same.
 */
class ReviewOrderTests {

    static final Path SAMPLE = Path.of("sample-data/products.csv");
    static final Pattern ITEM_ID = Pattern.compile("\\bP\\d{5}\\b");

    /** One reviewer's judgement of one item, as compared. */
    record Judgement(String verdict, List<String> checks, List<String> issues, Set<String> named) {}

    @Test
    void verdictsDoNotDependOnTheOrderOfReviewNorOnFixesWrittenDuringTheRound() throws Exception {
        JobDefinition job = JobFileLoader.load(Path.of("jobs/product-descriptions.yml"));
        JdbcDataSource ds = new JdbcDataSource();
        ds.setURL("jdbc:h2:mem:order-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
        Store store = new Store(ds);
        dev.santabatch.persistence.StoreSchema.migrate(ds);
        long runPk = store.createRunIfAbsent(new Store.RunRow(0, job.name(), "order", "job.yml", SAMPLE.toString(), "out", 1,
                Instant.now(), null, null)).runPk();
        List<CSVRecord> records = MemorySnapshot.records(SAMPLE);
        List<String> header = new ArrayList<>(records.get(0).getParser().getHeaderNames());
        List<Store.NewItem> rows = new ArrayList<>();
        for (CSVRecord r : records) {
            rows.add(new Store.NewItem(r.get("id"), r.getRecordNumber(), r.getRecordNumber() + 1, r.get("category"),
                    FieldsCodec.encode(r.toList())));
        }
        store.insertItems(runPk, rows);
        SourceFields source = new SourceFields(job, header);
        int category = header.indexOf("category");

        // the round's items under test: every item with planted drift or boilerplate, and the first 100 clean ones
        Set<String> planted = new TreeSet<>();
        for (CSVRecord t : MemorySnapshot.records(Path.of("sample-data/products.truth.csv"))) {
            if (t.get("kind").startsWith("drift") || t.get("kind").equals("boilerplate")) {
                planted.add(t.get("id"));
            }
        }
        List<String> subjects = new ArrayList<>();
        int clean = 0;
        for (CSVRecord r : records) {
            if (planted.contains(r.get("id")) || clean++ < 100) {
                subjects.add(r.get("id"));
            }
        }

        ExecutorService embedPool = Executors.newFixedThreadPool(2);
        ExecutorService itemPool = Executors.newFixedThreadPool(3);
        try {
            StoreSnapshot start = new StoreSnapshot(store, runPk, 1, source, category);
            Map<String, SnapshotItem> asOfStart = new LinkedHashMap<>();
            subjects.forEach(id -> asOfStart.put(id, start.get(id).orElseThrow()));

            // first: sequentially, in input order
            Map<String, List<Judgement>> first = new LinkedHashMap<>();
            try (Panels panels = panels(job, ds, embedPool)) {
                panels.prepare(start);
                for (String id : subjects) {
                    first.put(id, judge(panels, job, asOfStart.get(id)));
                }
            }

            // fixes written during the round: items become copies of other items' texts, or lose their drifted sentence
            Map<String, String> fixed = new LinkedHashMap<>();
            for (int i = 0; i < 40; i++) {
                String id = subjects.get(i * subjects.size() / 40);
                String donor = subjects.get((i * subjects.size() / 40 + 7) % subjects.size());
                String content = i % 2 == 0
                        ? asOfStart.get(donor).content()
                        : asOfStart.get(id).content().replaceAll("[^.!?]*[.!?]\\s*$", "").strip();
                if (!content.isBlank() && !content.equals(asOfStart.get(id).content())) {
                    store.addRevision(runPk, id, 1, 1, dev.santabatch.persistence.Cause.SANTA_FIX, null, content);
                    fixed.put(id, content);
                }
            }
            assertThat(fixed).hasSizeGreaterThan(30);

            // then: in reverse order, concurrently, by a fresh panel prepared now (a restarted review step), each
            // item's review preceded by the review of a revision fixed in this round
            Map<String, List<Judgement>> second = new ConcurrentHashMap<>();
            List<String> fixedIds = new ArrayList<>(fixed.keySet());
            try (Panels panels = panels(job, ds, embedPool)) {
                panels.prepare(new StoreSnapshot(store, runPk, 1, source, category));
                List<String> reversed = new ArrayList<>(subjects);
                Collections.reverse(reversed);
                List<Future<?>> futures = new ArrayList<>();
                for (int i = 0; i < reversed.size(); i++) {
                    String id = reversed.get(i);
                    String fixedId = fixedIds.get(i % fixedIds.size());
                    futures.add(itemPool.submit(() -> {
                        SnapshotItem f = asOfStart.get(fixedId);
                        judge(panels, job, new SnapshotItem(fixedId, 1, fixed.get(fixedId), f.source(), f.category()));
                        second.put(id, judge(panels, job, asOfStart.get(id)));
                    }));
                }
                for (Future<?> f : futures) {
                    f.get();
                }
            }

            int failing = 0;
            int naming = 0;
            for (String id : subjects) {
                assertThat(second.get(id)).as("%s reviewed in another order", id).isEqualTo(first.get(id));
                failing += first.get(id).stream().anyMatch(j -> j.verdict().equals("FAIL")) ? 1 : 0;
                naming += first.get(id).stream().anyMatch(j -> !j.named().isEmpty()) ? 1 : 0;
            }
            System.out.printf("review order: %d items, %d failed by a reviewer, %d with issues naming other items; %d revisions"
                    + " written mid-round; same judgements in both orders%n", subjects.size(), failing, naming, fixed.size());
            // the comparison is not vacuous: the set holds failures, and failures that name other items
            assertThat(failing).isGreaterThan(100);
            assertThat(naming).isGreaterThan(30);
        } finally {
            for (ExecutorService pool : List.of(itemPool, embedPool)) {
                pool.shutdown(); // every task has finished; no interrupt (a task may have been inside H2)
                assertThat(pool.awaitTermination(1, TimeUnit.MINUTES)).isTrue();
            }
        }
    }

    private static Panels panels(JobDefinition job, JdbcDataSource ds, ExecutorService embedPool) {
        return new Panels(job,
                Map.of("lexical", new OfflineReviewerTypes.Lexical(job, ds), "semantic", new OfflineReviewerTypes.Semantic(job, ds, embedPool)),
                new RulesRevisionCheck(RuleEngine.forJob(job)), IssueSimilarity.exactNormalised(), new ExactIssueClassifier(),
                p -> new OfflineFixer(job, p), ModelCalls.none());
    }

    /** The panel's reviews of one item, each reduced to what is compared. */
    private static List<Judgement> judge(Panels panels, JobDefinition job, SnapshotItem it) {
        ReviewRequest request = new ReviewRequest(job.taskSpec(), it.id(), it.source(), it.content(), job.santaCriteria());
        List<Judgement> out = new ArrayList<>();
        for (PanelReview pr : panels.panel().review(panels.newPanel(), request)) {
            Review r = ((ReviewOutcome.Reviewed) pr.outcome()).review();
            Set<String> named = new TreeSet<>();
            for (String issue : r.criticalIssues()) {
                Matcher m = ITEM_ID.matcher(issue);
                while (m.find()) {
                    named.add(m.group());
                }
            }
            out.add(new Judgement(r.verdict().name(), r.checks().stream().map(Check::toString).toList(), r.criticalIssues(), named));
        }
        return out;
    }
}
