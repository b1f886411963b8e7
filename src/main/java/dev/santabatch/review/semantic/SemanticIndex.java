package dev.santabatch.review.semantic;

import dev.santabatch.config.SemanticSettings;
import dev.santabatch.review.offline.CatalogSnapshot;
import dev.santabatch.review.offline.OfflineMethod;
import dev.santabatch.execution.PassProgress;
import dev.santabatch.review.offline.SnapshotItem;
import dev.santabatch.text.SentenceSplitter;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.Objects;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import javax.sql.DataSource;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The catalog-wide state of the semantic reviewer for one round, built by {@link #prepare} from the
 * round's {@link CatalogSnapshot} and kept in the store (tables of {@link SemanticSchema}), read-only
 * afterwards; fresh {@link SemanticReviewer} instances share it. Thread-safe.
 *
 * <ul>
 *   <li>every item revision is embedded once (its sentences, their mean as the content vector, and
 *       its source facts once per item); a restart finds the vectors in the store;
 *   <li>per category, a bounded uniform sample of sentence vectors (reservoir): the reference for how
 *       typical a sentence is of a description of that category (its density, see {@link Reference});
 *   <li>per item revision, its passage: the mean of its atypical sentences (what is not a usual sentence of its
 *       category: shop boilerplate, drift), when it has at least {@code paraphrase-min-sentences};
 *   <li>random-hyperplane LSH bands over content vectors (near-copies), passages (shared passages,
 *       paraphrased or not) and source vectors ("closer to another item's source"):
 *       every comparison with the rest of the catalog is a bucket lookup and an exact cosine on the
 *       candidates, never a scan.
 * </ul>
 *
 * <h2>Incremental rounds: what is frozen, and why that is sound</h2>
 * The references and the centring means (content, source, passage) are computed once, at the run's
 * first prepared round, and frozen for the run (as the lexical index freezes its stop-shingle list).
 * A reference says what a typical sentence of a category looks like, and a mean is the common
 * component of the catalog's vectors that centring removes before hashing; between rounds only the
 * few items changed by the last batch fix differ, which does not change either in any way that
 * matters (a reference is a 2,000-sentence sample, a mean an average over the whole catalog), and a
 * frozen reference makes typicality comparable between rounds instead of depending on each round's
 * sample. Everything derived from a revision and the frozen state (typicality, passage, bands) is
 * therefore keyed by item revision ({@code sm_indexed} marks a revision done), and a round's prepare
 * records only its membership ({@code sm_member}: which revision of each item) and indexes the
 * revisions not indexed before. Every query joins the round's membership, so a check still judges
 * against the round's snapshot, never against a revision written since.
 */
public final class SemanticIndex implements OfflineMethod {

    public static final String SENTENCE = "sentence";
    public static final String PASSAGE = "passage";
    public static final String CONTENT = "content";
    public static final String SOURCE = "source";

    /** Items embedded and stored per batch: one stop check each (64 items: about 2 s at 30 items/s). */
    private static final int FLUSH = 64;
    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(SemanticIndex.class);
    /** How often a long prepare logs its progress. */
    private static final long PROGRESS_NANOS = 30_000_000_000L;

    /**
     * Band rows a near-neighbour query reads at most (a vector counts once per band it shares with the
     * query, up to 48 for passages, and rows of revisions no longer in the round count too): bounds the
     * work of a query in a dense region (hundreds of items sharing one passage). A query that reaches it
     * before {@link #MAX_NEIGHBOURS} may miss neighbours beyond those rows; an item in such a region is
     * still found to have near-duplicates, only not all of them are named. {@code SemanticBenchmark}
     * counts such queries ({@link #queryStats()}).
     */
    public static final int MAX_CANDIDATE_ROWS = 3000;
    /**
     * Neighbours a near-neighbour query finds at most: it stops verifying candidates once it has
     * this many. The reviewer names five and counts the rest; a boilerplate passage shared by a
     * share of a generated catalog has neighbours in proportion to the catalog, so without a bound the
     * search of every item would grow with the square of the catalog whatever the index.
     */
    public static final int MAX_NEIGHBOURS = 50;

    /** Sentences sampled per category as the reference for typicality. */
    public static final int REFERENCE_SAMPLE = 2000;
    /** Share of the reference whose mean similarity is a sentence's density. */
    public static final double DENSITY_SHARE_PERCENT = 2.2;

    /** A stored vector of another item, found by a near-neighbour query and verified by exact cosine. */
    public record Neighbour(String itemId, int seq, double cosine) {}

    /**
     * What the store holds of one item of the round.
     *
     * @param typical each sentence's typicality without the task specification, as computed at prepare
     *     (null when not stored)
     */
    public record Stored(String itemId, int rev, String category, String contentHash, List<float[]> sentences, float[] content, double[] typical) {}

    /**
     * The prepared round: its run and number, the round at which the run's references and centring
     * means were frozen, and those (read-only).
     */
    private record RoundState(long runPk, int round, int frozenRound, Map<String, Reference> references, Map<String, float[]> means,
            Map<String, SimHash> lsh) {}

    /**
     * Catalog size up to which the LSH bands keep their base rows ({@link #LSH_BASE}); the base
     * configurations were chosen, and their recall against exact search measured, on catalogs up to
     * this size. Beyond it every kind gets {@code ceil(log2(items / this))} more rows per band, frozen
     * with the run's references: a bucket then holds about as many items at 100,000 as at 10,000,
     * so a query's candidates do not grow with the catalog (with fixed rows they grow linearly and the
     * whole search quadratically). More rows make a pair at the threshold less likely to share a
     * bucket; SemanticBenchmark measures the recall against exact search at each size.
     */
    public static final int LSH_BASE_ITEMS = 10_000;

    /** Bands, base rows per band and plane seed per kind: recall at least 0.95 at each kind's threshold up to {@link #LSH_BASE_ITEMS}. */
    private static final Map<String, int[]> LSH_BASE = Map.of(
            CONTENT, new int[] {20, 12, 11},
            PASSAGE, new int[] {48, 6, 12},
            SOURCE, new int[] {20, 10, 13});

    /** The extra rows per band for a run whose references are frozen over this many items. */
    public static int lshExtraRows(long items) {
        return lshExtraRows(items, LSH_BASE_ITEMS);
    }

    static int lshExtraRows(long items, int baseItems) {
        if (items <= baseItems) {
            return 0;
        }
        return (int) Math.ceil(Math.log((double) items / baseItems) / Math.log(2));
    }

    /** {@link #PROGRESS_NANOS}, lowered by tests to see the progress log on a small catalog. */
    long progressEveryNanos = PROGRESS_NANOS;

    /** {@link #LSH_BASE_ITEMS}, lowered by tests to exercise extra rows on a small catalog. */
    int lshBaseItems = LSH_BASE_ITEMS;

    private final Map<Integer, Map<String, SimHash>> lshByExtraRows = new ConcurrentHashMap<>();

    /** The run's hashes: the base rows plus the extra rows (0 reproduces the base hashes exactly: same planes, same bits). */
    private Map<String, SimHash> lsh(int extraRows) {
        return lshByExtraRows.computeIfAbsent(extraRows, e -> {
            Map<String, SimHash> m = new HashMap<>();
            LSH_BASE.forEach((kind, c) -> m.put(kind, new SimHash(Embedder.DIMENSION, c[0], c[1] + e, c[2])));
            return Map.copyOf(m);
        });
    }

    /**
     * A bounded uniform sample of a category's sentences (at most {@value #REFERENCE_SAMPLE}): what
     * "typical for a description of this category" is measured against.
     */
    public record Reference(String[] itemIds, float[][] vectors) {

        /**
         * The mean cosine of the sentence to its {@value #DENSITY_SHARE_PERCENT} % nearest reference
         * sentences (at least 3) of other items: high for the catalog's usual kinds of sentence,
         * low for a sentence about something else. Linear in the (bounded) sample.
         */
        public double density(float[] v, String ownItem) {
            int k = Math.max(3, (int) Math.round(vectors.length * DENSITY_SHARE_PERCENT / 100.0));
            double[] top = new double[k];
            java.util.Arrays.fill(top, -1);
            int filled = 0;
            for (int i = 0; i < vectors.length; i++) {
                if (itemIds[i].equals(ownItem)) {
                    continue;
                }
                double c = Vectors.dot(v, vectors[i]);
                if (c > top[0]) { // top[0] is the smallest kept
                    top[0] = c;
                    filled++;
                    for (int j = 0; j + 1 < k && top[j] > top[j + 1]; j++) {
                        double t = top[j];
                        top[j] = top[j + 1];
                        top[j + 1] = t;
                    }
                }
            }
            int n = Math.min(k, filled);
            if (n == 0) {
                return 1; // nothing to compare with: not evidence of drift
            }
            double sum = 0;
            for (int j = k - n; j < k; j++) {
                sum += top[j];
            }
            return sum / n;
        }
    }

    private final JdbcTemplate jdbc;
    private final TransactionTemplate tx;
    private final Supplier<Embedder> embedder;
    private final Executor executor;
    private final SemanticSettings settings;
    /** The hashes of the run being prepared (set by prepare before any band is written). */
    private volatile Map<String, SimHash> preparing;
    private final Map<String, long[]> profile = new ConcurrentHashMap<>();
    private final Map<String, float[]> textCache = new ConcurrentHashMap<>();
    private final AtomicLong candidates = new AtomicLong();
    private final AtomicLong queries = new AtomicLong();
    private final AtomicLong cappedQueries = new AtomicLong();
    private volatile RoundState state;
    /** The round's house-style sentences ({@link #houseStyle}), as hashes of their normalised text. */
    private volatile Set<Long> houseStyle = Set.of();

    /**
     * A sentence in more than this share of a round's items (and more than {@link #HOUSE_STYLE_MIN_ITEMS}) is the
     * catalog's house style. A large share: at 1 % the product generator's repeated drift sentences (a topic
     * sentence planted in a dozen items of 1,200) passed as house style and the semantic reviewer's recall on
     * its {@code FRESH} pool fell from 0.953 to 0.832.
     */
    static final double HOUSE_STYLE_SHARE = 0.05;
    static final int HOUSE_STYLE_MIN_ITEMS = 10;

    public SemanticIndex(DataSource dataSource, Supplier<Embedder> embedder, Executor executor, SemanticSettings settings) {
        this.jdbc = new JdbcTemplate(dataSource);
        this.tx = new TransactionTemplate(new DataSourceTransactionManager(dataSource));
        this.embedder = embedder;
        this.executor = executor;
        this.settings = settings;
        // a DataSource this process has not opened as a store (a test's, a benchmark's) is migrated first
        dev.santabatch.persistence.StoreSchema.migrate(dataSource);
    }

    /** Over the shared quantized model, embedding on the calling thread. */
    /**
     * Whether a sentence is the catalog's house style: the same words (case and punctuation aside) in more than
     * {@link #HOUSE_STYLE_SHARE} of the round's items and more than {@link #HOUSE_STYLE_MIN_ITEMS} of them (a
     * shop's returns line, "Free Wi-Fi throughout."). Such a sentence is legitimate in any item: it is typical
     * by definition, neither off-topic nor part of an item's passage.
     */
    public boolean houseStyle(String sentence) {
        return houseStyle.contains(sentenceKey(sentence));
    }

    private static long sentenceKey(String sentence) {
        StringBuilder b = new StringBuilder(sentence.length());
        sentence.codePoints().forEach(cp -> {
            if (Character.isLetterOrDigit(cp)) {
                b.appendCodePoint(Character.toLowerCase(cp));
            } else if (b.length() > 0 && b.charAt(b.length() - 1) != ' ') {
                b.append(' ');
            }
        });
        String t = b.toString().strip();
        long h = 0xcbf29ce484222325L;
        for (int i = 0; i < t.length(); i++) {
            h ^= t.charAt(i);
            h *= 0x100000001b3L;
        }
        return h;
    }

    /** The round's house-style sentence keys: sentences counted once per item, kept when above the share. */
    private static Set<Long> houseStyleOf(CatalogSnapshot snapshot) {
        long minItems = Math.max(HOUSE_STYLE_MIN_ITEMS, (long) Math.ceil(HOUSE_STYLE_SHARE * snapshot.size()));
        Map<Long, Integer> counts = new java.util.HashMap<>();
        snapshot.forEach(item -> {
            Set<Long> keys = new java.util.HashSet<>();
            for (dev.santabatch.text.SentenceSplitter.Span sp : dev.santabatch.text.SentenceSplitter.split(item.content())) {
                keys.add(sentenceKey(sp.of(item.content())));
            }
            keys.forEach(k -> counts.merge(k, 1, Integer::sum));
        });
        Set<Long> out = new java.util.HashSet<>();
        counts.forEach((k, n) -> {
            if (n > minItems) {
                out.add(k);
            }
        });
        return Set.copyOf(out);
    }

    public SemanticIndex(DataSource dataSource) {
        this(dataSource, Embedder::shared, Runnable::run, SemanticSettings.defaults());
    }

    public SemanticSettings settings() {
        return settings;
    }

    public Embedder embedder() {
        return embedder.get();
    }

    public Executor executor() {
        return executor;
    }

    /**
     * Near-neighbour queries answered, candidates they verified, and queries that read
     * {@link #MAX_CANDIDATE_ROWS} band rows and found fewer than {@link #MAX_NEIGHBOURS} (for the benchmark).
     */
    public long[] queryStats() {
        return new long[] {queries.get(), candidates.get(), cappedQueries.get()};
    }

    /**
     * Per kind of near-neighbour query since the last call: queries, nanoseconds spent, candidates
     * verified (for benchmarks); resets the figures.
     */
    public Map<String, long[]> takeQueryProfile() {
        Map<String, long[]> out = new java.util.TreeMap<>();
        for (String kind : List.copyOf(profile.keySet())) {
            long[] p = profile.remove(kind);
            if (p != null) {
                synchronized (p) {
                    out.put(kind, p.clone());
                }
            }
        }
        return out;
    }

    /** The text whose vector stands for an item's source facts: its non-numeric values. */
    public static String sourceText(Map<String, String> source) {
        return source.values().stream()
                .filter(v -> v != null && !v.isBlank() && !v.strip().matches("[-+$0-9.,% ]+"))
                .map(String::strip)
                .collect(Collectors.joining(", "));
    }

    public static String hash(String content) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(content.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    // ---------------------------------------------------------------- prepare

    @Override
    public void prepare(CatalogSnapshot snapshot) {
        long run = snapshot.runPk();
        int round = snapshot.round();
        Integer done = jdbc.queryForObject("SELECT COUNT(*) FROM sm_round WHERE run_pk = ? AND round = ?", Integer.class, run, round);
        if (done == null || done == 0) {
            // the round's membership is recorded again (a crashed round left part of it); what is
            // keyed by revision (vectors, typicality, passages, bands) is kept and only completed
            jdbc.update("DELETE FROM sm_member WHERE run_pk = ? AND round = ?", run, round);
            List<SnapshotItem> buffer = new ArrayList<>(FLUSH);
            PassProgress embedded = new PassProgress(log, "semantic index, round " + round + ": embedded or found stored", snapshot.size(), progressEveryNanos);
            snapshot.forEach(item -> {
                buffer.add(item);
                if (buffer.size() >= FLUSH) {
                    // a stop between two batches: what they stored is kept (keyed by revision)
                    snapshot.checkStop("semantic index, round " + round + ": embedded " + embedded.done() + " of " + snapshot.size() + " items");
                    embedAndRecord(snapshot, run, round, buffer);
                    embedded.add(buffer.size());
                    buffer.clear();
                }
            });
            snapshot.checkStop("semantic index, round " + round + ": embedded " + embedded.done() + " of " + snapshot.size() + " items");
            embedAndRecord(snapshot, run, round, buffer);
            embedded.add(buffer.size());
            int frozen = frozenRound(run).orElseGet(() -> freeze(snapshot, run, round, snapshot.size()));
            preparing = lsh(extraRows(run));
            nextVid = nextVid(run);
            Map<String, Reference> references = references(run, frozen);
            Map<String, float[]> means = loadMeans(run, frozen);
            indexNewRevisions(snapshot, run, round, references, means, new PassProgress(log, "semantic index, round " + round + ": indexed (new revisions)", snapshot.size(),
                    progressEveryNanos));
            bandPassages(snapshot, run, round, frozen, means);
            jdbc.update("INSERT INTO sm_round (run_pk, round, items) VALUES (?, ?, ?)", run, round, snapshot.size());
        }
        houseStyle = houseStyleOf(snapshot);
        int frozen = frozenRound(run).orElseThrow(() -> new IllegalStateException("semantic index of run " + run + " has no frozen reference"));
        state = new RoundState(run, round, frozen, references(run, frozen), loadMeans(run, frozen), lsh(extraRows(run)));
    }

    /** The round at which the run's references and centring means were frozen, if any. */
    private Optional<Integer> frozenRound(long run) {
        List<Integer> r = jdbc.queryForList("SELECT round FROM sm_frozen WHERE run_pk = ?", Integer.class, run);
        return r.isEmpty() ? Optional.empty() : Optional.of(r.get(0));
    }

    /**
     * Freezes the run's references and content/source centring means at its first prepared round
     * (from that round's members), with the marker in the same transaction: a crash before it leaves
     * no frozen state, and the next prepare computes it again.
     */
    private int freeze(CatalogSnapshot snapshot, long run, int round, long items) {
        tx.executeWithoutResult(status -> {
            jdbc.update("DELETE FROM sm_reference WHERE run_pk = ? AND round = ?", run, round);
            jdbc.update("DELETE FROM sm_mean WHERE run_pk = ? AND round = ?", run, round);
            computeReferences(snapshot, run, round);
            computeMeans(run, round);
            jdbc.update("INSERT INTO sm_frozen (run_pk, round, lsh_extra_rows) VALUES (?, ?, ?)", run, round, lshExtraRows(items, lshBaseItems));
        });
        return round;
    }

    /** The LSH rows added to every band for this run (frozen with its references; 0 for a store written before they existed). */
    private int extraRows(long run) {
        List<Integer> r = jdbc.queryForList("SELECT lsh_extra_rows FROM sm_frozen WHERE run_pk = ?", Integer.class, run);
        return r.isEmpty() ? 0 : r.get(0);
    }

    /** The run's frozen references: kept from the last prepare of the same run (they never change), else loaded. */
    private Map<String, Reference> references(long run, int frozen) {
        RoundState s = state;
        if (s != null && s.runPk() == run && s.frozenRound() == frozen) {
            return s.references();
        }
        return loadReferences(run, frozen);
    }

    /** Texts embedded between two stop checks: four of the embedder's batches (the same batches as one call). */
    private static final int EMBED_SLICE = 4 * Embedder.BATCH;

    private void embedAndRecord(CatalogSnapshot snapshot, long run, int round, List<SnapshotItem> items) {
        if (items.isEmpty()) {
            return;
        }
        List<String> ids = items.stream().map(SnapshotItem::id).toList();
        String in = placeholders(ids.size());
        Map<String, String> have = new HashMap<>();
        List<Object> args = new ArrayList<>();
        args.add(run);
        args.addAll(ids);
        jdbc.query("SELECT item_id, rev, chash FROM sm_item WHERE run_pk = ? AND item_id IN (" + in + ")",
                rs -> {
                    have.put(rs.getString(1) + "#" + rs.getInt(2), rs.getString(3));
                },
                args.toArray());
        Map<String, Boolean> haveSource = new HashMap<>();
        jdbc.query("SELECT item_id FROM sm_vector WHERE run_pk = ? AND kind = 'source' AND item_id IN (" + in + ")",
                rs -> {
                    haveSource.put(rs.getString(1), true);
                },
                args.toArray());

        List<String> texts = new ArrayList<>();
        record Todo(SnapshotItem item, String hash, List<String> sentences, int from, int sourceAt) {}
        List<Todo> todo = new ArrayList<>();
        for (SnapshotItem it : items) {
            String h = hash(it.content());
            boolean needContent = !h.equals(have.get(it.id() + "#" + it.rev()));
            boolean needSource = !haveSource.containsKey(it.id());
            if (!needContent && !needSource) {
                continue;
            }
            List<String> sentences = needContent ? sentencesOf(it.content()) : List.of();
            int from = texts.size();
            texts.addAll(sentences);
            int sourceAt = -1;
            if (needSource) {
                sourceAt = texts.size();
                texts.add(sourceText(it.source()));
            }
            todo.add(new Todo(it, needContent ? h : null, sentences, from, sourceAt));
        }
        List<float[]> vectors = new ArrayList<>(texts.size());
        for (int from = 0; from < texts.size(); from += EMBED_SLICE) {
            if (from > 0) { // a stop mid-batch: the batch's vectors so far are not stored, nothing else is lost
                snapshot.checkStop("semantic index, round " + round + ": embedding a batch of " + items.size() + " items");
            }
            vectors.addAll(embedder.get().embedAll(texts.subList(from, Math.min(texts.size(), from + EMBED_SLICE)), executor));
        }
        tx.executeWithoutResult(status -> {
            List<Object[]> vecRows = new ArrayList<>();
            List<Object[]> itemRows = new ArrayList<>();
            for (Todo t : todo) {
                SnapshotItem it = t.item();
                if (t.hash() != null) {
                    // embedded for another text before (not a loop revision, whose text never changes):
                    // what was derived from it is indexed again
                    SentenceVectors.forget(jdbc, run, it.id(), it.rev(), have.containsKey(it.id() + "#" + it.rev()));
                    SentenceVectors.rows(run, it.id(), it.rev(), t.hash(), vectors.subList(t.from(), t.from() + t.sentences().size()),
                            vecRows, itemRows);
                }
                if (t.sourceAt() >= 0) {
                    jdbc.update("DELETE FROM sm_vector WHERE run_pk = ? AND item_id = ? AND rev = ?", run, it.id(), SemanticSchema.SOURCE_REV);
                    vecRows.add(new Object[] {run, it.id(), SemanticSchema.SOURCE_REV, SOURCE, 0, Vectors.encode(vectors.get(t.sourceAt()))});
                }
            }
            SentenceVectors.insert(jdbc, vecRows, itemRows);
            List<Object[]> members = new ArrayList<>();
            for (SnapshotItem it : items) {
                members.add(new Object[] {run, round, it.id(), it.rev(), it.category() == null ? "" : it.category()});
            }
            jdbc.batchUpdate("INSERT INTO sm_member (run_pk, round, item_id, rev, category) VALUES (?, ?, ?, ?, ?)", members);
        });
    }

    /** The sentences of a text as the reviewer embeds them (the whole text when it has none). */
    public static List<String> sentencesOf(String content) {
        List<String> s = SentenceSplitter.sentences(content);
        return s.isEmpty() ? List.of(content) : s;
    }

    private void computeReferences(CatalogSnapshot snapshot, long run, int round) {
        long[] rows0 = {0};
        Map<String, List<Object[]>> sample = new LinkedHashMap<>();
        Map<String, Integer> seen = new HashMap<>();
        Random random = new Random(round * 31L + 7);
        jdbc.query("SELECT m.category, m.item_id, v.vec FROM sm_member m JOIN sm_vector v ON v.run_pk = m.run_pk AND v.item_id = m.item_id"
                        + " AND v.rev = m.rev AND v.kind = 'sentence' WHERE m.run_pk = ? AND m.round = ? ORDER BY m.item_id, v.seq",
                rs -> {
                    if (rows0[0]++ % (INDEX_BATCH * 8) == 0) {
                        snapshot.checkStop("semantic index, round " + round + ": reference sentences, " + rows0[0] + " read");
                    }
                    String cat = rs.getString(1);
                    int n = seen.merge(cat, 1, Integer::sum);
                    List<Object[]> s = sample.computeIfAbsent(cat, k -> new ArrayList<>());
                    Object[] row = {rs.getString(2), rs.getString(3)};
                    if (s.size() < REFERENCE_SAMPLE) {
                        s.add(row);
                    } else {
                        int j = random.nextInt(n); // reservoir sampling: a uniform sample of the category's sentences
                        if (j < REFERENCE_SAMPLE) {
                            s.set(j, row);
                        }
                    }
                },
                run, round);
        List<Object[]> rows = new ArrayList<>();
        for (Map.Entry<String, List<Object[]>> e : sample.entrySet()) {
            int seq = 0;
            for (Object[] r : e.getValue()) {
                rows.add(new Object[] {run, round, e.getKey(), seq++, r[0], r[1]});
            }
        }
        jdbc.batchUpdate("INSERT INTO sm_reference (run_pk, round, category, seq, item_id, vec) VALUES (?, ?, ?, ?, ?, ?)", rows);
    }

    private Map<String, Reference> loadReferences(long run, int round) {
        Map<String, List<String>> ids = new LinkedHashMap<>();
        Map<String, List<float[]>> vecs = new LinkedHashMap<>();
        jdbc.query("SELECT category, item_id, vec FROM sm_reference WHERE run_pk = ? AND round = ? ORDER BY category, seq",
                rs -> {
                    ids.computeIfAbsent(rs.getString(1), k -> new ArrayList<>()).add(rs.getString(2));
                    vecs.computeIfAbsent(rs.getString(1), k -> new ArrayList<>()).add(Vectors.decode(rs.getString(3)));
                },
                run, round);
        Map<String, Reference> out = new HashMap<>();
        for (String c : ids.keySet()) {
            out.put(c, new Reference(ids.get(c).toArray(String[]::new), vecs.get(c).toArray(float[][]::new)));
        }
        return out;
    }

    /**
     * One member revision of the round not indexed yet, as read back for indexing: its vectors in the
     * order stored, and whether its item's source vector still needs its bands.
     */
    private record Member(String id, int rev, String category, float[] source, boolean sourceNew, List<float[]> sentences, List<float[]> contents) {}

    /** What indexing one member produces: its band rows, passage row (or null), typicality row (or null) and index markers. */
    private record Indexed(List<Banded> banded, Object[] passage, Object[] typical, List<Object[]> markers) {}

    /** A vector to band: its key, its probe and its buckets (one per band). */
    private record Banded(String kind, String itemId, int rev, int seq, byte[] probe, long[] buckets) {}

    private static final String INSERT_BAND = "INSERT INTO sm_rev_band (run_pk, kind, band, bucket, item_id, rev, seq, vid) VALUES (?, ?, ?, ?, ?, ?, ?, ?)";
    private static final String INSERT_PROBE = "INSERT INTO sm_vprobe (vid, q) VALUES (?, ?)";

    /**
     * Vector ids of a run: {@code run << VID_BITS} plus the vector's number in the run, so ids of
     * different runs never meet and a run numbers its vectors on its own.
     */
    static final int VID_BITS = 32;

    /** The next vector id of the run being prepared (assigned by the one thread that writes bands). */
    private long nextVid;

    /** The run's next vector id: one past the highest stored (a crashed prepare continues after it). */
    private long nextVid(long run) {
        if (run < 0 || run > Integer.MAX_VALUE) {
            throw new IllegalStateException("semantic index: run " + run + " is outside the vector id range (0 to " + Integer.MAX_VALUE + ")");
        }
        Long max = jdbc.queryForObject("SELECT MAX(vid) FROM sm_vprobe WHERE vid >= ? AND vid < ?", Long.class,
                run << VID_BITS, (run + 1) << VID_BITS);
        return max == null ? run << VID_BITS : max + 1;
    }

    /** The band and probe rows of banded vectors, each given the run's next vector id (in the order given: deterministic). */
    private void addRows(long run, List<Banded> banded, List<Object[]> bands, List<Object[]> probes) {
        for (Banded b : banded) {
            long vid = nextVid++;
            probes.add(new Object[] {vid, b.probe()});
            for (int i = 0; i < b.buckets().length; i++) {
                bands.add(new Object[] {run, b.kind(), i, b.buckets()[i], b.itemId(), b.rev(), b.seq(), vid});
            }
        }
    }

    /** Members handed to the executor per task while indexing. */
    private static final int INDEX_TASK = 64;
    /** Members read before their indexing tasks are joined and written. */
    private static final int INDEX_BATCH = 256;

    /**
     * Members indexed per batch (one transaction, one stop check). Defaults to {@value #INDEX_BATCH}
     * (about 3 s at 75 revisions/s, the 100,000-item benchmark's rate on a loaded machine).
     */
    int indexBatch = INDEX_BATCH;

    /**
     * Bands, typicality and passage of every member revision of the round not indexed before (all of
     * them at the run's first round, only the revisions changed since at a later one), keyed by
     * revision: with the references and means frozen, they depend on nothing else. One ordered scan of
     * those revisions' vectors; the per-member work (LSH hashing, and the typicality of each sentence:
     * its density among up to {@value #REFERENCE_SAMPLE} reference sentences, the heaviest part) runs
     * on the executor in tasks of {@value #INDEX_TASK} members, written in scan order with their
     * {@code sm_indexed} markers in one transaction per batch (a restart indexes only what is unmarked),
     * so the result does not depend on the number of threads. Passage bands: {@link #bandPassages}.
     */
    private void indexNewRevisions(CatalogSnapshot snapshot, long run, int round, Map<String, Reference> references, Map<String, float[]> means, PassProgress progress) {
        List<Member> batch = new ArrayList<>(indexBatch);
        Member[] current = {null};
        jdbc.query("SELECT m.item_id, m.category, v.kind, v.seq, v.vec, s.vec, m.rev,"
                        + " (SELECT COUNT(*) FROM sm_indexed j WHERE j.run_pk = m.run_pk AND j.item_id = m.item_id AND j.rev = " + SemanticSchema.SOURCE_REV + ")"
                        + " FROM sm_member m"
                        + " JOIN sm_vector v ON v.run_pk = m.run_pk AND v.item_id = m.item_id AND v.rev = m.rev"
                        + " JOIN sm_vector s ON s.run_pk = m.run_pk AND s.item_id = m.item_id AND s.rev = " + SemanticSchema.SOURCE_REV
                        + " AND s.kind = 'source' WHERE m.run_pk = ? AND m.round = ?"
                        + " AND NOT EXISTS (SELECT 1 FROM sm_indexed i WHERE i.run_pk = m.run_pk AND i.item_id = m.item_id AND i.rev = m.rev)"
                        + " ORDER BY m.item_id, v.kind, v.seq",
                rs -> {
                    String id = rs.getString(1);
                    if (current[0] == null || !id.equals(current[0].id())) {
                        if (current[0] != null) {
                            batch.add(current[0]);
                            if (batch.size() >= indexBatch) {
                                snapshot.checkStop("semantic index, round " + round + ": indexed " + progress.done() + " new revisions");
                                indexMembers(run, batch, references, means);
                                progress.add(batch.size());
                                batch.clear();
                            }
                        }
                        current[0] = new Member(id, rs.getInt(7), rs.getString(2), Vectors.decode(rs.getString(6)), rs.getLong(8) == 0,
                                new ArrayList<>(), new ArrayList<>());
                    }
                    float[] v = Vectors.decode(rs.getString(5));
                    (rs.getString(3).equals(CONTENT) ? current[0].contents() : current[0].sentences()).add(v);
                },
                run, round);
        if (current[0] != null) {
            batch.add(current[0]);
        }
        snapshot.checkStop("semantic index, round " + round + ": indexed " + progress.done() + " new revisions");
        indexMembers(run, batch, references, means);
        progress.add(batch.size());
    }

    /**
     * LSH bands of the passages not banded yet (of at least {@code paraphrase-min-sentences}
     * sentences), hashed after centring on the run's passage mean: frozen, like the other means, at
     * the first round that has such passages (the round's members' passages), so a passage's bands
     * are computed once per revision.
     */
    private void bandPassages(CatalogSnapshot snapshot, long run, int round, int frozen, Map<String, float[]> means) {
        int min = settings.paraphraseMinSentences();
        if (!means.containsKey(PASSAGE)) {
            double[] sum = new double[Embedder.DIMENSION];
            long[] count = {0};
            jdbc.query("SELECT p.vec FROM sm_member m JOIN sm_rev_passage p ON p.run_pk = m.run_pk AND p.item_id = m.item_id AND p.rev = m.rev"
                            + " WHERE m.run_pk = ? AND m.round = ? AND p.n >= ?",
                    rs -> {
                        float[] v = Vectors.decode(rs.getString(1));
                        for (int i = 0; i < v.length; i++) {
                            sum[i] += v[i];
                        }
                        count[0]++;
                    },
                    run, round, min);
            if (count[0] == 0) {
                return; // no passage to compare yet: none is banded
            }
            float[] mean = new float[Embedder.DIMENSION];
            for (int i = 0; i < mean.length; i++) {
                mean[i] = (float) (sum[i] / count[0]);
            }
            jdbc.update("INSERT INTO sm_mean (run_pk, round, kind, vec) VALUES (?, ?, ?, ?)", run, frozen, PASSAGE, Vectors.encode(mean));
            means.put(PASSAGE, mean);
        }
        float[] mean = means.get(PASSAGE);
        List<Object[]> rows = new ArrayList<>();
        List<Object[]> probes = new ArrayList<>();
        List<Object[]> marks = new ArrayList<>();
        Runnable flush = () -> {
            tx.executeWithoutResult(status -> {
                jdbc.batchUpdate(INSERT_BAND, rows);
                jdbc.batchUpdate(INSERT_PROBE, probes);
                jdbc.batchUpdate("UPDATE sm_rev_passage SET banded = TRUE WHERE run_pk = ? AND item_id = ? AND rev = ?", marks);
            });
            rows.clear();
            probes.clear();
            marks.clear();
        };
        jdbc.query("SELECT item_id, rev, n, vec FROM sm_rev_passage WHERE run_pk = ? AND banded = FALSE AND n >= ? ORDER BY item_id, rev",
                rs -> {
                    addRows(run, List.of(banded(PASSAGE, rs.getString(1), rs.getInt(2), rs.getInt(3), Vectors.decode(rs.getString(4)), mean)),
                            rows, probes);
                    marks.add(new Object[] {run, rs.getString(1), rs.getInt(2)});
                    if (marks.size() >= 500) {
                        snapshot.checkStop("semantic index, round " + round + ": banding passages");
                        flush.run();
                    }
                },
                run, min);
        flush.run();
    }

    private void indexMembers(long run, List<Member> members, Map<String, Reference> references, Map<String, float[]> means) {
        if (members.isEmpty()) {
            return;
        }
        List<CompletableFuture<List<Indexed>>> parts = new ArrayList<>();
        for (int from = 0; from < members.size(); from += INDEX_TASK) {
            List<Member> part = List.copyOf(members.subList(from, Math.min(members.size(), from + INDEX_TASK)));
            parts.add(CompletableFuture.supplyAsync(() -> part.stream().map(m -> index(run, m, references, means)).toList(), executor));
        }
        List<Object[]> bands = new ArrayList<>();
        List<Object[]> probes = new ArrayList<>();
        List<Object[]> passages = new ArrayList<>();
        List<Object[]> typical = new ArrayList<>();
        List<Object[]> markers = new ArrayList<>();
        for (CompletableFuture<List<Indexed>> p : parts) {
            for (Indexed x : p.join()) {
                addRows(run, x.banded(), bands, probes);
                if (x.passage() != null) {
                    passages.add(x.passage());
                }
                if (x.typical() != null) {
                    typical.add(x.typical());
                }
                markers.addAll(x.markers());
            }
        }
        tx.executeWithoutResult(status -> {
            jdbc.batchUpdate(INSERT_BAND, bands);
            jdbc.batchUpdate(INSERT_PROBE, probes);
            jdbc.batchUpdate("INSERT INTO sm_rev_passage (run_pk, item_id, rev, n, vec, banded) VALUES (?, ?, ?, ?, ?, ?)", passages);
            jdbc.batchUpdate("INSERT INTO sm_rev_typical (run_pk, item_id, rev, vals) VALUES (?, ?, ?, ?)", typical);
            jdbc.batchUpdate("INSERT INTO sm_indexed (run_pk, item_id, rev) VALUES (?, ?, ?)", markers);
        });
    }

    private Indexed index(long run, Member m, Map<String, Reference> references, Map<String, float[]> means) {
        List<Banded> banded = new ArrayList<>();
        List<Object[]> markers = new ArrayList<>();
        for (float[] c : m.contents()) {
            banded.add(banded(CONTENT, m.id(), m.rev(), 0, c, means.get(CONTENT)));
        }
        markers.add(new Object[] {run, m.id(), m.rev()});
        if (m.sourceNew()) { // source facts do not change between revisions: banded once per item
            banded.add(banded(SOURCE, m.id(), SemanticSchema.SOURCE_REV, 0, m.source(), means.get(SOURCE)));
            markers.add(new Object[] {run, m.id(), SemanticSchema.SOURCE_REV});
        }
        Reference reference = references.get(m.category());
        double[] typical = new double[m.sentences().size()];
        List<float[]> atypical = new ArrayList<>();
        for (int i = 0; i < typical.length; i++) {
            float[] v = m.sentences().get(i);
            typical[i] = typicality(v, m.source(), null, reference, m.id());
            if (typical[i] < settings.atypicalSimilarity()) {
                atypical.add(v);
            }
        }
        // a passage too short to compare is never banded: marked as banded from the start
        Object[] passage = atypical.isEmpty() ? null
                : new Object[] {run, m.id(), m.rev(), atypical.size(), Vectors.encode(Vectors.mean(atypical, Embedder.DIMENSION)),
                        atypical.size() < settings.paraphraseMinSentences()};
        String vals = Vectors.encodeDoubles(typical);
        Object[] typicalRow = vals.length() <= SemanticSchema.TYPICAL_CHARS ? new Object[] {run, m.id(), m.rev(), vals} : null;
        return new Indexed(banded, passage, typicalRow, markers);
    }

    /**
     * The round's mean content and source vectors. Embeddings of one domain share a large common
     * component (every description is near every other), which would make most pairs LSH candidates;
     * hashing the vector minus the mean spreads them out, so candidates are mostly true neighbours.
     * Verification still uses the exact cosine of the raw vectors.
     */
    private void computeMeans(long run, int round) {
        Map<String, double[]> sums = new LinkedHashMap<>();
        jdbc.query("SELECT v.kind, v.vec FROM sm_member m JOIN sm_vector v ON v.run_pk = m.run_pk AND v.item_id = m.item_id"
                        + " AND ((v.kind = 'content' AND v.rev = m.rev) OR (v.kind = 'source' AND v.rev = " + SemanticSchema.SOURCE_REV + "))"
                        + " WHERE m.run_pk = ? AND m.round = ?",
                rs -> {
                    double[] sum = sums.computeIfAbsent(rs.getString(1), k -> new double[Embedder.DIMENSION]);
                    float[] v = Vectors.decode(rs.getString(2));
                    for (int i = 0; i < v.length; i++) {
                        sum[i] += v[i];
                    }
                },
                run, round);
        for (Map.Entry<String, double[]> e : sums.entrySet()) {
            float[] m = new float[Embedder.DIMENSION];
            // the mean itself (not normalised): its norm says how anisotropic the vectors are
            double n = jdbc.queryForObject("SELECT COUNT(*) FROM sm_member WHERE run_pk = ? AND round = ?", Long.class, run, round);
            for (int i = 0; i < m.length; i++) {
                m[i] = (float) (e.getValue()[i] / n);
            }
            jdbc.update("INSERT INTO sm_mean (run_pk, round, kind, vec) VALUES (?, ?, ?, ?)", run, round, e.getKey(), Vectors.encode(m));
        }
    }

    private Map<String, float[]> loadMeans(long run, int round) {
        Map<String, float[]> out = new HashMap<>();
        jdbc.query("SELECT kind, vec FROM sm_mean WHERE run_pk = ? AND round = ?",
                rs -> {
                    out.put(rs.getString(1), Vectors.decode(rs.getString(2)));
                },
                run, round);
        return out;
    }

    private static float[] centre(float[] v, float[] mean) {
        if (mean == null) {
            return v;
        }
        float[] out = new float[v.length];
        for (int i = 0; i < v.length; i++) {
            out[i] = v[i] - mean[i];
        }
        return out;
    }

    /** The bands of a vector (hashed centred on the kind's mean) and its probe (of the raw vector, which queries compare). */
    private Banded banded(String kind, String id, int rev, int seq, float[] raw, float[] mean) {
        return new Banded(kind, id, rev, seq, Vectors.probe(raw), preparing.get(kind).buckets(centre(raw, mean)));
    }

    /**
     * A sentence's typicality: the best of its cosine to its item's source, to the task spec (if
     * given), and its density among the reference sentences of its category.
     */
    public static double typicality(float[] sentence, float[] source, float[] taskSpec, Reference reference, String ownItem) {
        double best = source == null ? -1 : Vectors.dot(sentence, source);
        if (taskSpec != null) {
            best = Math.max(best, Vectors.dot(sentence, taskSpec));
        }
        if (reference != null) {
            best = Math.max(best, reference.density(sentence, ownItem));
        }
        return best;
    }

    // ---------------------------------------------------------------- queries (after prepare)

    private RoundState state() {
        RoundState s = state;
        if (s == null) {
            throw new IllegalStateException("semantic index not prepared for a round");
        }
        return s;
    }

    /** The reference sentences of a category (the largest category's when unknown). */
    public Reference reference(String category) {
        Map<String, Reference> r = state().references();
        if (category != null && r.containsKey(category)) {
            return r.get(category);
        }
        return r.values().stream().max(java.util.Comparator.comparingInt(x -> x.vectors().length)).orElse(null);
    }

    /** A text's vector, cached (task specifications). */
    public float[] textVector(String text) {
        return textCache.computeIfAbsent(text, t -> embedder.get().embed(t));
    }

    /** The item's round revision as stored, with its vectors. */
    public Optional<Stored> stored(String itemId) {
        RoundState s = state();
        List<Object[]> head = jdbc.query("SELECT m.rev, m.category, i.chash, t.vals FROM sm_member m JOIN sm_item i ON i.run_pk = m.run_pk"
                        + " AND i.item_id = m.item_id AND i.rev = m.rev"
                        + " LEFT JOIN sm_rev_typical t ON t.run_pk = m.run_pk AND t.item_id = m.item_id AND t.rev = m.rev"
                        + " WHERE m.run_pk = ? AND m.round = ? AND m.item_id = ?",
                (rs, n) -> new Object[] {rs.getInt(1), rs.getString(2), rs.getString(3), rs.getString(4)},
                s.runPk(), s.round(), itemId);
        if (head.isEmpty()) {
            return Optional.empty();
        }
        int rev = (Integer) head.get(0)[0];
        List<float[]> sentences = new ArrayList<>();
        float[][] content = new float[1][];
        jdbc.query("SELECT kind, vec FROM sm_vector WHERE run_pk = ? AND item_id = ? AND rev = ? ORDER BY kind, seq",
                rs -> {
                    if (rs.getString(1).equals(SENTENCE)) {
                        sentences.add(Vectors.decode(rs.getString(2)));
                    } else {
                        content[0] = Vectors.decode(rs.getString(2));
                    }
                },
                s.runPk(), itemId, rev);
        String typical = (String) head.get(0)[3];
        return Optional.of(new Stored(itemId, rev, (String) head.get(0)[1], (String) head.get(0)[2], sentences, content[0],
                typical == null ? null : Vectors.decodeDoubles(typical)));
    }

    /** A stored passage: the mean of an item's atypical sentences, and how many there are. */
    public record Passage(int sentences, float[] vector) {}

    /** The stored passages of the given items of the round (items without atypical sentences have none). */
    public Map<String, Passage> passages(java.util.Collection<String> itemIds) {
        Map<String, Passage> out = new HashMap<>();
        List<String> ids = new ArrayList<>(itemIds);
        for (int from = 0; from < ids.size(); from += 500) {
            List<String> part = ids.subList(from, Math.min(ids.size(), from + 500));
            List<Object> a = new ArrayList<>();
            a.add(state().runPk());
            a.add(state().round());
            a.addAll(part);
            jdbc.query("SELECT p.item_id, p.n, p.vec FROM sm_member m JOIN sm_rev_passage p ON p.run_pk = m.run_pk AND p.item_id = m.item_id"
                            + " AND p.rev = m.rev WHERE m.run_pk = ? AND m.round = ? AND m.item_id IN (" + placeholders(part.size()) + ")",
                    rs -> {
                        out.put(rs.getString(1), new Passage(rs.getInt(2), Vectors.decode(rs.getString(3))));
                    },
                    a.toArray());
        }
        return out;
    }

    /** The item's source vector, if stored. */
    public Optional<float[]> sourceVector(String itemId) {
        List<String> v = jdbc.queryForList("SELECT vec FROM sm_vector WHERE run_pk = ? AND item_id = ? AND rev = ? AND kind = 'source'",
                String.class, state().runPk(), itemId, SemanticSchema.SOURCE_REV);
        return v.isEmpty() ? Optional.empty() : Optional.of(Vectors.decode(v.get(0)));
    }

    /** Source vectors read per page by {@link #sourceVectors}. */
    static final int SOURCE_PAGE = 2000;

    /**
     * The source vectors of every item of the round, by item id: for a pass over most of the round's
     * items, which would otherwise ask {@link #sourceVector} once per item and once per neighbour it
     * finds.
     * Read {@value #SOURCE_PAGE} items per statement, in item id order from the round's membership;
     * {@code beforePage} is called before each page (a stop check). Memory: 384 floats per item,
     * about 150 MB at 100,000 items.
     */
    public Map<String, float[]> sourceVectors(Runnable beforePage) {
        RoundState s = state();
        PassProgress progress = new PassProgress(log, "semantic index, round " + s.round() + ": source vectors read",
                jdbc.queryForObject("SELECT COUNT(*) FROM sm_member WHERE run_pk = ? AND round = ?", Long.class, s.runPk(), s.round()),
                progressEveryNanos);
        Map<String, float[]> out = new HashMap<>();
        String after = "";
        while (true) {
            beforePage.run();
            String[] last = {null};
            jdbc.query("SELECT m.item_id, v.vec FROM sm_member m JOIN sm_vector v ON v.run_pk = m.run_pk AND v.item_id = m.item_id"
                            + " AND v.rev = " + SemanticSchema.SOURCE_REV + " AND v.kind = '" + SOURCE + "'"
                            + " WHERE m.run_pk = ? AND m.round = ? AND m.item_id > ? ORDER BY m.item_id FETCH FIRST " + SOURCE_PAGE + " ROWS ONLY",
                    rs -> {
                        last[0] = rs.getString(1);
                        out.put(last[0], Vectors.decode(rs.getString(2)));
                    },
                    s.runPk(), s.round(), after);
            if (last[0] == null) {
                progress.finish();
                return out;
            }
            progress.add(out.size() - progress.done());
            after = last[0];
        }
    }

    /**
     * Vectors of the given kind (content, passage or source; for passages {@code seq} is the
     * passage's sentence count) of other items of the round whose
     * cosine to {@code v} is at least {@code minCosine}: LSH candidates verified by exact cosine, most
     * similar first. At most {@link #MAX_NEIGHBOURS}, the first verified in the band index's order:
     * when there are more, the list is some of them, not necessarily the most similar.
     */
    public List<Neighbour> near(String kind, float[] v, double minCosine, String excludeItem) {
        long t0 = System.nanoTime();
        long[] verified = new long[1];
        try {
            return near0(kind, v, minCosine, excludeItem, verified);
        } finally {
            long[] p = profile.computeIfAbsent(kind, k -> new long[3]);
            synchronized (p) {
                p[0]++;
                p[1] += System.nanoTime() - t0;
                p[2] += verified[0];
            }
        }
    }

    private List<Neighbour> near0(String kind, float[] v, double minCosine, String excludeItem, long[] verified) {
        RoundState s = state();
        long[] buckets = s.lsh().get(kind).buckets(centre(v, s.means().get(kind)));
        List<Object> args = new ArrayList<>();
        for (long b : buckets) {
            args.add(b);
        }
        args.add(s.runPk());
        args.add(kind);
        // 1. the candidates, from the covering band index alone (a range of the index per bucket, no
        // table row and no join), in index order, at most MAX_CANDIDATE_ROWS band rows; duplicates (one
        // vector in several bands) dropped here
        List<Candidate> candidates = new ArrayList<>();
        java.util.Set<Candidate> seen = new java.util.HashSet<>();
        int[] rows = {0};
        jdbc.query(candidateSql(buckets.length),
                rs -> {
                    rows[0]++;
                    long vid = rs.getLong(4);
                    Candidate c = new Candidate(rs.getString(1), rs.getInt(2), rs.getInt(3), rs.wasNull() ? null : vid);
                    if (!c.itemId().equals(excludeItem) && seen.add(c)) {
                        candidates.add(c);
                    }
                },
                args.toArray());
        // 2. in that order, until MAX_NEIGHBOURS are found: the candidate's probe (a lookup by its
        // vector id, the probe table's one-column key) rules it out when its estimate plus the proven error bound
        // is below the threshold; the rest are checked with their float vectors, read only if the
        // revision is the round's member (a revision changed since the round began is never seen)
        String exactSql = switch (kind) {
            case PASSAGE -> "SELECT x.vec FROM sm_rev_passage x WHERE x.run_pk = ? AND x.item_id = ? AND x.rev = ?"
                    + " AND EXISTS (SELECT 1 FROM sm_member m WHERE m.run_pk = x.run_pk AND m.round = ? AND m.item_id = x.item_id AND m.rev = x.rev)";
            case SOURCE -> "SELECT x.vec FROM sm_vector x WHERE x.run_pk = ? AND x.item_id = ? AND x.rev = ? AND x.kind = ? AND x.seq = ?"
                    + " AND EXISTS (SELECT 1 FROM sm_member m WHERE m.run_pk = x.run_pk AND m.round = ? AND m.item_id = x.item_id)";
            default -> "SELECT x.vec FROM sm_vector x WHERE x.run_pk = ? AND x.item_id = ? AND x.rev = ? AND x.kind = ? AND x.seq = ?"
                    + " AND EXISTS (SELECT 1 FROM sm_member m WHERE m.run_pk = x.run_pk AND m.round = ? AND m.item_id = x.item_id AND m.rev = x.rev)";
        };
        double queryL1 = Vectors.l1(v);
        List<Neighbour> out = new ArrayList<>();
        jdbc.execute((org.springframework.jdbc.core.ConnectionCallback<Void>) con -> {
            try (java.sql.PreparedStatement exact = con.prepareStatement(exactSql)) {
                Map<Long, byte[]> probes = new HashMap<>();
                int fetched = 0; // candidates whose probes are read
                for (int k = 0; k < candidates.size(); k++) {
                    if (out.size() >= MAX_NEIGHBOURS) {
                        break;
                    }
                    if (k == fetched) { // the next batch's probes, in one statement
                        fetched = Math.min(candidates.size(), k + PROBE_BATCH);
                        readProbes(con, candidates.subList(k, fetched), probes);
                    }
                    Candidate c = candidates.get(k);
                    this.candidates.incrementAndGet();
                    verified[0]++;
                    byte[] q = c.vid() == null ? null : probes.get(c.vid());
                    // none for a vector banded before vector ids were stored: then the float vector decides
                    if (q != null && Vectors.probeEstimate(v, q) + Vectors.probeBound(queryL1, q) < minCosine) {
                        continue;
                    }
                    int i = 1;
                    exact.setLong(i++, s.runPk());
                    exact.setString(i++, c.itemId());
                    exact.setInt(i++, c.rev());
                    if (!kind.equals(PASSAGE)) { // a revision has one passage; its seq is its sentence count
                        exact.setString(i++, kind);
                        exact.setInt(i++, c.seq());
                    }
                    exact.setInt(i, s.round());
                    try (java.sql.ResultSet rs = exact.executeQuery()) {
                        if (rs.next()) {
                            double cos = Vectors.dot(v, Vectors.decode(rs.getString(1)));
                            if (cos >= minCosine) {
                                out.add(new Neighbour(c.itemId(), c.seq(), cos));
                            }
                        }
                    }
                }
            }
            return null;
        });
        queries.incrementAndGet();
        if (rows[0] >= MAX_CANDIDATE_ROWS && out.size() < MAX_NEIGHBOURS) {
            cappedQueries.incrementAndGet();
        }
        out.sort((x, y) -> Double.compare(y.cosine(), x.cosine()));
        return out;
    }

    /** The probes of {@code n} vector ids (checked to be key lookups by {@code SemanticIncrementalTests.theCandidateQueryLooksUpItsBuckets}). */
    static String probeSql(int n) {
        return "SELECT vid, q FROM sm_vprobe WHERE vid IN (" + placeholders(n) + ")";
    }

    /** Probes read per statement by a near-neighbour query. */
    private static final int PROBE_BATCH = 64;

    /** The probes of the candidates that have a vector id, by id: one statement (an IN list on the probe table's key). */
    private static void readProbes(java.sql.Connection con, List<Candidate> part, Map<Long, byte[]> into) throws java.sql.SQLException {
        List<Long> vids = part.stream().map(Candidate::vid).filter(Objects::nonNull).toList();
        if (vids.isEmpty()) {
            return;
        }
        try (java.sql.PreparedStatement ps = con.prepareStatement(probeSql(vids.size()))) {
            for (int i = 0; i < vids.size(); i++) {
                ps.setLong(i + 1, vids.get(i));
            }
            try (java.sql.ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    into.put(rs.getLong(1), rs.getBytes(2));
                }
            }
        }
    }

    /**
     * The candidates of a query over {@code buckets} buckets (then run and kind as parameters). The
     * run and kind are one row-value comparison: written as two equalities next to the IN list, H2
     * 2.x takes the kind's equality as the index condition and scans the whole index instead of
     * looking up the buckets (seen with EXPLAIN ANALYZE: every band row read per query); checked by
     * {@code SemanticIncrementalTests.theCandidateQueryLooksUpItsBuckets}.
     */
    static String candidateSql(int buckets) {
        return "SELECT item_id, rev, seq, vid FROM sm_rev_band WHERE bucket IN (" + placeholders(buckets) + ") AND (run_pk, kind) = (?, ?)"
                + " FETCH FIRST " + MAX_CANDIDATE_ROWS + " ROWS ONLY";
    }

    /** A band row's vector: item, revision, seq, and its id (null in rows written before ids). */
    private record Candidate(String itemId, int rev, int seq, Long vid) {}

    /** The round this index was prepared for. */
    public int round() {
        return state().round();
    }

    public long runPk() {
        return state().runPk();
    }

    static String placeholders(int n) {
        return String.join(", ", java.util.Collections.nCopies(n, "?"));
    }

    @Override
    public String toString() {
        return "SemanticIndex[" + Objects.toString(state) + "]";
    }
}
