package dev.santabatch.review.offline;

import dev.santabatch.config.SourceFields;
import dev.santabatch.persistence.FieldsCodec;
import dev.santabatch.persistence.Store;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The catalog snapshot of a round, streamed from the store a page at a time: every item as it stood
 * when the round started (revisions written during the round are not in it), so checks against the
 * rest of the catalog give the same answer however often the round's steps are opened or restarted.
 */
public final class StoreSnapshot implements CatalogSnapshot {

    private final Store store;
    private final long runPk;
    private final int round;
    private final SourceFields source;
    private final int categoryIndex;

    public StoreSnapshot(Store store, long runPk, int round, SourceFields source, int categoryIndex) {
        this.store = store;
        this.runPk = runPk;
        this.round = round;
        this.source = source;
        this.categoryIndex = categoryIndex;
    }

    @Override
    public long runPk() {
        return runPk;
    }

    @Override
    public int round() {
        return round;
    }

    @Override
    public long size() {
        return store.countItems(runPk);
    }

    @Override
    public void forEach(Consumer<SnapshotItem> action) {
        store.forEachItemAsOfRound(runPk, round, it -> action.accept(toSnapshot(it)));
    }

    /** The run's stop flag ({@link dev.santabatch.execution.StopSignal}). */
    @Override
    public boolean stopRequested() {
        return dev.santabatch.execution.StopSignal.requested();
    }

    @Override
    public Optional<SnapshotItem> get(String id) {
        return store.itemAsOfRound(runPk, id, round).map(this::toSnapshot);
    }

    public SnapshotItem toSnapshot(Store.StoredItem it) {
        List<String> fields = FieldsCodec.decode(it.fields());
        String content = it.content() != null ? it.content() : source.content(fields);
        return new SnapshotItem(it.id(), it.currentRev(), content, source.of(fields),
                categoryIndex < 0 ? null : fields.get(categoryIndex));
    }
}
