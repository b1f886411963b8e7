package dev.santabatch.review.offline;

import dev.santabatch.execution.PreparationStoppedException;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The catalog as it stood at the start of a round: what checks that compare an item with the rest
 * of the catalog (near-duplicates, "closer to another item's source") judge against, so their
 * results do not depend on processing order. Implementations stream from the store; nothing here
 * requires the catalog to fit in the heap.
 */
public interface CatalogSnapshot {

    /** The run's key in the store (for store-backed sketches, vectors and indexes). */
    long runPk();

    /** The round this snapshot belongs to (0 for the pre-pass, 1.. for sampling rounds). */
    int round();

    /** Number of items in the snapshot. */
    long size();

    /** Streams every item in input order (accepted items, escalated ones included). */
    void forEach(Consumer<SnapshotItem> action);

    /** One item by id, as of the snapshot. */
    Optional<SnapshotItem> get(String id);

    /**
     * Whether a stop (SIGTERM, Ctrl-C) has been requested: a long preparation checks it between
     * its batches through {@link #checkStop}. Defaults to {@code false} (a snapshot that cannot be
     * stopped).
     */
    default boolean stopRequested() {
        return false;
    }

    /**
     * Throws {@link PreparationStoppedException} when a stop has been requested: called by a long
     * preparation once per batch, so it ends within one batch of the request.
     *
     * @param what the preparation and how far it got, for the log
     */
    default void checkStop(String what) {
        if (stopRequested()) {
            throw new PreparationStoppedException(what);
        }
    }
}
