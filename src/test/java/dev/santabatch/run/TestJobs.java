package dev.santabatch.run;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVPrinter;

/** Small catalogs and job files for functional tests, written into a test's folder. */
public final class TestJobs {

    public static final List<String> HEADER =
            List.of("id", "name", "brand", "category", "price", "warranty_years", "battery_hours", "description");

    private TestJobs() {}

    /** A clean catalog of {@code rows} rows whose values exercise quoting (commas, quotes, newlines, non-ASCII). */
    public static List<List<String>> rows(int rows) {
        String[] categories = {"headphones", "laptops", "kitchen", "fitness", "outdoor"};
        List<List<String>> out = new ArrayList<>();
        for (int i = 1; i <= rows; i++) {
            String cat = categories[i % categories.length];
            String desc = switch (i % 4) {
                case 0 -> "The Model " + i + " is \"quiet\", light, and tough – built for every day.";
                case 1 -> "Crème de la crème: item " + i + " has a 2-year warranty.\nSecond line, with comma.";
                case 2 -> " Leading space and trailing space for item " + i + " ";
                default -> "Plain description number " + i + " for the " + cat + " aisle (日本語 ok).";
            };
            out.add(List.of(
                    String.format("T%04d", i),
                    "Item " + i,
                    "Brand" + (i % 7),
                    cat,
                    String.format("%d.99", 10 + i),
                    String.valueOf(1 + i % 3),
                    cat.equals("kitchen") ? "" : String.valueOf(10 + i % 20),
                    desc));
        }
        return out;
    }

    /** The same row with line breaks in values replaced, so every record is one physical line. */
    static List<String> oneLine(List<String> row) {
        return row.stream().map(v -> v.replace("\n", " ")).toList();
    }

    public static Path writeCatalog(Path file, List<List<String>> rows) throws IOException {
        try (CSVPrinter p = new CSVPrinter(Files.newBufferedWriter(file, StandardCharsets.UTF_8), CSVFormat.RFC4180)) {
            p.printRecord(HEADER);
            for (List<String> r : rows) {
                p.printRecord(r);
            }
        }
        return file;
    }

    /** A job file over {@code catalog} with the given chunk size and no rules. */
    public static Path writeJob(Path dir, String name, Path catalog, int chunkSize) throws IOException {
        String yaml = """
                name: %s
                input:
                  path: %s
                  id-column: id
                  content-column: description
                  category-column: category
                  source-columns: [name, brand, category, price, warranty_years, battery_hours]
                task-spec: Write a short product description.
                rubric:
                  - id: on-specification
                    pass: About its own product.
                    fail-signal: About something else.
                    checked-by: santa
                  - id: original
                    pass: Not boilerplate.
                    fail-signal: Copied from another item.
                    checked-by: santa
                run:
                  chunk-size: %d
                """.formatted(name, catalog.toAbsolutePath(), chunkSize);
        Path job = dir.resolve(name + ".yml");
        Files.writeString(job, yaml);
        return job;
    }

    /**
     * Adds a rules criterion to {@link #writeJob}'s job file: rule {@code claims} substitutes
     * "remarkable" for "miracle" (the pre-pass revises the item), rule {@code banned} finds "scam"
     * and cannot fix it (the item is held).
     */
    public static Path withClaimRules(Path job) throws IOException {
        String rules = """
                  - id: compliance
                    pass: No claims.
                    fail-signal: A claim.
                    checked-by: rules
                    rules:
                      - id: claims
                        type: forbidden-terms
                        terms: [miracle]
                        replacements:
                          miracle: remarkable
                        fix: substitute
                      - id: banned
                        type: forbidden-terms
                        terms: [scam]
                run:
                """;
        Files.writeString(job, Files.readString(job).replace("run:\n", rules));
        return job;
    }

    /** Spring properties pointing the store at an H2 file database in {@code dir}. */
    public static Map<String, Object> h2(Path dir) {
        Map<String, Object> p = new HashMap<>();
        p.put("spring.datasource.url", h2Url(dir));
        // the scripted panels see only their scripted markers, which no canary carries: a canary
        // would end every run panel-does-not-fit (the canary tests turn them on)
        p.put(dev.santabatch.batch.SantaJobConfiguration.CANARIES_PROPERTY, "false");
        return p;
    }

    public static String h2Url(Path dir) {
        return "jdbc:h2:file:" + dir.toAbsolutePath().resolve("db/santa") + ";AUTO_SERVER=TRUE;WRITE_DELAY=0";
    }

    static List<List<String>> readCsv(Path file) throws IOException {
        List<List<String>> out = new ArrayList<>();
        try (var parser = CSVFormat.RFC4180.builder().get().parse(Files.newBufferedReader(file, StandardCharsets.UTF_8))) {
            parser.forEach(r -> out.add(r.toList()));
        }
        return out;
    }
}
