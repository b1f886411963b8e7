package dev.santabatch.review.semantic;

import dev.santabatch.execution.PassProgress;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.function.Supplier;
import javax.sql.DataSource;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Sentence embeddings of item revisions, stored with the run in the semantic reviewer's own rows:
 * {@code sm_item} marks a revision embedded (with its content hash), {@code sm_vector} holds its
 * sentence vectors (kind {@code sentence}, as {@link SemanticIndex#sentencesOf} splits the text) and
 * their mean (kind {@code content}). Whichever asks first, the semantic index's prepare or
 * {@link #ensure}, embeds a revision; the other, a later round and a restarted execution find it
 * stored. A loop revision's text never changes, so a revision is embedded once per run.
 *
 * <h2>Search: an exact scan, not an index</h2>
 * {@link #best} compares every stored sentence vector of the given revisions with every query vector:
 * O(Q · N) dot products for Q query sentences and N stored sentences, in one pass over the vectors
 * streamed from the store in batches of items (memory O(Q + revisions), whatever N). The queries are
 * the failing sentences of a round's sampled items (Q is bounded by the sample, not the catalog:
 * Q ≪ N), so the scan grows linearly with the catalog, never with its square; at 100,000 items of
 * five sentences and Q = 50 it is 2.5·10<sup>7</sup> dot products of 384 floats, seconds, against
 * the hours of embedding the catalog once. An approximate index (the semantic index's LSH bands)
 * would save little of that and lose recall exactly where a paraphrase sits near the floor.
 */
public final class SentenceVectors {

    /** An item revision and its text. */
    public record Revision(String itemId, int rev, String content) {}

    /** Revisions embedded and stored per transaction (one stop check each). */
    private static final int FLUSH = 64;
    /** Revisions whose vectors one query of {@link #best} reads. */
    private static final int READ_BATCH = 500;
    /** How often a long pass logs its progress. */
    private static final long PROGRESS_NANOS = 10_000_000_000L;
    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(SentenceVectors.class);

    private final JdbcTemplate jdbc;
    private final TransactionTemplate tx;
    private final Supplier<Embedder> embedder;
    private final Executor executor;

    public SentenceVectors(DataSource dataSource, Supplier<Embedder> embedder, Executor executor) {
        this.jdbc = new JdbcTemplate(dataSource);
        this.tx = new TransactionTemplate(new DataSourceTransactionManager(dataSource));
        this.embedder = embedder;
        this.executor = executor;
        // a DataSource this process has not opened as a store (a test's, a benchmark's) is migrated first
        dev.santabatch.persistence.StoreSchema.migrate(dataSource);
    }

    /**
     * Embeds and stores the sentences of the revisions not stored yet (or stored for another text),
     * {@value #FLUSH} per transaction with a {@code checkStop} before each: a stop keeps what was stored.
     *
     * @return how many revisions were embedded (0 when all were stored)
     */
    public int ensure(long run, List<Revision> revisions, Runnable checkStop) {
        PassProgress progress = new PassProgress(log, "sentence vectors: embedded or found stored", revisions.size(), PROGRESS_NANOS);
        int embedded = 0;
        for (int from = 0; from < revisions.size(); from += FLUSH) {
            checkStop.run();
            List<Revision> batch = revisions.subList(from, Math.min(revisions.size(), from + FLUSH));
            embedded += embedMissing(run, batch);
            progress.add(batch.size());
        }
        progress.finish();
        return embedded;
    }

    private int embedMissing(long run, List<Revision> batch) {
        Map<String, String> have = new HashMap<>();
        List<Object> args = new ArrayList<>();
        args.add(run);
        batch.forEach(r -> args.add(r.itemId()));
        jdbc.query("SELECT item_id, rev, chash FROM sm_item WHERE run_pk = ? AND item_id IN ("
                        + SemanticIndex.placeholders(batch.size()) + ")",
                rs -> {
                    have.put(rs.getString(1) + "#" + rs.getInt(2), rs.getString(3));
                },
                args.toArray());
        record Todo(Revision revision, String hash, int from, int count) {}
        List<Todo> todo = new ArrayList<>();
        List<String> texts = new ArrayList<>();
        for (Revision r : batch) {
            String hash = SemanticIndex.hash(r.content());
            if (!hash.equals(have.get(r.itemId() + "#" + r.rev()))) {
                List<String> sentences = SemanticIndex.sentencesOf(r.content());
                todo.add(new Todo(r, hash, texts.size(), sentences.size()));
                texts.addAll(sentences);
            }
        }
        if (todo.isEmpty()) {
            return 0;
        }
        List<float[]> vectors = embedder.get().embedAll(texts, executor);
        tx.executeWithoutResult(status -> {
            List<Object[]> vecRows = new ArrayList<>();
            List<Object[]> itemRows = new ArrayList<>();
            for (Todo t : todo) {
                Revision r = t.revision();
                forget(jdbc, run, r.itemId(), r.rev(), have.containsKey(r.itemId() + "#" + r.rev()));
                rows(run, r.itemId(), r.rev(), t.hash(), vectors.subList(t.from(), t.from() + t.count()), vecRows, itemRows);
            }
            insert(jdbc, vecRows, itemRows);
        });
        return todo.size();
    }

    /**
     * For each query set, each revision's best cosine between any of its stored sentences and any of
     * the set's vectors: {@code out[set][revision]}, in the order given; {@code -1} for a revision
     * with no stored vectors (call {@link #ensure} first). One exact scan (see the class comment).
     */
    public double[][] best(long run, List<Revision> revisions, List<float[][]> querySets) {
        return best(run, revisions, querySets, () -> {});
    }

    /** {@link #best(long, List, List)}, with {@code checkStop} called before each read of {@value #READ_BATCH} revisions. */
    public double[][] best(long run, List<Revision> revisions, List<float[][]> querySets, Runnable checkStop) {
        PassProgress progress = new PassProgress(log, "sentence vectors: best cosine to " + querySets.size() + " query sets",
                revisions.size(), PROGRESS_NANOS);
        double[][] out = new double[querySets.size()][revisions.size()];
        for (double[] row : out) {
            Arrays.fill(row, -1);
        }
        for (int from = 0; from < revisions.size(); from += READ_BATCH) {
            checkStop.run();
            List<Revision> part = revisions.subList(from, Math.min(revisions.size(), from + READ_BATCH));
            Map<String, Integer> index = new HashMap<>();
            List<Object> args = new ArrayList<>();
            args.add(run);
            for (int i = 0; i < part.size(); i++) {
                index.put(part.get(i).itemId() + "#" + part.get(i).rev(), from + i);
                args.add(part.get(i).itemId());
            }
            jdbc.query("SELECT item_id, rev, vec FROM sm_vector WHERE run_pk = ? AND item_id IN ("
                            + SemanticIndex.placeholders(part.size()) + ") AND kind = '" + SemanticIndex.SENTENCE + "'",
                    rs -> {
                        Integer at = index.get(rs.getString(1) + "#" + rs.getInt(2));
                        if (at == null) {
                            return; // another revision of the item
                        }
                        float[] v = Vectors.decode(rs.getString(3));
                        for (int s = 0; s < querySets.size(); s++) {
                            for (float[] q : querySets.get(s)) {
                                out[s][at] = Math.max(out[s][at], Vectors.dot(v, q));
                            }
                        }
                    },
                    args.toArray());
            progress.add(part.size());
        }
        progress.finish();
        return out;
    }

    /** One text's sentence vectors, as stored for a revision (not stored: for queries). */
    public List<float[]> embedSentences(List<String> sentences) {
        return embedder.get().embedAll(sentences, executor);
    }

    /**
     * Deletes a revision's stored sentence and content vectors and its marker before they are
     * written again; when they had been stored for another text ({@code embeddedBefore}), also what
     * the semantic index derived from them (typicality, passage, bands), so it is indexed again.
     */
    static void forget(JdbcTemplate jdbc, long run, String itemId, int rev, boolean embeddedBefore) {
        jdbc.update("DELETE FROM sm_vector WHERE run_pk = ? AND item_id = ? AND rev = ?", run, itemId, rev);
        jdbc.update("DELETE FROM sm_item WHERE run_pk = ? AND item_id = ? AND rev = ?", run, itemId, rev);
        if (embeddedBefore) {
            jdbc.update("DELETE FROM sm_vprobe WHERE vid IN (SELECT vid FROM sm_rev_band WHERE run_pk = ? AND item_id = ? AND rev = ?)",
                    run, itemId, rev);
            for (String table : List.of("sm_indexed", "sm_rev_passage", "sm_rev_typical", "sm_rev_band")) {
                jdbc.update("DELETE FROM " + table + " WHERE run_pk = ? AND item_id = ? AND rev = ?", run, itemId, rev);
            }
        }
    }

    /** The rows of one revision's embedding: a sentence row per sentence, the content row (their mean), the marker. */
    static void rows(long run, String itemId, int rev, String hash, List<float[]> sentences, List<Object[]> vecRows,
            List<Object[]> itemRows) {
        for (int i = 0; i < sentences.size(); i++) {
            vecRows.add(new Object[] {run, itemId, rev, SemanticIndex.SENTENCE, i, Vectors.encode(sentences.get(i))});
        }
        vecRows.add(new Object[] {run, itemId, rev, SemanticIndex.CONTENT, 0,
                Vectors.encode(Vectors.mean(sentences, Embedder.DIMENSION))});
        itemRows.add(new Object[] {run, itemId, rev, hash, sentences.size()});
    }

    static void insert(JdbcTemplate jdbc, List<Object[]> vecRows, List<Object[]> itemRows) {
        jdbc.batchUpdate("INSERT INTO sm_vector (run_pk, item_id, rev, kind, seq, vec) VALUES (?, ?, ?, ?, ?, ?)", vecRows);
        jdbc.batchUpdate("INSERT INTO sm_item (run_pk, item_id, rev, chash, sentences) VALUES (?, ?, ?, ?, ?)", itemRows);
    }
}
