package dev.santabatch.semantic;

import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The semantic reviewer's own tables, portable DDL for H2 and PostgreSQL (vectors as base64 text,
 * since H2 has VARBINARY where PostgreSQL has BYTEA).
 *
 * <ul>
 *   <li>{@code sm_item}: one row per embedded item revision (content hash, sentence count): the
 *       marker that the revision's vectors are complete, so each revision is embedded once;
 *   <li>{@code sm_vector}: the vectors: kind {@code sentence} (seq = sentence index),
 *       {@code content} (the mean of the sentence vectors, seq 0), {@code source} (the item's source
 *       facts, rev {@value #SOURCE_REV}: source facts do not change between revisions);
 *   <li>{@code sm_member}: the round's snapshot: which revision of which item, and its category;
 *   <li>{@code sm_reference}: per round and category, a bounded uniform sample of sentence vectors;
 *   <li>{@code sm_mean}: per round, the mean content and source vectors (LSH hashes vectors minus the mean);
 *   <li>{@code sm_passage}: per round and item, the mean of its atypical sentences (a shared passage's vector);
 *   <li>{@code sm_band}: random-hyperplane LSH buckets per round ({@code bucket} already folds in
 *       the band number), indexed on (bucket, run_pk, round, kind): bucket first, so an IN list of buckets is an index lookup (H2 uses an index for IN only on its leading column);
 *   <li>{@code sm_typical}: per round and item, the typicality of each sentence of its round revision
 *       without the task specification (the best of its cosine to its source and its density among its
 *       category's reference sentences), computed once at prepare so a review does not scan the
 *       reference again (items with more sentences than fit in {@value #TYPICAL_CHARS} characters have none);
 *   <li>{@code sm_round}: the marker that a round's index is complete.
 * </ul>
 */
public final class SemanticSchema {

    /** The revision number under which source vectors are kept. */
    public static final int SOURCE_REV = -1;

    /** Longest stored typicality list (base64 of 8 bytes per sentence: about 1,800 sentences). */
    public static final int TYPICAL_CHARS = 20000;

    private static final String[] DDL = {
        "CREATE TABLE IF NOT EXISTS sm_item (run_pk BIGINT NOT NULL, item_id VARCHAR(200) NOT NULL, rev INT NOT NULL,"
                + " chash VARCHAR(64) NOT NULL, sentences INT NOT NULL, PRIMARY KEY (run_pk, item_id, rev))",
        "CREATE TABLE IF NOT EXISTS sm_vector (run_pk BIGINT NOT NULL, item_id VARCHAR(200) NOT NULL, rev INT NOT NULL,"
                + " kind VARCHAR(16) NOT NULL, seq INT NOT NULL, vec VARCHAR(2100) NOT NULL,"
                + " PRIMARY KEY (run_pk, item_id, rev, kind, seq))",
        "CREATE TABLE IF NOT EXISTS sm_member (run_pk BIGINT NOT NULL, round INT NOT NULL, item_id VARCHAR(200) NOT NULL,"
                + " rev INT NOT NULL, category VARCHAR(200) NOT NULL, PRIMARY KEY (run_pk, round, item_id))",
        "CREATE TABLE IF NOT EXISTS sm_reference (run_pk BIGINT NOT NULL, round INT NOT NULL, category VARCHAR(200) NOT NULL,"
                + " seq INT NOT NULL, item_id VARCHAR(200) NOT NULL, vec VARCHAR(2100) NOT NULL, PRIMARY KEY (run_pk, round, category, seq))",
        "CREATE TABLE IF NOT EXISTS sm_mean (run_pk BIGINT NOT NULL, round INT NOT NULL, kind VARCHAR(16) NOT NULL,"
                + " vec VARCHAR(2100) NOT NULL, PRIMARY KEY (run_pk, round, kind))",
        "CREATE TABLE IF NOT EXISTS sm_passage (run_pk BIGINT NOT NULL, round INT NOT NULL, item_id VARCHAR(200) NOT NULL,"
                + " n INT NOT NULL, vec VARCHAR(2100) NOT NULL, PRIMARY KEY (run_pk, round, item_id))",
        "CREATE TABLE IF NOT EXISTS sm_band (run_pk BIGINT NOT NULL, round INT NOT NULL, kind VARCHAR(16) NOT NULL,"
                + " band INT NOT NULL, bucket BIGINT NOT NULL, item_id VARCHAR(200) NOT NULL, rev INT NOT NULL, seq INT NOT NULL)",
        "CREATE INDEX IF NOT EXISTS sm_band_lookup ON sm_band (bucket, run_pk, round, kind)",
        // item id first: H2 uses an index for an IN list only on the index's leading column, so a
        // lookup of a batch of items (run_pk = ? AND item_id IN (...)) on the primary key alone
        // reads every row of the run: quadratic over a whole prepare (found at 100,000 items)
        "CREATE INDEX IF NOT EXISTS sm_item_item ON sm_item (item_id, run_pk)",
        "CREATE INDEX IF NOT EXISTS sm_vector_item ON sm_vector (item_id, run_pk)",
        "CREATE INDEX IF NOT EXISTS sm_passage_item ON sm_passage (item_id, run_pk, round)",
        "CREATE TABLE IF NOT EXISTS sm_typical (run_pk BIGINT NOT NULL, round INT NOT NULL, item_id VARCHAR(200) NOT NULL,"
                + " vals VARCHAR(" + TYPICAL_CHARS + ") NOT NULL, PRIMARY KEY (run_pk, round, item_id))",
        "CREATE TABLE IF NOT EXISTS sm_round (run_pk BIGINT NOT NULL, round INT NOT NULL, items BIGINT NOT NULL,"
                + " PRIMARY KEY (run_pk, round))",
    };

    private SemanticSchema() {}

    /** Creates the tables and indexes if missing (idempotent). */
    public static void create(JdbcTemplate jdbc) {
        for (String ddl : DDL) {
            jdbc.execute(ddl);
        }
    }
}
