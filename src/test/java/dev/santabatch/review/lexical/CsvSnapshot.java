package dev.santabatch.review.lexical;

import dev.santabatch.review.offline.MemorySnapshot;
import dev.santabatch.review.offline.SnapshotItem;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** An in-memory catalog snapshot read from a CSV (tests and benchmarks only). */
final class CsvSnapshot extends MemorySnapshot {

    static final List<String> FIXTURE_SOURCE = List.of("name", "brand", "category");

    CsvSnapshot(long runPk, int round, Map<String, SnapshotItem> items) {
        super(runPk, round, items);
    }

    /** A catalog in the sample generator's format ({@code description} is the content). */
    static CsvSnapshot products(Path csv, long runPk) throws IOException {
        return new CsvSnapshot(runPk, 1, items(records(csv), "id", "description", PRODUCT_SOURCE));
    }

    /** The shared fixture set ({@code item_id}, {@code content}). */
    static CsvSnapshot fixtures(Path csv, long runPk) throws IOException {
        return new CsvSnapshot(runPk, 1, items(records(csv), "item_id", "content", FIXTURE_SOURCE));
    }

    /** The same items as another round, with some contents revised (rev + 1). */
    CsvSnapshot nextRound(Map<String, String> revised) {
        Map<String, SnapshotItem> next = new LinkedHashMap<>();
        for (SnapshotItem it : items()) {
            String c = revised.get(it.id());
            next.put(it.id(), c == null ? it : new SnapshotItem(it.id(), it.rev() + 1, c, it.source(), it.category()));
        }
        return new CsvSnapshot(runPk(), round() + 1, next);
    }
}
