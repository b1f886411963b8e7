package dev.santabatch.lexical;

import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The lexical reviewer's own tables, portable between H2 and PostgreSQL (no VARBINARY/BYTEA: a
 * signature is stored as a hex VARCHAR).
 *
 * <ul>
 *   <li>{@code lx_meta(run_pk, stop_df, items)}: one row per run once the stop-shingle list is
 *       frozen (restart-safe marker);
 *   <li>{@code lx_stop(run_pk, shingle)}: shingle hashes too common to count (template phrases),
 *       frozen at the first round so sketches stay valid per revision;
 *   <li>{@code lx_sketch(run_pk, item_id, rev, shingles, sig)}: MinHash signature per item revision;
 *   <li>{@code lx_band(run_pk, item_id, rev, band, bucket)}: LSH band buckets per item revision;
 *       the band number is mixed into {@code bucket}, so a candidate lookup is one
 *       {@code bucket IN (...)} over the index {@code (bucket, run_pk)} (H2 uses an index for an IN list only on its leading column);
 *   <li>{@code lx_round(run_pk, round, item_id, rev)}: the revisions current at a round's start
 *       (the snapshot candidate lookups join against);
 *   <li>{@code lx_dense(run_pk, round, bucket, item_id, rev)}: for each bucket of the round with more
 *       members than the index's bucket cap, its first {@code cap} members (by item id): what a query
 *       reads instead of the whole bucket, so a query's work is bounded;
 *   <li>{@code lx_prepared(run_pk, round)}: the marker that a round's {@code lx_round} and
 *       {@code lx_dense} rows are complete: a second prepare of the round (the batch-fix step after the
 *       review step, a restart) only builds the heap state again;
 *   <li>{@code lx_term(run_pk, term, item_id)}: inverted index of source-field tokens (source
 *       facts do not change between revisions); indexed on {@code (run_pk, term, item_id)}, so the
 *       first postings of a term in item-id order are an index range read, however common the term.
 * </ul>
 */
public final class LexicalSchema {

    private LexicalSchema() {}

    public static void create(JdbcTemplate jdbc) {
        jdbc.execute("CREATE TABLE IF NOT EXISTS lx_meta (run_pk BIGINT NOT NULL PRIMARY KEY, stop_df INT NOT NULL, items BIGINT NOT NULL)");
        jdbc.execute("CREATE TABLE IF NOT EXISTS lx_stop (run_pk BIGINT NOT NULL, shingle BIGINT NOT NULL, PRIMARY KEY (run_pk, shingle))");
        jdbc.execute("CREATE TABLE IF NOT EXISTS lx_sketch (run_pk BIGINT NOT NULL, item_id VARCHAR(200) NOT NULL, rev INT NOT NULL,"
                + " shingles INT NOT NULL, sig VARCHAR(2000) NOT NULL, PRIMARY KEY (run_pk, item_id, rev))");
        jdbc.execute("CREATE TABLE IF NOT EXISTS lx_band (run_pk BIGINT NOT NULL, item_id VARCHAR(200) NOT NULL, rev INT NOT NULL,"
                + " band INT NOT NULL, bucket BIGINT NOT NULL)");
        jdbc.execute("CREATE INDEX IF NOT EXISTS lx_band_bucket ON lx_band (bucket, run_pk)");
        jdbc.execute("CREATE TABLE IF NOT EXISTS lx_round (run_pk BIGINT NOT NULL, round INT NOT NULL, item_id VARCHAR(200) NOT NULL,"
                + " rev INT NOT NULL, PRIMARY KEY (run_pk, round, item_id))");
        jdbc.execute("CREATE TABLE IF NOT EXISTS lx_term (run_pk BIGINT NOT NULL, term VARCHAR(200) NOT NULL, item_id VARCHAR(200) NOT NULL)");
        jdbc.execute("CREATE INDEX IF NOT EXISTS lx_term_postings ON lx_term (run_pk, term, item_id)");
        jdbc.execute("CREATE TABLE IF NOT EXISTS lx_dense (run_pk BIGINT NOT NULL, round INT NOT NULL, bucket BIGINT NOT NULL,"
                + " item_id VARCHAR(200) NOT NULL, rev INT NOT NULL)");
        jdbc.execute("CREATE TABLE IF NOT EXISTS lx_prepared (run_pk BIGINT NOT NULL, round INT NOT NULL, PRIMARY KEY (run_pk, round))");
        jdbc.execute("CREATE INDEX IF NOT EXISTS lx_dense_bucket ON lx_dense (bucket, run_pk, round)");
        jdbc.execute("CREATE INDEX IF NOT EXISTS lx_term_item ON lx_term (item_id, run_pk)");
        jdbc.execute("CREATE INDEX IF NOT EXISTS lx_sketch_item ON lx_sketch (item_id, run_pk)");
    }
}
