package dev.santabatch.review.semantic;

import dev.santabatch.review.offline.MemorySnapshot;
import dev.santabatch.review.offline.SnapshotItem;
import dev.santabatch.eval.SampleCatalogGenerator;
import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.commons.csv.CSVRecord;

/** An in-memory catalog snapshot read from a catalog CSV, with its ground truth (tests only). */
final class TestCatalog extends MemorySnapshot {

    /** One truth row. */
    record Truth(String kind, String truth, String wrong) {}

    final Map<String, List<Truth>> truth;

    TestCatalog(long runPk, int round, Map<String, SnapshotItem> items, Map<String, List<Truth>> truth) {
        super(runPk, round, items);
        this.truth = truth;
    }

    static TestCatalog sample(long runPk) throws IOException {
        Path dir = Path.of("sample-data");
        try (Reader c = Files.newBufferedReader(dir.resolve("products.csv"), StandardCharsets.UTF_8);
             Reader t = Files.newBufferedReader(dir.resolve("products.truth.csv"), StandardCharsets.UTF_8)) {
            return read(runPk, c, t);
        }
    }

    static TestCatalog generated(long runPk, long seed, int rows, boolean heldOut) throws IOException {
        return generated(runPk, seed, rows, heldOut ? SampleCatalogGenerator.Vocabulary.HELD_OUT : SampleCatalogGenerator.Vocabulary.SAMPLE);
    }

    static TestCatalog generated(long runPk, long seed, int rows, SampleCatalogGenerator.Vocabulary pool) throws IOException {
        StringWriter c = new StringWriter();
        StringWriter t = new StringWriter();
        SampleCatalogGenerator.write(seed, rows, pool, c, t);
        return read(runPk, new StringReader(c.toString()), new StringReader(t.toString()));
    }

    static TestCatalog read(long runPk, Reader catalog, Reader truthCsv) throws IOException {
        Map<String, SnapshotItem> items = items(records(catalog), "id", "description", PRODUCT_SOURCE);
        Map<String, List<Truth>> truth = new HashMap<>();
        if (truthCsv != null) {
            for (CSVRecord r : records(truthCsv)) {
                truth.computeIfAbsent(r.get("id"), k -> new ArrayList<>()).add(new Truth(r.get("kind"), r.get("truth"), r.get("wrong")));
            }
        }
        return new TestCatalog(runPk, 1, items, truth);
    }

    /** Paraphrase boilerplate. */
    boolean paraphrase(String id) {
        return truth.getOrDefault(id, List.of()).stream().anyMatch(t -> t.kind().equals("boilerplate") && t.truth().equals("paraphrase"));
    }

    boolean boilerplate(String id) {
        return truth.getOrDefault(id, List.of()).stream().anyMatch(t -> t.kind().equals("boilerplate"));
    }

    /** Unnamed drift (drift-sentence or drift-text with a topic: truth). */
    boolean topicDrift(String id) {
        return truth.getOrDefault(id, List.of()).stream()
                .anyMatch(t -> t.kind().startsWith("drift") && t.truth().startsWith("topic:"));
    }

    boolean anyDrift(String id) {
        return truth.getOrDefault(id, List.of()).stream().anyMatch(t -> t.kind().startsWith("drift"));
    }

    boolean clean(String id) {
        return !truth.containsKey(id);
    }

    /** Items whose only defects are ones neither semantic criterion is about (numbers, terms, disclaimer). */
    boolean offCriteriaOnly(String id) {
        return !clean(id) && !boilerplate(id) && !anyDrift(id);
    }
}
