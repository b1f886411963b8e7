package dev.santabatch.ingest;

import dev.santabatch.execution.Fingerprints;
import dev.santabatch.persistence.FieldsCodec;
import dev.santabatch.persistence.Store;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.batch.infrastructure.item.Chunk;
import org.springframework.batch.infrastructure.item.ItemWriter;

/**
 * Writes a chunk of read records into the store in the chunk's transaction: rows become items,
 * rejects are kept with their line. Duplicate ids are found here, against the store, so memory
 * stays constant however large the catalog: the later row is rejected, naming the first line.
 */
public final class IngestWriter implements ItemWriter<CatalogRecord> {

    private final Store store;
    private final long runPk;
    private final int categoryIndex;
    private final dev.santabatch.config.@Nullable SourceFields source;

    public IngestWriter(Store store, long runPk, int categoryIndex) {
        this(store, runPk, categoryIndex, null);
    }

    /**
     * @param source the job's content and source columns: each item is stored with the digest of
     *     their values (what carry-over compares); {@code null}: no digest
     */
    public IngestWriter(Store store, long runPk, int categoryIndex, dev.santabatch.config.@Nullable SourceFields source) {
        this.store = store;
        this.runPk = runPk;
        this.categoryIndex = categoryIndex;
        this.source = source;
    }

    @Override
    public void write(Chunk<? extends CatalogRecord> chunk) throws Exception {
        List<CatalogRecord.CatalogRow> rows = new ArrayList<>();
        List<Store.RejectRow> rejects = new ArrayList<>();
        for (CatalogRecord r : chunk) {
            if (r instanceof CatalogRecord.CatalogRow row) {
                rows.add(row);
            } else if (r instanceof CatalogRecord.Reject rej) {
                rejects.add(new Store.RejectRow(rej.line(), rej.endLine(), rej.reason(), rej.raw()));
            }
        }
        Map<String, Long> firstLine =
                new HashMap<>(store.existingIds(runPk, rows.stream().map(CatalogRecord.CatalogRow::id).toList()));
        List<Store.NewItem> items = new ArrayList<>(rows.size());
        for (CatalogRecord.CatalogRow row : rows) {
            Long first = firstLine.putIfAbsent(row.id(), row.line());
            if (first != null) {
                rejects.add(new Store.RejectRow(
                        row.line(),
                        row.line(),
                        "duplicate id '" + row.id() + "' (first seen on line " + first + ")",
                        org.apache.commons.csv.CSVFormat.RFC4180.format(row.values().toArray())));
                continue;
            }
            items.add(new Store.NewItem(row.id(), row.recordIndex(), row.line(), category(row.values()),
                    FieldsCodec.encode(row.values()),
                    source == null ? null : Fingerprints.input(source.content(row.values()), source.of(row.values()))));
        }
        store.insertItems(runPk, items);
        store.insertRejects(runPk, rejects);
    }

    private @Nullable String category(List<String> values) {
        return categoryIndex < 0 ? null : values.get(categoryIndex);
    }

}
