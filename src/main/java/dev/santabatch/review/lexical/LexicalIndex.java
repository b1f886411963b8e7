package dev.santabatch.review.lexical;

import dev.santabatch.config.LexicalThresholds;
import dev.santabatch.review.offline.CatalogSnapshot;
import dev.santabatch.review.offline.OfflineMethod;
import dev.santabatch.execution.PreparationStoppedException;
import dev.santabatch.review.offline.SnapshotItem;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The lexical reviewer's catalog-wide state for one round, built by {@link #prepare} from the
 * round's {@link CatalogSnapshot} and read-only afterwards (thread-safe; shared by the fresh
 * reviewer instances of every panel round).
 *
 * <h2>In the store (tables {@code lx_*}, db/migration/V1__store_schema.sql)</h2>
 * MinHash signature and LSH buckets per item revision (computed once per revision: a restart or a
 * later round skips revisions already sketched, and takes their buckets from the stored signature),
 * the round's snapshot revisions, and an inverted index of source tokens. A round's rows are written
 * once ({@code lx_prepared} marks them complete): a second prepare of the round (the batch-fix step
 * after the review step, a restart) only builds the heap state again. Near-duplicate candidates come from one SQL lookup of the query's 42
 * bucket keys joined with the round's revisions; only those candidates are compared.
 *
 * <h2>Bounded work per query (near-linear catalog-wide search)</h2>
 * A templated catalog has dense buckets: at 100,000 generated items some buckets hold hundreds of
 * revisions (recurring boilerplate, repeated drift texts), and a member's query would read, estimate
 * and verify all of them, so the whole-catalog search grows with the square of the catalog. Every
 * bucket is therefore read through a cap of {@link #DEFAULT_BUCKET_CAP} revisions: {@code prepare}
 * counts the round's bucket sizes in a fixed count-min table, and for each bucket counted above the
 * cap it stores the first {@code cap} members (by item id) in {@code lx_dense}; a query reads a dense
 * bucket from there and any other bucket (at most {@code cap} members, since the count-min never
 * under-counts) from {@code lx_band}. A query so looks at no more than 42 × cap revisions. What
 * the cap costs: in a bucket of more than {@code cap} members a query sees only {@code cap} of them,
 * so an item in a large cluster of near-duplicates is still flagged (the sampled members are its
 * near-duplicates too) but not every member is named; pair recall against exact search is measured by
 * {@code LexicalCatalogTests} (a tiny cap on the sample catalog) and by {@code LexicalBenchmark} (at 10,000 items).
 *
 * <h2>In the heap (documented bounds)</h2>
 * <ul>
 *   <li>the stop-shingle list: shingles in more than {@link LexicalThresholds#stopDf} items; at
 *       most (total shingles / stopDf) entries, about 100 / {@code stop-shingle-share} = 10,000;
 *   <li>the name/brand dictionary: one entry per distinct value of the phrase fields (name, brand,
 *       model...) with at most 3 example item ids each, and one entry per distinct (name, brand)
 *       pair: O(distinct products) small strings, no per-item sketches or texts;
 *   <li>document frequencies of source tokens and of lower-case content words (vocabulary-bounded).
 * </ul>
 * The first {@code prepare} of a run also counts shingle document frequencies in a fixed 8 MB
 * count-min table (released afterwards) to freeze the stop-shingle list in the store.
 */
public final class LexicalIndex implements OfflineMethod {

    /** Source columns whose values are distinctive names (matched as phrases in sentences). */
    public static final List<String> DEFAULT_PHRASE_FIELDS = List.of("name", "brand", "model", "manufacturer", "product");

    private static final int CHUNK = 500;
    private static final int EXAMPLES = 3;
    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(LexicalIndex.class);
    /** Interval of the prepare's progress lines. */
    static final long PROGRESS_NANOS = 30_000_000_000L;
    private volatile long progressEveryNanos = PROGRESS_NANOS;
    private static final int POSTINGS = 200;
    private static final int FOREIGN_TERMS = 8;
    private static final double ESTIMATE_SLACK = 0.15;
    /** Revisions read per LSH bucket at most (see the class comment). */
    public static final int DEFAULT_BUCKET_CAP = 100;

    private final JdbcTemplate jdbc;
    private final TransactionTemplate tx;
    private final LexicalThresholds thresholds;
    private final List<String> phraseFields;
    private final int bucketCap;
    private final AtomicLong queries = new AtomicLong();
    private final AtomicLong candidates = new AtomicLong();
    private final AtomicLong verified = new AtomicLong();
    private volatile @Nullable State state;

    public LexicalIndex(DataSource dataSource, LexicalThresholds thresholds, List<String> phraseFields) {
        this(dataSource, thresholds, phraseFields, DEFAULT_BUCKET_CAP);
    }

    /** With another bucket cap (tests force dense buckets on a small catalog with a tiny cap). */
    LexicalIndex(DataSource dataSource, LexicalThresholds thresholds, List<String> phraseFields, int bucketCap) {
        if (bucketCap < 1) {
            throw new IllegalArgumentException("bucket cap must be at least 1, was " + bucketCap);
        }
        this.bucketCap = bucketCap;
        this.jdbc = new JdbcTemplate(Objects.requireNonNull(dataSource, "dataSource"));
        this.tx = new TransactionTemplate(new DataSourceTransactionManager(dataSource));
        this.thresholds = Objects.requireNonNull(thresholds, "thresholds");
        this.phraseFields = phraseFields.stream().map(f -> f.toLowerCase(Locale.ROOT)).toList();
    }

    public LexicalIndex(DataSource dataSource, LexicalThresholds thresholds) {
        this(dataSource, thresholds, DEFAULT_PHRASE_FIELDS);
    }

    public LexicalThresholds thresholds() {
        return thresholds;
    }

    // ------------------------------------------------------------------------------------------ build

    /** Sets the interval of the prepare's progress lines (tests: 0, every chunk). */
    void progressEveryNanos(long nanos) {
        this.progressEveryNanos = nanos;
    }

    @Override
    public void prepare(CatalogSnapshot snapshot) {
        // a DataSource this process has not opened as a store (a test's, a benchmark's) is migrated first
        dev.santabatch.persistence.StoreSchema.migrate(java.util.Objects.requireNonNull(jdbc.getDataSource(), "dataSource"));
        long run = snapshot.runPk();
        long[] stop = stopList(snapshot);
        Builder b = new Builder(snapshot, stop);
        Integer done = jdbc.queryForObject("SELECT COUNT(*) FROM lx_prepared WHERE run_pk = ? AND round = ?", Integer.class,
                run, snapshot.round());
        if (done != null && done > 0) {
            // the round's rows are complete (a second prepare of the round: the batch-fix step after the
            // review step, or a restart): only the heap state is built again, from the snapshot and the
            // round's dense buckets (each dense bucket has at least one row in lx_dense)
            long[] learned = {0};
            snapshot.forEach(item -> {
                if (learned[0]++ % CHUNK == 0) {
                    snapshot.checkStop("lexical index, round " + snapshot.round() + ": " + learned[0] + " of " + snapshot.size() + " items read");
                }
                b.learn(item);
            });
            long[] dense = jdbc.queryForList("SELECT DISTINCT bucket FROM lx_dense WHERE run_pk = ? AND round = ?", Long.class,
                    run, snapshot.round()).stream().mapToLong(Long::longValue).sorted().toArray();
            state = b.build(dense);
            return;
        }
        jdbc.update("DELETE FROM lx_round WHERE run_pk = ? AND round = ?", run, snapshot.round());
        jdbc.update("DELETE FROM lx_dense WHERE run_pk = ? AND round = ?", run, snapshot.round());
        BucketSizes sizes = new BucketSizes(bucketCap);
        List<SnapshotItem> chunk = new ArrayList<>(CHUNK);
        // progress at most every PROGRESS_NANOS: a 100,000-item round sketches for minutes
        long[] progress = {System.nanoTime(), System.nanoTime(), 0}; // start, last line, items stored
        Runnable storeChunk = () -> {
            // a stop between two chunks: the chunks stored are kept (lx_prepared is not set, so the
            // next prepare of the round stores them again, reusing their sketches)
            snapshot.checkStop("lexical index, round " + snapshot.round() + ": sketched " + progress[2] + " of " + snapshot.size() + " items");
            store(snapshot, stop, chunk, sizes);
            progress[2] += chunk.size();
            chunk.clear();
            long now = System.nanoTime();
            if (now - progress[1] >= progressEveryNanos) {
                progress[1] = now;
                log.info("lexical index, round {}: sketched {} of {} items ({} /s)", snapshot.round(), progress[2], snapshot.size(),
                        Math.round(progress[2] / ((now - progress[0]) / 1e9)));
            }
        };
        snapshot.forEach(item -> {
            // every item: learning an item's phrases and storing a chunk take long on a loaded machine
            if (snapshot.stopRequested()) {
                throw new PreparationStoppedException("lexical index, round " + snapshot.round() + ": sketched " + progress[2]
                        + " of " + snapshot.size() + " items");
            }
            b.learn(item);
            chunk.add(item);
            if (chunk.size() == CHUNK) {
                storeChunk.run();
            }
        });
        if (!chunk.isEmpty()) {
            storeChunk.run();
        }
        long[] dense = sizes.dense();
        storeDense(snapshot, dense);
        jdbc.update("INSERT INTO lx_prepared (run_pk, round) VALUES (?, ?)", run, snapshot.round());
        state = b.build(dense);
    }

    /**
     * For each bucket counted above the cap, its first {@code cap} members of the round (by item id)
     * in {@code lx_dense}: what queries read instead of the whole bucket. One index range read per
     * dense bucket; their total size is at most the round's 42 bucket rows per item.
     */
    private void storeDense(CatalogSnapshot snapshot, long[] dense) {
        for (int start = 0; start < dense.length; start += CHUNK) {
            snapshot.checkStop("lexical index, round " + snapshot.round() + ": dense buckets, " + start + " of " + dense.length);
            int from = start;
            int to = Math.min(dense.length, from + CHUNK);
            tx.executeWithoutResult(st -> {
                for (int i = from; i < to; i++) {
                    jdbc.update("INSERT INTO lx_dense (run_pk, round, bucket, item_id, rev) SELECT b.run_pk, r.round, b.bucket, b.item_id, b.rev"
                                    + " FROM lx_band b JOIN lx_round r ON r.run_pk = b.run_pk AND r.round = ? AND r.item_id = b.item_id AND r.rev = b.rev"
                                    + " WHERE b.bucket = ? AND b.run_pk = ? ORDER BY b.item_id FETCH FIRST " + bucketCap + " ROWS ONLY",
                            snapshot.round(), dense[i], snapshot.runPk());
                }
            });
        }
    }

    /** The frozen stop-shingle list of the run: loaded, or counted at the run's first prepare. */
    private long[] stopList(CatalogSnapshot snapshot) {
        long run = snapshot.runPk();
        List<Integer> meta = jdbc.queryForList("SELECT stop_df FROM lx_meta WHERE run_pk = ?", Integer.class, run);
        if (meta.isEmpty()) {
            int stopDf = thresholds.stopDf(snapshot.size());
            CountMin cm = new CountMin();
            long[] seen = {0};
            snapshot.forEach(item -> {
                if (seen[0]++ % CHUNK == 0) {
                    snapshot.checkStop("lexical index: counting shingles, " + seen[0] + " of " + snapshot.size() + " items");
                }
                cm.addAll(shingles(item.content(), item.source()));
            });
            Set<Long> stop = new HashSet<>();
            seen[0] = 0;
            snapshot.forEach(item -> {
                if (seen[0]++ % CHUNK == 0) {
                    snapshot.checkStop("lexical index: stop-shingle list, " + seen[0] + " of " + snapshot.size() + " items");
                }
                for (long h : shingles(item.content(), item.source())) {
                    if (cm.estimate(h) > stopDf) {
                        stop.add(h);
                    }
                }
            });
            tx.executeWithoutResult(s -> {
                jdbc.update("DELETE FROM lx_stop WHERE run_pk = ?", run);
                List<Object[]> rows = stop.stream().map(h -> new Object[] {run, h}).toList();
                jdbc.batchUpdate("INSERT INTO lx_stop (run_pk, shingle) VALUES (?, ?)", rows);
                jdbc.update("INSERT INTO lx_meta (run_pk, stop_df, items) VALUES (?, ?, ?)", run, stopDf, snapshot.size());
            });
        }
        return jdbc.queryForList("SELECT shingle FROM lx_stop WHERE run_pk = ?", Long.class, run).stream()
                .mapToLong(Long::longValue).sorted().toArray();
    }

    private void store(CatalogSnapshot snapshot, long[] stop, List<SnapshotItem> chunk, BucketSizes sizes) {
        long run = snapshot.runPk();
        String in = String.join(",", Collections.nCopies(chunk.size(), "?"));
        Object[] args = new Object[chunk.size() + 1];
        args[0] = run;
        for (int i = 0; i < chunk.size(); i++) {
            args[i + 1] = chunk.get(i).id();
        }
        Map<String, String> sketched = new HashMap<>();
        jdbc.query("SELECT item_id, rev, sig FROM lx_sketch WHERE run_pk = ? AND item_id IN (" + in + ")",
                (org.springframework.jdbc.core.RowCallbackHandler) rs -> sketched.put(rs.getString(1) + '\u0000' + rs.getInt(2), rs.getString(3)),
                args);
        Set<String> termed = new HashSet<>(jdbc.queryForList(
                "SELECT DISTINCT item_id FROM lx_term WHERE run_pk = ? AND item_id IN (" + in + ")", String.class, args));
        List<Object[]> sketches = new ArrayList<>();
        List<Object[]> bands = new ArrayList<>();
        List<Object[]> terms = new ArrayList<>();
        List<Object[]> round = new ArrayList<>();
        for (SnapshotItem item : chunk) {
            round.add(new Object[] {run, snapshot.round(), item.id(), item.rev()});
            // the round's bucket sizes count every revision of the snapshot, sketched before or now
            String stored = sketched.get(item.id() + '\u0000' + item.rev());
            if (stored != null) {
                // sketched before (an earlier round or a restart): its buckets from the stored signature,
                // the text is not shingled and hashed again (the stop list is frozen, so they are the same)
                sizes.addAll(stored.isEmpty() ? new long[0] : MinHasher.buckets(MinHasher.decode(stored)));
            } else {
                long[] sh = informative(item.content(), item.source(), stop);
                int[] sig = sh.length == 0 ? null : MinHasher.signature(sh);
                long[] buckets = sig == null ? new long[0] : MinHasher.buckets(sig);
                sizes.addAll(buckets);
                if (sig == null) {
                    sketches.add(new Object[] {run, item.id(), item.rev(), 0, ""});
                } else {
                    sketches.add(new Object[] {run, item.id(), item.rev(), sh.length, MinHasher.encode(sig)});
                    for (int bnd = 0; bnd < buckets.length; bnd++) {
                        bands.add(new Object[] {run, item.id(), item.rev(), bnd, buckets[bnd]});
                    }
                }
            }
            if (!termed.contains(item.id())) {
                for (String t : sourceTerms(item.source())) {
                    terms.add(new Object[] {run, t, item.id()});
                }
            }
        }
        tx.executeWithoutResult(s -> {
            jdbc.batchUpdate("INSERT INTO lx_round (run_pk, round, item_id, rev) VALUES (?, ?, ?, ?)", round);
            jdbc.batchUpdate("INSERT INTO lx_sketch (run_pk, item_id, rev, shingles, sig) VALUES (?, ?, ?, ?, ?)", sketches);
            jdbc.batchUpdate("INSERT INTO lx_band (run_pk, item_id, rev, band, bucket) VALUES (?, ?, ?, ?, ?)", bands);
            jdbc.batchUpdate("INSERT INTO lx_term (run_pk, term, item_id) VALUES (?, ?, ?)", terms);
        });
    }

    /** The text's fact-free shingles: its own facts masked ({@link Tokens#masked}), shingles holding one left out. */
    static long[] shingles(String content, Map<String, String> source) {
        return Tokens.factFreeShingleHashes(Tokens.masked(content, source));
    }

    static long[] informative(String content, Map<String, String> source, long[] stop) {
        long[] all = shingles(content, source);
        return Arrays.stream(all).filter(h -> Arrays.binarySearch(stop, h) < 0).toArray();
    }

    /** Distinct lower-case tokens with a letter, not function words, of every source value. */
    static Set<String> sourceTerms(Map<String, String> source) {
        Set<String> out = new LinkedHashSet<>();
        for (String v : source.values()) {
            if (v == null) {
                continue;
            }
            for (String w : Tokens.words(v)) {
                if (w.length() > 1 && w.length() <= 200 && Tokens.hasLetter(w) && !Tokens.STOP.contains(w)) {
                    out.add(w);
                }
            }
        }
        return out;
    }

    // ------------------------------------------------------------------------------------------ queries

    private State state() {
        State s = state;
        if (s == null) {
            throw new IllegalStateException("LexicalIndex.prepare(snapshot) has not been called");
        }
        return s;
    }

    /** The round this index was prepared for. */
    public int round() {
        return state().round;
    }

    /** Near-duplicate queries answered so far. */
    public long queries() {
        return queries.get();
    }

    /** Bucket candidates (distinct snapshot items sharing a band bucket) looked at so far, over all queries. */
    public long candidateComparisons() {
        return candidates.get();
    }

    /** Candidates verified by exact Jaccard so far (those whose signature estimate came close). */
    public long exactVerifications() {
        return verified.get();
    }

    /**
     * Other snapshot items whose text has an informative-shingle Jaccard of at least the threshold
     * with {@code content}, highest first.
     */
    public List<NearDuplicate> nearDuplicates(String itemId, String content) {
        return nearDuplicates(itemId, content, thresholds.nearDuplicateJaccard());
    }

    /** As {@link #nearDuplicates(String, Map, String, double)}, with the source of the snapshot's item {@code itemId}. */
    public List<NearDuplicate> nearDuplicates(String itemId, String content, double threshold) {
        Map<String, String> source = state().snapshot.get(itemId).map(SnapshotItem::source).orElse(Map.of());
        return nearDuplicates(itemId, source, content, threshold);
    }

    /**
     * Other snapshot items whose text, with its own facts masked, has an informative-shingle Jaccard of at
     * least the threshold with {@code content} (masked with {@code source}), highest first.
     */
    public List<NearDuplicate> nearDuplicates(String itemId, Map<String, String> source, String content, double threshold) {
        State s = state();
        queries.incrementAndGet();
        long[] sh = informative(content, source, s.stop);
        if (sh.length == 0) {
            return List.of();
        }
        int[] sig = MinHasher.signature(sh);
        long[] buckets = MinHasher.buckets(sig);
        long[] sparse = Arrays.stream(buckets).filter(k -> Arrays.binarySearch(s.dense, k) < 0).toArray();
        long[] dense = Arrays.stream(buckets).filter(k -> Arrays.binarySearch(s.dense, k) >= 0).toArray();
        Map<String, String[]> found = new LinkedHashMap<>();
        if (sparse.length > 0) {
            String in = String.join(",", Collections.nCopies(sparse.length, "?"));
            jdbc.query("SELECT DISTINCT k.item_id, k.sig FROM lx_band b JOIN lx_round r ON r.run_pk = b.run_pk AND r.round = ? AND r.item_id = b.item_id"
                            + " AND r.rev = b.rev JOIN lx_sketch k ON k.run_pk = b.run_pk AND k.item_id = b.item_id AND k.rev = b.rev"
                            + " WHERE b.run_pk = ? AND b.bucket IN (" + in + ") AND b.item_id <> ?",
                    (org.springframework.jdbc.core.RowCallbackHandler) rs -> found.putIfAbsent(rs.getString(1), new String[] {rs.getString(1), rs.getString(2)}),
                    bandArgs(s, itemId, sparse));
        }
        if (dense.length > 0) {
            String in = String.join(",", Collections.nCopies(dense.length, "?"));
            jdbc.query("SELECT DISTINCT k.item_id, k.sig FROM lx_dense d JOIN lx_sketch k ON k.run_pk = d.run_pk AND k.item_id = d.item_id AND k.rev = d.rev"
                            + " WHERE d.bucket IN (" + in + ") AND d.run_pk = ? AND d.round = ? AND d.item_id <> ?",
                    (org.springframework.jdbc.core.RowCallbackHandler) rs -> found.putIfAbsent(rs.getString(1), new String[] {rs.getString(1), rs.getString(2)}),
                    denseArgs(s, itemId, dense));
        }
        List<String[]> cands = new ArrayList<>(found.values());
        candidates.addAndGet(cands.size());
        List<NearDuplicate> out = new ArrayList<>();
        for (String[] c : cands) {
            if (c[1].isEmpty() || MinHasher.estimate(sig, MinHasher.decode(c[1])) < threshold - ESTIMATE_SLACK) {
                continue;
            }
            SnapshotItem other = s.snapshot.get(c[0]).orElse(null);
            if (other == null) {
                continue;
            }
            verified.incrementAndGet();
            long[] theirs = informative(other.content(), other.source(), s.stop);
            double j = Tokens.jaccard(sh, theirs);
            if (j >= threshold && Tokens.shared(sh, theirs) >= thresholds.nearDuplicateMinShared()) {
                out.add(new NearDuplicate(other.id(), j));
            }
        }
        out.sort(Comparator.comparingDouble(NearDuplicate::jaccard).reversed().thenComparing(NearDuplicate::itemId));
        return out;
    }

    private static Object[] bandArgs(State s, String itemId, long[] buckets) {
        Object[] args = new Object[buckets.length + 3];
        args[0] = s.round;
        args[1] = s.runPk;
        for (int i = 0; i < buckets.length; i++) {
            args[i + 2] = buckets[i];
        }
        args[buckets.length + 2] = itemId;
        return args;
    }

    private static Object[] denseArgs(State s, String itemId, long[] buckets) {
        Object[] args = new Object[buckets.length + 3];
        for (int i = 0; i < buckets.length; i++) {
            args[i] = buckets[i];
        }
        args[buckets.length] = s.runPk;
        args[buckets.length + 1] = s.round;
        args[buckets.length + 2] = itemId;
        return args;
    }

    /** The bucket cap: revisions read per LSH bucket at most. */
    public int bucketCap() {
        return bucketCap;
    }

    /** Buckets of this round counted above the cap (read through their stored sample). */
    public int denseBuckets() {
        return state().dense.length;
    }

    /** The informative shingle hashes of an item's text under this run's stop list (for exact-search measurements). */
    long[] informative(SnapshotItem item) {
        return informative(item.content(), item.source(), state().stop);
    }

    /** Exact informative-shingle Jaccard of two items' texts under this run's stop list (for tests and measurements). */
    public double jaccard(SnapshotItem a, SnapshotItem b) {
        long[] stop = state().stop;
        return Tokens.jaccard(informative(a.content(), a.source(), stop), informative(b.content(), b.source(), stop));
    }

    /** A phrase of another item's source found in a sentence. */
    record PhraseHit(String display, String field, int tokenStart, int tokenEnd, List<String> exampleIds) {}

    /**
     * Phrases of other items' name/brand fields that a sentence names, excluding any that is (part
     * of) one of the item's own values; generic words are not matched at the start of a sentence.
     */
    List<PhraseHit> foreignPhrases(List<Tokens.Tok> sentence, Map<String, String> ownSource) {
        State s = state();
        List<List<String>> own = new ArrayList<>();
        Set<String> ownKeys = new HashSet<>();
        for (Map.Entry<String, String> e : ownSource.entrySet()) {
            // every own value counts as own, of any column: a sentence stating its own city is about itself
            if (e.getValue() != null) {
                List<String> toks = Tokens.words(e.getValue());
                if (!toks.isEmpty()) {
                    own.add(toks);
                    ownKeys.add(" " + String.join(" ", toks) + " ");
                }
            }
        }
        boolean[] covered = new boolean[sentence.size()];
        for (List<String> o : own) {
            for (int i = 0; i + o.size() <= sentence.size(); i++) {
                if (matches(sentence, i, o)) {
                    Arrays.fill(covered, i, i + o.size(), true);
                }
            }
        }
        List<PhraseHit> hits = new ArrayList<>();
        int i = 0;
        while (i < sentence.size()) {
            Phrase best = null;
            for (Phrase p : s.byFirst.getOrDefault(sentence.get(i).lower(), List.of())) {
                if ((best == null || p.tokens.size() > best.tokens.size()) && i + p.tokens.size() <= sentence.size()
                        && matches(sentence, i, p.tokens) && casesMatch(sentence, i, p) && !overlaps(covered, i, p.tokens.size())
                        && !isOwn(p, ownKeys) && !(i == 0 && p.tokens.size() == 1 && s.lowerWords.contains(p.tokens.get(0)))) {
                    best = p;
                }
            }
            if (best != null) {
                hits.add(new PhraseHit(best.display, best.field, i, i + best.tokens.size(), best.ids));
                i += best.tokens.size();
            } else {
                i++;
            }
        }
        return hits;
    }

    /** Example items holding all of the given phrases in their own phrase fields (a product named by name and brand). */
    List<String> itemsNaming(List<String> displays) {
        State s = state();
        if (displays.size() >= 2) {
            for (int a = 0; a < displays.size(); a++) {
                for (int b = 0; b < displays.size(); b++) {
                    List<String> ids = s.pairs.get(key(displays.get(a)) + '|' + key(displays.get(b)));
                    if (a != b && ids != null) {
                        return ids;
                    }
                }
            }
        }
        Phrase p = s.phrases.get(key(displays.get(0)));
        return p == null ? List.of() : p.ids;
    }

    private static boolean isOwn(Phrase p, Set<String> ownKeys) {
        String k = " " + p.key + " ";
        for (String o : ownKeys) {
            if (o.contains(k)) {
                return true;
            }
        }
        return false;
    }

    private static boolean overlaps(boolean[] covered, int from, int len) {
        for (int i = from; i < from + len; i++) {
            if (covered[i]) {
                return true;
            }
        }
        return false;
    }

    private static boolean matches(List<Tokens.Tok> sentence, int at, List<String> tokens) {
        for (int j = 0; j < tokens.size(); j++) {
            if (!sentence.get(at + j).lower().equals(tokens.get(j))) {
                return false;
            }
        }
        return true;
    }

    private static boolean casesMatch(List<Tokens.Tok> sentence, int at, Phrase p) {
        for (int j = 0; j < p.tokens.size(); j++) {
            if (p.capital[j] && !sentence.get(at + j).capital()) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether a source value names something a sentence can be about: every value of a name-like column
     * ({@link #DEFAULT_PHRASE_FIELDS}), and a value of any other text-valued column that is written as a proper
     * name (a word with a letter that is not a function word starts with a capital: a city, a region, "Saltreach
     * Coast"; not "headphones", "guided walk" or a number). Such a value is then matched only as capitalised
     * in the source, as whole words, the longest value first.
     */
    boolean isPhraseValue(String field, String value) {
        if (isPhraseField(field)) {
            return true;
        }
        return Tokens.tokens(value).stream().anyMatch(t -> t.capital() && Tokens.hasLetter(t.lower()) && !Tokens.STOP.contains(t.lower()));
    }

    boolean isPhraseField(String field) {
        String f = field.toLowerCase(Locale.ROOT);
        return phraseFields.contains(f);
    }

    /**
     * Source overlap of a text: with its own source, and the best other item's (a lower bound), as IDF
     * shares. The other item must share at least {@value #MIN_OTHER_TERMS} distinct terms with the
     * text: one ordinary word of another item's name ("blend", "pan", "plus", "loop") in a text that
     * happens not to repeat its own name is no evidence that the text is about that item.
     */
    record Overlap(double own, double other, @Nullable String otherId) {}

    /** Distinct source terms another item must share with a text to be its best other match. */
    static final int MIN_OTHER_TERMS = 2;

    Overlap sourceOverlap(String itemId, Map<String, String> source, String content) {
        State s = state();
        Set<String> ownTerms = sourceTerms(source);
        Map<String, Double> q = new LinkedHashMap<>();
        for (String w : Tokens.words(content)) {
            Integer df = s.termDf.get(w);
            if (df != null && !Tokens.STOP.contains(w)) {
                q.put(w, Math.log(1.0 + (double) s.items / df));
            }
        }
        double total = q.values().stream().mapToDouble(Double::doubleValue).sum();
        if (total == 0) {
            return new Overlap(0, 0, null);
        }
        double own = q.entrySet().stream().filter(e -> ownTerms.contains(e.getKey())).mapToDouble(Map.Entry::getValue).sum();
        List<String> foreign = q.keySet().stream().filter(t -> !ownTerms.contains(t))
                .sorted(Comparator.comparingInt((String t) -> s.termDf.get(t)).thenComparing(t -> t))
                .limit(FOREIGN_TERMS).toList();
        Map<String, Double> score = new HashMap<>();
        Map<String, Integer> terms = new HashMap<>();
        for (String t : foreign) {
            List<String> ids = jdbc.queryForList("SELECT item_id FROM lx_term WHERE run_pk = ? AND term = ?"
                    // ordered as the index (run_pk, term, item_id), so H2 reads the first postings instead of sorting them all
                    + " ORDER BY run_pk, term, item_id FETCH FIRST "
                    + POSTINGS + " ROWS ONLY", String.class, s.runPk, t);
            for (String id : ids) {
                if (!id.equals(itemId)) {
                    score.merge(id, q.get(t), Double::sum);
                    terms.merge(id, 1, Integer::sum);
                }
            }
        }
        String bestId = null;
        double best = 0;
        for (Map.Entry<String, Double> e : score.entrySet()) {
            if (terms.get(e.getKey()) < MIN_OTHER_TERMS) {
                continue;
            }
            if (e.getValue() > best || (e.getValue() == best && bestId != null && e.getKey().compareTo(bestId) < 0)) {
                best = e.getValue();
                bestId = e.getKey();
            }
        }
        return new Overlap(own / total, best / total, bestId);
    }

    /** An item of the snapshot (for naming what another item is). */
    java.util.Optional<SnapshotItem> item(String id) {
        return state().snapshot.get(id);
    }

    static String key(String value) {
        return String.join(" ", Tokens.words(value));
    }

    // ------------------------------------------------------------------------------------------ state

    private static final class Phrase {
        final String key;
        final String display;
        final String field;
        final List<String> tokens;
        final boolean[] capital;
        final List<String> ids = new ArrayList<>(EXAMPLES);

        Phrase(String display, String field) {
            this.display = display;
            this.field = field;
            List<Tokens.Tok> toks = Tokens.tokens(display);
            this.tokens = toks.stream().map(Tokens.Tok::lower).toList();
            this.key = String.join(" ", tokens);
            this.capital = new boolean[toks.size()];
            for (int i = 0; i < toks.size(); i++) {
                capital[i] = toks.get(i).capital();
            }
        }
    }

    private record State(long runPk, int round, long items, CatalogSnapshot snapshot, long[] stop, long[] dense, Map<String, Phrase> phrases,
            Map<String, List<Phrase>> byFirst, Map<String, List<String>> pairs, Set<String> lowerWords, Map<String, Integer> termDf) {}

    private final class Builder {
        final CatalogSnapshot snapshot;
        final long[] stop;
        final Map<String, Phrase> phrases = new HashMap<>();
        final Map<String, List<String>> pairs = new HashMap<>();
        final Set<String> lowerWords = new HashSet<>();
        final Map<String, Integer> termDf = new HashMap<>();
        long items;

        Builder(CatalogSnapshot snapshot, long[] stop) {
            this.snapshot = snapshot;
            this.stop = stop;
        }

        void learn(SnapshotItem item) {
            items++;
            List<String> keys = new ArrayList<>();
            for (Map.Entry<String, String> e : item.source().entrySet()) {
                String v = e.getValue();
                if (v == null || !isPhraseValue(e.getKey(), v)) {
                    continue;
                }
                Phrase p = phrases.computeIfAbsent(key(v), k -> new Phrase(v.strip(), e.getKey()));
                if (p.tokens.isEmpty() || p.tokens.stream().allMatch(Tokens.STOP::contains)) {
                    continue;
                }
                if (p.ids.size() < EXAMPLES && !p.ids.contains(item.id())) {
                    p.ids.add(item.id());
                }
                keys.add(p.key);
            }
            for (int a = 0; a < keys.size(); a++) {
                for (int b = a + 1; b < keys.size(); b++) {
                    List<String> ids = pairs.computeIfAbsent(keys.get(a) + '|' + keys.get(b), k -> new ArrayList<>(EXAMPLES));
                    if (ids.size() < EXAMPLES) {
                        ids.add(item.id());
                    }
                }
            }
            for (String t : sourceTerms(item.source())) {
                termDf.merge(t, 1, Integer::sum);
            }
            for (Tokens.Tok t : Tokens.tokens(item.content())) {
                if (!t.capital() && Tokens.hasLetter(t.lower())) {
                    lowerWords.add(t.lower());
                }
            }
        }

        State build(long[] dense) {
            Map<String, List<Phrase>> byFirst = new HashMap<>();
            Map<String, Phrase> kept = new HashMap<>();
            for (Phrase p : phrases.values()) {
                if (p.tokens.isEmpty() || p.tokens.stream().allMatch(Tokens.STOP::contains)) {
                    continue;
                }
                kept.put(p.key, p);
                byFirst.computeIfAbsent(p.tokens.get(0), k -> new ArrayList<>()).add(p);
            }
            return new State(snapshot.runPk(), snapshot.round(), items, snapshot, stop, dense, kept, byFirst, pairs, lowerWords, termDf);
        }
    }

    /**
     * The round's bucket sizes in a count-min table (never under-counts), and every bucket key whose
     * count passed the cap at some point (counts only grow, so none is missed). The heap it keeps: 8 MB
     * of counters during {@code prepare} and at most (42 × items / cap) keys plus count-min false
     * positives (a bucket wrongly taken as dense is read from its sample, which then holds all of it).
     */
    private static final class BucketSizes {
        private final CountMin counts = new CountMin();
        private final Set<Long> dense = new HashSet<>();
        private final int cap;

        BucketSizes(int cap) {
            this.cap = cap;
        }

        void addAll(long[] buckets) {
            counts.addAll(buckets);
            for (long k : buckets) {
                if (counts.estimate(k) > cap) {
                    dense.add(k);
                }
            }
        }

        long[] dense() {
            return dense.stream().mapToLong(Long::longValue).sorted().toArray();
        }
    }

    /** A fixed-size count-min table (2 rows of 2^20 counters, 8 MB) of shingle document frequencies. */
    private static final class CountMin {
        private static final int BITS = 20;
        private final int[] a = new int[1 << BITS];
        private final int[] b = new int[1 << BITS];

        void addAll(long[] hashes) {
            for (long h : hashes) {
                a[(int) (MinHasher.mix(h) >>> (64 - BITS))]++;
                b[(int) (MinHasher.mix(h ^ 0x3C6EF372FE94F82BL) >>> (64 - BITS))]++;
            }
        }

        int estimate(long h) {
            return Math.min(a[(int) (MinHasher.mix(h) >>> (64 - BITS))], b[(int) (MinHasher.mix(h ^ 0x3C6EF372FE94F82BL) >>> (64 - BITS))]);
        }
    }
}
