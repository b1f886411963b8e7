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
 *   <li>{@code sm_member}: the round's snapshot: which revision of which item, and its category; every
 *       query of a round joins it, so a check judges against the round's revisions only;
 *   <li>{@code sm_frozen}: the round at which the run's references and centring means were frozen (its
 *       first prepared round) and the LSH rows added to every band for the catalog's size
 *       ({@code lsh_extra_rows}, see {@link SemanticIndex#LSH_BASE_ITEMS}), written with them in one
 *       transaction;
 *   <li>{@code sm_reference}: per category, a bounded uniform sample of sentence vectors, stored under
 *       the frozen round;
 *   <li>{@code sm_mean}: the mean content, source and passage vectors (LSH hashes vectors minus the
 *       mean), stored under the frozen round;
 *   <li>{@code sm_rev_passage}: per item revision, the mean of its atypical sentences (a shared
 *       passage's vector) and whether its bands are stored;
 *   <li>{@code sm_rev_band}: random-hyperplane LSH buckets per item revision (source bands per item,
 *       rev {@value #SOURCE_REV}; {@code bucket} already folds in the band number), indexed on
 *       (bucket, run_pk, kind, item_id, rev, seq, vid): bucket first, so an IN list of buckets is an index
 *       lookup (H2 uses an index for IN only on its leading column), and covering, so the candidates
 *       come from the index alone;
 *   <li>{@code sm_rev_typical}: per item revision, the typicality of each sentence without the task
 *       specification (the best of its cosine to its source and its density among its category's
 *       reference sentences), computed once so a review does not scan the reference again (items with
 *       more sentences than fit in {@value #TYPICAL_CHARS} characters have none);
 *   <li>{@code sm_vprobe}: per banded vector (content and passage per revision, source per item), keyed
 *       by its vector id (also in its band rows), the vector at one byte per component
 *       ({@link Vectors#probe}): a near-neighbour query reads its candidates' probes, a quarter of
 *       the float vectors' size in a table of their own, and reads the float vector only of a
 *       candidate the probe cannot rule out;
 *   <li>{@code sm_indexed}: the marker that a revision's typicality, passage and content bands are
 *       stored (rev {@value #SOURCE_REV}: the item's source bands), so each revision is indexed once;
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
        "CREATE TABLE IF NOT EXISTS sm_frozen (run_pk BIGINT NOT NULL PRIMARY KEY, round INT NOT NULL)",
        // added after stores were written: a run frozen before has no extra rows (its bands were hashed with the base rows)
        "ALTER TABLE sm_frozen ADD COLUMN IF NOT EXISTS lsh_extra_rows INT DEFAULT 0 NOT NULL",
        "CREATE TABLE IF NOT EXISTS sm_rev_passage (run_pk BIGINT NOT NULL, item_id VARCHAR(200) NOT NULL, rev INT NOT NULL,"
                + " n INT NOT NULL, vec VARCHAR(2100) NOT NULL, banded BOOLEAN NOT NULL, PRIMARY KEY (run_pk, item_id, rev))",
        "CREATE TABLE IF NOT EXISTS sm_rev_band (run_pk BIGINT NOT NULL, kind VARCHAR(16) NOT NULL,"
                + " band INT NOT NULL, bucket BIGINT NOT NULL, item_id VARCHAR(200) NOT NULL, rev INT NOT NULL, seq INT NOT NULL)",
        // the vector's id (its probe's key): rows written before ids have none
        "ALTER TABLE sm_rev_band ADD COLUMN IF NOT EXISTS vid BIGINT",
        // covering: a near-neighbour query reads its candidates (item, revision, seq, vector id) from
        // the index alone, without fetching a table row per candidate
        "DROP INDEX IF EXISTS sm_rev_band_lookup",
        "DROP INDEX IF EXISTS sm_rev_band_cover",
        "CREATE INDEX IF NOT EXISTS sm_rev_band_vid ON sm_rev_band (bucket, run_pk, kind, item_id, rev, seq, vid)",
        "CREATE TABLE IF NOT EXISTS sm_rev_typical (run_pk BIGINT NOT NULL, item_id VARCHAR(200) NOT NULL, rev INT NOT NULL,"
                + " vals VARCHAR(" + TYPICAL_CHARS + ") NOT NULL, PRIMARY KEY (run_pk, item_id, rev))",
        "CREATE TABLE IF NOT EXISTS sm_indexed (run_pk BIGINT NOT NULL, item_id VARCHAR(200) NOT NULL, rev INT NOT NULL,"
                + " PRIMARY KEY (run_pk, item_id, rev))",
        // item id first: H2 uses an index for an IN list only on the index's leading column, so a
        // lookup of a batch of items (run_pk = ? AND item_id IN (...)) on the primary key alone
        // reads every row of the run: quadratic over a whole prepare (found at 100,000 items).
        // H2's optimizer, though, costs an IN list like an equality on any column, so a primary key
        // (run_pk, item_id, ...) looks as good as (item_id, run_pk) and can win the tie; an item-first
        // index must cover more of the query's columns than the key to be chosen (checked with
        // EXPLAIN ANALYZE, 256 items of a run of 140,000 vectors: the source lookup in prepare read all
        // 140,000 through the key with (item_id, run_pk) on sm_vector, 1,786 with (item_id, run_pk, kind);
        // passages() read the whole round of sm_member with (item_id, run_pk, round), 766 rows with rev added).
        //   sm_item: prepare's content hashes of a batch (chosen as it is);
        //   sm_vector: prepare's "has a source vector" of a batch (kind = 'source');
        //   sm_member: passages() of a batch of the round's items (round = ?, joined on rev);
        // sm_rev_typical and sm_indexed are only reached by equality on their whole primary key
        // (joined from sm_member), so they need none
        "CREATE INDEX IF NOT EXISTS sm_item_item ON sm_item (item_id, run_pk)",
        "DROP INDEX IF EXISTS sm_vector_item",
        "CREATE INDEX IF NOT EXISTS sm_vector_item_kind ON sm_vector (item_id, run_pk, kind)",
        "CREATE INDEX IF NOT EXISTS sm_member_item ON sm_member (item_id, run_pk, round, rev)",
        // probes: the banded vectors (content, passage, source) at one byte per component, read by every
        // near-neighbour query instead of the float vectors (BYTEA: a binary type H2 and PostgreSQL
        // share), keyed by vector id alone: one lookup of a BIGINT key (in H2 the table's own row key)
        // instead of a composite key's index and then the row. The table keyed by (run, kind, item,
        // revision, seq) it replaces is dropped: its probes are derived data, and candidates without
        // a vector id are checked with their float vectors
        "DROP TABLE IF EXISTS sm_probe",
        "CREATE TABLE IF NOT EXISTS sm_vprobe (vid BIGINT NOT NULL PRIMARY KEY, q BYTEA NOT NULL)",
        "DROP INDEX IF EXISTS sm_rev_passage_item",
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
