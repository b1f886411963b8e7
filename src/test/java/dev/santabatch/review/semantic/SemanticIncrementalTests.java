package dev.santabatch.review.semantic;

import static org.assertj.core.api.Assertions.assertThat;

import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.santabatch.config.SemanticSettings;
import dev.santabatch.review.offline.MemorySnapshot;
import dev.santabatch.review.offline.SnapshotItem;
import dev.santabatch.review.ReviewRequest;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The semantic index across rounds: a later round embeds and indexes only the revisions changed since
 * the last one (typicality, passages and bands are kept per revision; references and centring means are
 * frozen at the run's first round), while every query still sees only the round's own revisions. A
 * stand-in model (a vector per sentence template plus noise, as in {@link SemanticBenchmark}) counts
 * the texts embedded.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SemanticIncrementalTests {

    private static final long RUN = 3;

    private final AtomicLong embedded = new AtomicLong();
    private ExecutorService pool;
    private JdbcDataSource ds;
    private JdbcTemplate jdbc;
    private MemorySnapshot round1;
    private MemorySnapshot round2;
    private SemanticIndex index1;
    private SemanticIndex index2;
    private String copier;
    private String original;
    private final List<String> changed = new ArrayList<>();
    private long embeddedRound1;
    private long embeddedRound2;

    @BeforeAll
    void prepare() throws Exception {
        pool = Executors.newFixedThreadPool(2);
        ds = new JdbcDataSource();
        ds.setURL("jdbc:h2:mem:sm-inc-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
        jdbc = new JdbcTemplate(ds);
        TestCatalog generated = TestCatalog.generated(RUN, 21L, 300, true);
        round1 = new MemorySnapshot(RUN, 1, items(generated));
        List<SnapshotItem> all = new ArrayList<>(round1.items());
        // round 2: three items get a new revision; one of them becomes a copy of another item's text
        original = all.get(10).id();
        copier = all.get(20).id();
        Map<String, SnapshotItem> next = new LinkedHashMap<>();
        all.forEach(i -> next.put(i.id(), i));
        SnapshotItem c = next.get(copier);
        next.put(copier, new SnapshotItem(c.id(), 1, next.get(original).content(), c.source(), c.category()));
        for (SnapshotItem i : List.of(all.get(30), all.get(40))) {
            next.put(i.id(), new SnapshotItem(i.id(), 1, i.content() + " It ships in a recycled cardboard box.", i.source(), i.category()));
        }
        changed.addAll(List.of(copier, all.get(30).id(), all.get(40).id()));
        round2 = new MemorySnapshot(RUN, 2, next);

        index1 = new SemanticIndex(ds, () -> Embedder.of("stand-in", standIn(embedded)), pool, SemanticSettings.defaults());
        index1.prepare(round1);
        embeddedRound1 = embedded.get();
        index2 = new SemanticIndex(ds, () -> Embedder.of("stand-in", standIn(embedded)), pool, SemanticSettings.defaults());
        index2.prepare(round2);
        embeddedRound2 = embedded.get() - embeddedRound1;
    }

    private static Map<String, SnapshotItem> items(MemorySnapshot s) {
        Map<String, SnapshotItem> out = new LinkedHashMap<>();
        s.items().forEach(i -> out.put(i.id(), i));
        return out;
    }

    @AfterAll
    void close() throws InterruptedException {
        pool.shutdown();
        assertThat(pool.awaitTermination(1, TimeUnit.MINUTES)).isTrue();
    }

    @Test
    void aLaterRoundEmbedsAndIndexesOnlyTheChangedRevisions() {
        long sentences = changed.stream().mapToLong(id -> SemanticIndex.sentencesOf(round2.get(id).orElseThrow().content()).size()).sum();
        assertThat(embeddedRound2).as("texts embedded in round 2").isEqualTo(sentences);
        assertThat(count("SELECT COUNT(*) FROM sm_indexed WHERE run_pk = ? AND rev = 0")).isEqualTo(round1.size());
        assertThat(count("SELECT COUNT(*) FROM sm_indexed WHERE run_pk = ? AND rev = 1")).isEqualTo(3);
        assertThat(count("SELECT COUNT(*) FROM sm_indexed WHERE run_pk = ? AND rev = -1")).as("source bands once per item").isEqualTo(round1.size());
        // content bands: 20 per revision; round 2 added those of the three new revisions only
        assertThat(count("SELECT COUNT(*) FROM sm_rev_band WHERE run_pk = ? AND kind = 'content'")).isEqualTo(20L * (round1.size() + 3));
        assertThat(count("SELECT COUNT(*) FROM sm_rev_typical WHERE run_pk = ?")).isEqualTo(round1.size() + 3);
        assertThat(count("SELECT COUNT(*) FROM sm_member WHERE run_pk = ? AND round = 2")).isEqualTo(round2.size());
        assertThat(count("SELECT COUNT(*) FROM sm_reference WHERE run_pk = ? AND round = 2")).as("references frozen at round 1").isZero();
    }

    @Test
    void referencesAndMeansAreFrozenAtTheFirstRound() {
        String category = round1.get(original).orElseThrow().category();
        SemanticIndex.Reference r1 = index1.reference(category);
        SemanticIndex.Reference r2 = index2.reference(category);
        assertThat(r2.itemIds()).containsExactly(r1.itemIds());
        for (int i = 0; i < r1.vectors().length; i++) {
            assertThat(r2.vectors()[i]).isEqualTo(r1.vectors()[i]);
        }
    }

    @Test
    void theRoundsQueriesSeeOnlyItsOwnRevisions() {
        SemanticIndex.Stored orig = index1.stored(original).orElseThrow();
        // round 2: the copier's new revision is the original's text, so a near-copy of it
        assertThat(index2.near(SemanticIndex.CONTENT, orig.content(), 0.999, original)).extracting(SemanticIndex.Neighbour::itemId).contains(copier);
        // round 1 (prepared again: nothing is rebuilt) does not see that revision, though its bands are in the store
        SemanticIndex again = new SemanticIndex(ds, () -> {
            throw new AssertionError("nothing may be embedded again");
        }, pool, SemanticSettings.defaults());
        again.prepare(round1);
        assertThat(again.near(SemanticIndex.CONTENT, orig.content(), 0.999, original)).extracting(SemanticIndex.Neighbour::itemId).doesNotContain(copier);
        assertThat(again.stored(copier).orElseThrow().rev()).isZero();
        assertThat(index2.stored(copier).orElseThrow().rev()).isEqualTo(1);
        // the copier's old revision is not a member of round 2: not found by its own old content vector
        float[] old = again.stored(copier).orElseThrow().content();
        assertThat(index2.near(SemanticIndex.CONTENT, old, 0.999, null)).extracting(SemanticIndex.Neighbour::itemId).doesNotContain(copier);
        assertThat(again.near(SemanticIndex.CONTENT, old, 0.999, null)).extracting(SemanticIndex.Neighbour::itemId).contains(copier);
        // passages are the round revision's
        for (String id : changed) {
            SemanticIndex.Passage p2 = index2.passages(List.of(id)).get(id);
            List<String> expected = jdbc.queryForList("SELECT vec FROM sm_rev_passage WHERE run_pk = ? AND item_id = ? AND rev = 1", String.class, RUN, id);
            assertThat(p2 == null ? List.of() : List.of(Vectors.encode(p2.vector()))).isEqualTo(expected);
        }
    }

    @Test
    void aCrashedRoundIsCompletedFromTheStore() {
        // a crash after some revisions were indexed and before the round's marker: the rest is indexed, nothing twice
        long bands = count("SELECT COUNT(*) FROM sm_rev_band WHERE run_pk = ?");
        jdbc.update("DELETE FROM sm_round WHERE run_pk = ? AND round = 2", RUN);
        // (what indexing writes for a revision, in one transaction)
        jdbc.update("DELETE FROM sm_vprobe WHERE vid IN (SELECT vid FROM sm_rev_band WHERE run_pk = ? AND item_id = ? AND rev = 1)", RUN, copier);
        for (String table : List.of("sm_indexed", "sm_rev_band", "sm_rev_typical", "sm_rev_passage")) {
            jdbc.update("DELETE FROM " + table + " WHERE run_pk = ? AND item_id = ? AND rev = 1", RUN, copier);
        }
        long highest = count("SELECT MAX(vid) FROM sm_rev_band WHERE run_pk = ?");
        SemanticIndex again = new SemanticIndex(ds, () -> {
            throw new AssertionError("nothing may be embedded again");
        }, pool, SemanticSettings.defaults());
        again.prepare(round2);
        assertThat(count("SELECT COUNT(*) FROM sm_rev_band WHERE run_pk = ?")).isEqualTo(bands);
        // the restarted prepare numbers its vectors after the run's highest id
        assertThat(jdbc.queryForList("SELECT DISTINCT vid FROM sm_rev_band WHERE run_pk = ? AND item_id = ? AND rev = 1", Long.class, RUN, copier))
                .isNotEmpty().allSatisfy(vid -> assertThat(vid).isGreaterThan(highest));
        // every banded vector has its probe, under its own id: one vector per id, one id per vector
        assertThat(count("SELECT COUNT(DISTINCT vid) FROM sm_rev_band WHERE run_pk = ?"))
                .isEqualTo(jdbc.queryForObject("SELECT COUNT(*) FROM sm_vprobe WHERE vid >= ? AND vid < ?", Long.class,
                        RUN << SemanticIndex.VID_BITS, (RUN + 1) << SemanticIndex.VID_BITS));
        assertThat(count("SELECT COUNT(*) FROM (SELECT vid FROM sm_rev_band WHERE run_pk = ? GROUP BY vid"
                + " HAVING COUNT(DISTINCT kind || '/' || item_id || '/' || rev || '/' || seq) > 1) t")).isZero();
        assertThat(count("SELECT COUNT(*) FROM (SELECT kind, item_id, rev, seq FROM sm_rev_band WHERE run_pk = ?"
                + " GROUP BY kind, item_id, rev, seq HAVING COUNT(DISTINCT vid) > 1) t")).isZero();
        // and the probe under the copier's content id is its content vector's
        byte[] probe = jdbc.queryForObject("SELECT p.q FROM sm_vprobe p WHERE p.vid = (SELECT DISTINCT vid FROM sm_rev_band"
                + " WHERE run_pk = ? AND kind = 'content' AND item_id = ? AND rev = 1)", byte[].class, RUN, copier);
        assertThat(probe).isEqualTo(Vectors.probe(again.stored(copier).orElseThrow().content()));
        assertThat(count("SELECT COUNT(*) FROM sm_member WHERE run_pk = ? AND round = 2")).isEqualTo(round2.size());
        assertThat(again.stored(copier).orElseThrow().typical()).isEqualTo(index2.stored(copier).orElseThrow().typical());
    }

    @Test
    void bandsGetMoreRowsBeyondTheBaseSizeFrozenWithTheRunAndUsedByItsQueries() {
        assertThat(SemanticIndex.lshExtraRows(1_200)).isZero();
        assertThat(SemanticIndex.lshExtraRows(SemanticIndex.LSH_BASE_ITEMS)).isZero();
        assertThat(SemanticIndex.lshExtraRows(SemanticIndex.LSH_BASE_ITEMS + 1)).isEqualTo(1);
        assertThat(SemanticIndex.lshExtraRows(100_000)).isEqualTo(4);
        assertThat(count("SELECT lsh_extra_rows FROM sm_frozen WHERE run_pk = ?")).as("300 items: base rows").isZero();

        // another run over round 2's items (the copier's text is the original's), with the base size
        // lowered to 50 items: 300 items get ceil(log2(6)) = 3 extra rows per band
        long run = RUN + 1;
        MemorySnapshot alone = new MemorySnapshot(run, 1, items(round2));
        SemanticIndex scaled = new SemanticIndex(ds, () -> Embedder.of("stand-in", standIn(embedded)), pool, SemanticSettings.defaults());
        scaled.lshBaseItems = 50;
        scaled.prepare(alone);
        assertThat(jdbc.queryForObject("SELECT lsh_extra_rows FROM sm_frozen WHERE run_pk = ?", Integer.class, run)).isEqualTo(3);
        assertThat(bucketsOf(run)).as("the bands hold different buckets from the base rows'").isNotEqualTo(bucketsOf(RUN));
        // a query hashes with the rows its bands were written with: the copy is found, also by an index
        // prepared later for the same run (a restart) that would, by its own base size, use none
        SemanticIndex.Stored orig = scaled.stored(original).orElseThrow();
        assertThat(scaled.near(SemanticIndex.CONTENT, orig.content(), 0.97, original)).extracting(SemanticIndex.Neighbour::itemId).contains(copier);
        SemanticIndex restarted = new SemanticIndex(ds, () -> Embedder.of("stand-in", standIn(embedded)), pool, SemanticSettings.defaults());
        restarted.prepare(new MemorySnapshot(run, 2, items(round2)));
        assertThat(restarted.near(SemanticIndex.CONTENT, orig.content(), 0.97, original)).extracting(SemanticIndex.Neighbour::itemId).contains(copier);
    }

    @Test
    void aCandidateWithoutAProbeIsCheckedWithItsFloatVector() {
        // band rows written before vector ids existed have none (so no probe): the float vector decides, with the same result
        long run = RUN + 2;
        SemanticIndex index = new SemanticIndex(ds, () -> Embedder.of("stand-in", standIn(embedded)), pool, SemanticSettings.defaults());
        index.prepare(new MemorySnapshot(run, 1, items(round2)));
        float[] orig = index.stored(original).orElseThrow().content();
        List<SemanticIndex.Neighbour> withProbe = index.near(SemanticIndex.CONTENT, orig, 0.97, original);
        assertThat(withProbe).extracting(SemanticIndex.Neighbour::itemId).contains(copier);
        assertThat(jdbc.update("UPDATE sm_rev_band SET vid = NULL WHERE run_pk = ?", run)).isPositive();
        assertThat(index.near(SemanticIndex.CONTENT, orig, 0.97, original)).isEqualTo(withProbe);
    }

    @Test
    void theCandidateQueryLooksUpItsBuckets() {
        // the plan H2 runs for a near-neighbour query: an IN lookup of the buckets in the band index,
        // reading only those buckets' rows (a plan that scans the index reads every band row of the store)
        long bandRows = jdbc.queryForObject("SELECT COUNT(*) FROM sm_rev_band", Long.class);
        List<Long> buckets = bucketsOf(RUN);
        List<Object> args = new ArrayList<>(buckets);
        args.add(RUN);
        args.add(SemanticIndex.CONTENT);
        String plan = jdbc.queryForObject("EXPLAIN ANALYZE " + SemanticIndex.candidateSql(buckets.size()), String.class, args.toArray());
        assertThat(plan).contains("BUCKET IN(");
        java.util.regex.Matcher scanned = java.util.regex.Pattern.compile("scanCount: (\\d+)").matcher(plan);
        assertThat(scanned.find()).as(plan).isTrue();
        long rows = Long.parseLong(scanned.group(1));
        assertThat(rows).as("band rows read of %d", bandRows).isLessThan(bandRows / 10);
        // and their probes: one key lookup each
        List<Long> vids = jdbc.queryForList(candidate(buckets.size()), Long.class, args.toArray()).stream().distinct().limit(5).toList();
        assertThat(vids).hasSize(5);
        String probePlan = jdbc.queryForObject("EXPLAIN ANALYZE " + SemanticIndex.probeSql(vids.size()), String.class, vids.toArray());
        assertThat(probePlan).contains("VID IN(");
        java.util.regex.Matcher probed = java.util.regex.Pattern.compile("scanCount: (\\d+)").matcher(probePlan);
        assertThat(probed.find()).as(probePlan).isTrue();
        assertThat(Long.parseLong(probed.group(1))).as(probePlan).isLessThanOrEqualTo(vids.size() + 1);
    }

    @Test
    void aQueryStopsAtTheMostNeighboursItNames() {
        // one text copied to more items than a query names: each query finds exactly MAX_NEIGHBOURS of them
        long run = RUN + 3;
        Map<String, SnapshotItem> copies = new LinkedHashMap<>(items(round1));
        List<String> ids = new ArrayList<>(copies.keySet());
        String text = copies.get(original).content();
        for (String id : ids.subList(0, SemanticIndex.MAX_NEIGHBOURS + 20)) {
            SnapshotItem i = copies.get(id);
            copies.put(id, new SnapshotItem(id, 1, text, i.source(), i.category()));
        }
        SemanticIndex index = new SemanticIndex(ds, () -> Embedder.of("stand-in", standIn(embedded)), pool, SemanticSettings.defaults());
        index.prepare(new MemorySnapshot(run, 1, copies));
        float[] v = index.stored(ids.get(0)).orElseThrow().content();
        List<SemanticIndex.Neighbour> found = index.near(SemanticIndex.CONTENT, v, 0.97, ids.get(0));
        assertThat(found).hasSize(SemanticIndex.MAX_NEIGHBOURS);
        assertThat(found).extracting(SemanticIndex.Neighbour::itemId).doesNotHaveDuplicates()
                .allSatisfy(id -> assertThat(ids.subList(0, SemanticIndex.MAX_NEIGHBOURS + 20)).contains(id));
        // the reviewer's issue says its count of the others is a lower bound
        SnapshotItem first = copies.get(ids.get(0));
        SemanticReviewer.Analysis a = new SemanticReviewer("C", Set.of(SemanticReviewer.ORIGINAL), index)
                .analyse(new ReviewRequest("spec", first.id(), first.source(), first.content(), List.of()));
        assertThat(a.atLeast()).isTrue();
        assertThat(SemanticReviewer.originalIssues(a)).singleElement().asString()
                .contains("and at least " + (SemanticIndex.MAX_NEIGHBOURS - 5) + " more");
    }

    @Test
    void prepareLogsItsProgress() {
        // the embedding and indexing of a round say how far they are (every 30 s; here at every batch)
        ch.qos.logback.classic.Logger logger = (ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory.getLogger(SemanticIndex.class);
        ch.qos.logback.core.read.ListAppender<ch.qos.logback.classic.spi.ILoggingEvent> appender = new ch.qos.logback.core.read.ListAppender<>();
        appender.start();
        logger.addAppender(appender);
        try {
            SemanticIndex index = new SemanticIndex(ds, () -> Embedder.of("stand-in", standIn(embedded)), pool, SemanticSettings.defaults());
            index.progressEveryNanos = 0;
            index.prepare(new MemorySnapshot(RUN + 4, 1, items(round1)));
        } finally {
            logger.detachAppender(appender);
        }
        List<String> lines = appender.list.stream().map(ch.qos.logback.classic.spi.ILoggingEvent::getFormattedMessage).toList();
        long n = round1.size();
        assertThat(lines).anySatisfy(l -> assertThat(l).startsWith("semantic index, round 1: embedded or found stored: 256 of " + n + " items ("))
                .anySatisfy(l -> assertThat(l).startsWith("semantic index, round 1: embedded or found stored: " + n + " of " + n + " items ("))
                .anySatisfy(l -> assertThat(l).startsWith("semantic index, round 1: indexed (new revisions): " + n + " of " + n + " items ("));
    }

    /** The vector ids the candidate query finds. */
    private static String candidate(int buckets) {
        return SemanticIndex.candidateSql(buckets).replace("SELECT item_id, rev, seq, vid FROM", "SELECT vid FROM");
    }

    private List<Long> bucketsOf(long run) {
        return jdbc.queryForList("SELECT bucket FROM sm_rev_band WHERE run_pk = ? AND kind = 'content' AND item_id = '"
                + original + "' ORDER BY bucket", Long.class, run);
    }

    private long count(String sql) {
        return jdbc.queryForObject(sql, Long.class, RUN);
    }

    /** A vector per sentence template (capitalised words and numbers masked) plus noise; counts the texts embedded. */
    /** 64 random unit vectors: the stand-in model's templates. */
    private static final List<float[]> BASE = new ArrayList<>();

    static {
        Random r = new Random(5);
        for (int b = 0; b < 64; b++) {
            float[] v = new float[Embedder.DIMENSION];
            for (int i = 0; i < v.length; i++) {
                v[i] = (float) r.nextGaussian();
            }
            BASE.add(Vectors.normalise(v));
        }
    }

    private static EmbeddingModel standIn(AtomicLong embedded) {
        return new TemplateStandInModel(BASE, 0.05, embedded);
    }

}
