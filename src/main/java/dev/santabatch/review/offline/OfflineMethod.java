package dev.santabatch.review.offline;

/**
 * An offline review method that needs catalog-wide state (sketches, vectors, indexes) before it
 * can review items of a round. {@link #prepare} is called once per round, before any review of
 * the round, and must be idempotent and restart-safe (a sketch or vector is computed once per
 * item revision and kept in the store).
 */
public interface OfflineMethod {

    void prepare(CatalogSnapshot snapshot);
}
