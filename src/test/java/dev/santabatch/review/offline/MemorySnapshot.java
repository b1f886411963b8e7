package dev.santabatch.review.offline;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVRecord;

/**
 * An in-memory {@link CatalogSnapshot} (tests and benchmarks only), with the CSV reading the
 * offline reviewers' test harnesses share.
 */
public class MemorySnapshot implements CatalogSnapshot {

    /** The source columns of the sample generator's catalogs (the default job's {@code source-columns}). */
    public static final List<String> PRODUCT_SOURCE = List.of("name", "brand", "category", "price", "warranty_years", "battery_hours");

    private final long runPk;
    private final int round;
    private final Map<String, SnapshotItem> items;

    public MemorySnapshot(long runPk, int round, Map<String, SnapshotItem> items) {
        this.runPk = runPk;
        this.round = round;
        this.items = Collections.unmodifiableMap(new LinkedHashMap<>(items));
    }

    /** Every record of a CSV with a header row. */
    public static List<CSVRecord> records(Reader csv) throws IOException {
        return CSVFormat.DEFAULT.builder().setHeader().setSkipHeaderRecord(true).get().parse(csv).getRecords();
    }

    public static List<CSVRecord> records(Path csv) throws IOException {
        try (Reader r = Files.newBufferedReader(csv, StandardCharsets.UTF_8)) {
            return records(r);
        }
    }

    /**
     * Items (revision 0) from CSV records, in record order: the id and content columns, the source
     * columns (a column the records lack is an empty value, as an empty cell would be), and the
     * {@code category} column as the stratum.
     */
    public static Map<String, SnapshotItem> items(Iterable<CSVRecord> records, String idColumn, String contentColumn, List<String> sourceColumns) {
        Map<String, SnapshotItem> items = new LinkedHashMap<>();
        for (CSVRecord r : records) {
            Map<String, String> source = new LinkedHashMap<>();
            for (String c : sourceColumns) {
                source.put(c, r.isMapped(c) ? r.get(c) : "");
            }
            items.put(r.get(idColumn), new SnapshotItem(r.get(idColumn), 0, r.get(contentColumn), source, r.get("category")));
        }
        return items;
    }

    /** The items in input order. */
    public List<SnapshotItem> items() {
        return List.copyOf(items.values());
    }

    public Set<String> ids() {
        return items.keySet();
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
