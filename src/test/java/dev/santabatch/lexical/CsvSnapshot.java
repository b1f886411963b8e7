package dev.santabatch.lexical;

import dev.santabatch.offline.CatalogSnapshot;
import dev.santabatch.offline.SnapshotItem;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVRecord;

/** An in-memory {@link CatalogSnapshot} read from a CSV (tests and benchmarks only). */
final class CsvSnapshot implements CatalogSnapshot {

    static final List<String> PRODUCT_SOURCE = List.of("name", "brand", "category", "price", "warranty_years", "battery_hours");
    static final List<String> FIXTURE_SOURCE = List.of("name", "brand", "category");

    private final long runPk;
    private final int round;
    private final Map<String, SnapshotItem> items;

    CsvSnapshot(long runPk, int round, Map<String, SnapshotItem> items) {
        this.runPk = runPk;
        this.round = round;
        this.items = items;
    }

    /** A catalog in the sample generator's format ({@code description} is the content). */
    static CsvSnapshot products(Path csv, long runPk) throws IOException {
        return read(csv, runPk, "id", "description", PRODUCT_SOURCE);
    }

    /** The shared fixture set ({@code item_id}, {@code content}). */
    static CsvSnapshot fixtures(Path csv, long runPk) throws IOException {
        return read(csv, runPk, "item_id", "content", FIXTURE_SOURCE);
    }

    static List<CSVRecord> records(Path csv) throws IOException {
        try (Reader r = Files.newBufferedReader(csv, StandardCharsets.UTF_8)) {
            return CSVFormat.DEFAULT.builder().setHeader().setSkipHeaderRecord(true).get().parse(r).getRecords();
        }
    }

    private static CsvSnapshot read(Path csv, long runPk, String idCol, String contentCol, List<String> sourceCols) throws IOException {
        Map<String, SnapshotItem> items = new LinkedHashMap<>();
        for (CSVRecord rec : records(csv)) {
            Map<String, String> source = new LinkedHashMap<>();
            for (String c : sourceCols) {
                source.put(c, rec.get(c));
            }
            items.put(rec.get(idCol), new SnapshotItem(rec.get(idCol), 0, rec.get(contentCol), source, rec.get("category")));
        }
        return new CsvSnapshot(runPk, 1, items);
    }

    /** The same items as another round, with some contents revised (rev + 1). */
    CsvSnapshot nextRound(Map<String, String> revised) {
        Map<String, SnapshotItem> next = new LinkedHashMap<>();
        for (SnapshotItem it : items.values()) {
            String c = revised.get(it.id());
            next.put(it.id(), c == null ? it : new SnapshotItem(it.id(), it.rev() + 1, c, it.source(), it.category()));
        }
        return new CsvSnapshot(runPk, round + 1, next);
    }

    Iterable<SnapshotItem> items() {
        return items.values();
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
        return items.size();
    }

    @Override
    public void forEach(Consumer<SnapshotItem> action) {
        items.values().forEach(action);
    }

    @Override
    public Optional<SnapshotItem> get(String id) {
        return Optional.ofNullable(items.get(id));
    }
}
