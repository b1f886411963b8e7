package dev.santabatch.review.semantic;

/**
 * The semantic reviewer's own tables (created by the store's migrations, db/migration), and the
 * constants their rows use.
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
final class SemanticSchema {

    /** The revision number under which source vectors are kept. */
    public static final int SOURCE_REV = -1;

    /** Longest stored typicality list (base64 of 8 bytes per sentence: about 1,800 sentences). */
    public static final int TYPICAL_CHARS = 20000;

    private SemanticSchema() {}
}
