package dev.santabatch.bench;

import dev.santabatch.eval.ListingCatalogGenerator;
import dev.santabatch.eval.PlantedDefect;
import dev.santabatch.eval.RecipeCatalogGenerator;
import dev.santabatch.eval.SampleCatalogGenerator;
import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVRecord;

/**
 * A generated catalog domain the model benchmarks ({@link PatternCBenchmark}, {@link FaultSoakBenchmark})
 * run on: how to generate a catalog from one of its generator's pools, its ground truth as planted
 * defects, and its job template on the test class path ({@code bench/<domain>-llm.yml}, with
 * {@code @CSV@}, {@code @BASE_URL@}, {@code @RATE@} and {@code @MAX_ROUNDS@} substituted
 * textually).
 *
 * @param pool the generator pool the catalog is drawn from (for printing)
 * @param template the job template's resource name
 * @param contentColumn the catalog's content column
 * @param criterionByKind the criterion each planted defect kind fails, as the template's rubric names it
 */
record BenchDomain(String name, String pool, String template, String contentColumn, Generator generator, DefectReader defects,
        Map<String, String> criterionByKind) {

    @FunctionalInterface
    interface Generator {
        void write(long seed, int rows, Path csv, Path truth) throws IOException;
    }

    @FunctionalInterface
    interface DefectReader {
        List<PlantedDefect> read(Path truth, Path csv) throws IOException;
    }

    /** The product generator's catalog from {@code pool}, job template {@code bench/products-llm.yml}. */
    static BenchDomain products(SampleCatalogGenerator.Vocabulary pool) {
        return new BenchDomain("products", pool.name(), "bench/products-llm.yml", "description",
                (seed, rows, csv, truth) -> SampleCatalogGenerator.write(seed, rows, pool, csv, truth),
                SampleCatalogGenerator::plantedDefects, SampleCatalogGenerator.benchmarkCriteria());
    }

    /** The listing generator's {@code HELD_OUT} pool (nothing was tuned on it), job template {@code bench/listings-llm.yml}. */
    static BenchDomain listings() {
        ListingCatalogGenerator.Pool pool = ListingCatalogGenerator.Pool.HELD_OUT;
        return new BenchDomain("listings", pool.name(), "bench/listings-llm.yml", "listing",
                (seed, rows, csv, truth) -> ListingCatalogGenerator.write(seed, rows, pool, csv, truth),
                (truth, csv) -> ListingCatalogGenerator.plantedDefects(truth), ListingCatalogGenerator.benchmarkCriteria());
    }

    /** The recipe generator's single pool (written blind to the induction and reviewer code), {@code bench/recipes-llm.yml}. */
    static BenchDomain recipes() {
        return new BenchDomain("recipes", "single", "bench/recipes-llm.yml", "card", RecipeCatalogGenerator::write,
                (truth, csv) -> RecipeCatalogGenerator.plantedDefects(truth), RecipeCatalogGenerator.benchmarkCriteria());
    }

    /** The domain called {@code name} among {@code known}, or an error naming the known ones. */
    static BenchDomain named(Map<String, BenchDomain> known, String name) {
        BenchDomain d = known.get(name);
        if (d == null) {
            throw new IllegalArgumentException("unknown domain " + name + " (" + new java.util.TreeSet<>(known.keySet()) + ")");
        }
        return d;
    }

    /** Writes the catalog and its truth file and returns its planted defects. */
    List<PlantedDefect> write(long seed, int rows, Path csv, Path truth) throws IOException {
        generator.write(seed, rows, csv, truth);
        return defects.read(truth, csv);
    }

    /** The job template's text. */
    String templateText() throws IOException {
        try (InputStream in = BenchDomain.class.getClassLoader().getResourceAsStream(template)) {
            if (in == null) {
                throw new IOException("no job template " + template + " on the test class path");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /**
     * The template's job from its {@code name:} line up to its {@code sampling:} section (name, input,
     * task specification, rubric), named {@code jobName}, reading {@code csv}: what a benchmark that
     * brings its own sampling, models and limits keeps of the domain.
     */
    String jobHead(String jobName, Path csv) throws IOException {
        String text = templateText();
        int start = text.indexOf("\nname: ") + 1;
        int end = text.indexOf("\nsampling:\n") + 1;
        if (start <= 0 || end <= start) {
            throw new IOException("job template " + template + " has no name: line before its sampling: section");
        }
        return text.substring(start, end).replaceFirst("^name: .*", "name: " + jobName)
                .replace("@CSV@", csv.toAbsolutePath().toString());
    }

    // ------------------------------------------------------------------ reading the benchmarks' CSV files

    static List<CSVRecord> records(Path csv) throws IOException {
        try (Reader in = Files.newBufferedReader(csv, StandardCharsets.UTF_8);
                var p = CSVFormat.DEFAULT.builder().setHeader().setSkipHeaderRecord(true).get().parse(in)) {
            return p.getRecords();
        }
    }

    /** The item id column of an output file's records: {@code id} (catalog, verified, unverified) or {@code item_id} (escalations). */
    static String idColumn(List<CSVRecord> records) {
        return records.isEmpty() || records.get(0).isMapped("id") ? "id" : "item_id";
    }
}
