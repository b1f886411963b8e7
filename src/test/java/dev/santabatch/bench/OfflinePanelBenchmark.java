package dev.santabatch.bench;

import dev.santabatch.cli.Cli;
import dev.santabatch.model.DefectText;
import dev.santabatch.eval.ListingCatalogGenerator;
import dev.santabatch.eval.SampleCatalogGenerator;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVRecord;

/**
 * The offline panel's acceptance figures (issue 18): per domain and seed, the real offline job (reviewers
 * {@code lexical} B and {@code semantic} C at their default thresholds, the offline fixer) is run end to end
 * through the command line ({@link Cli#run}) in this JVM, reviewing every item once (sampling rate 1.0 with
 * {@code allow-rate-outside-range}, {@code santa.max-rounds} 1), and its outputs are scored against the
 * generator's ground truth:
 *
 * <ul>
 *   <li><b>false holds</b>: items without any planted defect that the run held ({@code escalations.csv} or
 *       {@code unverified.csv}), as a share of those items (acceptance: at most 2 %);
 *   <li><b>boilerplate recall</b>: items with a planted boilerplate passage that the run held, or shipped
 *       without the passage ({@link DefectText#find}), as a share of them (acceptance: at least 0.90);
 *   <li><b>named-drift recall</b>: the same for items with a sentence that names another item's value of a
 *       text-valued column (listings: another item's city; products: another product's name and brand).
 * </ul>
 *
 * <p>Domains: {@code listings} (the listing generator's {@code HELD_OUT} pool, job template
 * {@code bench/listings-offline.yml}: the default job's panel on the listing columns, the length rule only),
 * {@code sample} (the bundled {@code sample-data/products.csv} and its truth, with
 * {@code jobs/product-descriptions.yml} itself; rows and seeds do not apply), and for tuning
 * {@code listings-tuning} (the listing generator's {@code TUNING} pool) and {@code products} (the product
 * generator's {@code SAMPLE} pool). Only the tuning domains print the false holds' and misses' reasons.
 *
 * <p>Arguments: {@code [rows] [seeds] [domain...]}, default {@code 1500 3 listings sample}. Run from the
 * project folder after {@code test-compile}. Not a test; {@code OfflinePanelAcceptanceTests} asserts the
 * figures on smaller catalogs.
 */
public final class OfflinePanelBenchmark {

    static final String RUN_ID = "bench";

    /** A catalog domain: how to write it, its job, its content column and which truth rows count. */
    public record Domain(String name, boolean tuning, String contentColumn, Generator generator, JobWriter job) {}

    @FunctionalInterface
    public interface Generator {
        void write(long seed, int rows, Path csv, Path truth) throws IOException;
    }

    @FunctionalInterface
    public interface JobWriter {
        String job(Path csv) throws IOException;
    }

    /** What the run did with one catalog, scored. */
    public record Figures(String domain, long seed, int rows, String status, int exit, int held, int clean, int cleanHeld,
            int boilerplate, int boilerplateCaught, int named, int namedCaught, List<String> notes) {

        public double falseHoldShare() {
            return clean == 0 ? 0 : cleanHeld / (double) clean;
        }

        public double boilerplateRecall() {
            return boilerplate == 0 ? 1 : boilerplateCaught / (double) boilerplate;
        }

        public double namedRecall() {
            return named == 0 ? 1 : namedCaught / (double) named;
        }

        public String line() {
            return String.format(Locale.ROOT, "%s seed %d (%d rows): status %s, exit %d, held %d; false holds %d of %d clean"
                            + " (%.2f %%); boilerplate recall %.3f (%d of %d); named-drift recall %.3f (%d of %d)", domain, seed, rows,
                    status, exit, held, cleanHeld, clean, 100 * falseHoldShare(), boilerplateRecall(), boilerplateCaught, boilerplate,
                    namedRecall(), namedCaught, named);
        }
    }

    static final Path DEFAULT_JOB = Path.of("jobs/product-descriptions.yml");
    static final Path SAMPLE = Path.of("sample-data/products.csv");
    static final Path SAMPLE_TRUTH = Path.of("sample-data/products.truth.csv");

    public static final Map<String, Domain> DOMAINS = Map.of(
            "listings", new Domain("listings", false, "listing",
                    (seed, rows, csv, truth) -> ListingCatalogGenerator.write(seed, rows, ListingCatalogGenerator.Pool.HELD_OUT, csv, truth),
                    OfflinePanelBenchmark::listingJob),
            "listings-tuning", new Domain("listings-tuning", true, "listing",
                    (seed, rows, csv, truth) -> ListingCatalogGenerator.write(seed, rows, ListingCatalogGenerator.Pool.TUNING, csv, truth),
                    OfflinePanelBenchmark::listingJob),
            "products", new Domain("products", true, "description",
                    (seed, rows, csv, truth) -> SampleCatalogGenerator.write(seed, rows, SampleCatalogGenerator.Vocabulary.SAMPLE, csv, truth),
                    OfflinePanelBenchmark::productJob),
            "sample", new Domain("sample", false, "description", (seed, rows, csv, truth) -> {
                Files.copy(SAMPLE, csv);
                Files.copy(SAMPLE_TRUTH, truth);
            }, OfflinePanelBenchmark::productJob));

    public static void main(String[] args) throws Exception {
        int rows = args.length > 0 ? Integer.parseInt(args[0]) : 1500;
        int seeds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        List<String> names = args.length > 2 ? Arrays.asList(args).subList(2, args.length) : List.of("listings", "sample");
        Path dir = Files.createTempDirectory("santa-offline-panel");
        System.out.printf("Offline panel benchmark: %d rows, %d seeds, domains %s, %d cores, folder %s%n", rows, seeds, names,
                Runtime.getRuntime().availableProcessors(), dir);
        for (String name : names) {
            Domain domain = DOMAINS.get(name);
            if (domain == null) {
                throw new IllegalArgumentException("unknown domain " + name + " (" + DOMAINS.keySet() + ")");
            }
            int n = name.equals("sample") ? 1 : seeds;
            List<Figures> all = new ArrayList<>();
            for (long seed = 1; seed <= n; seed++) {
                long start = System.nanoTime();
                Figures f = measure(domain, seed, rows, dir.resolve(name + "-" + seed));
                all.add(f);
                System.out.printf(Locale.ROOT, "%s (%.0f s)%n", f.line(), (System.nanoTime() - start) / 1e9);
                f.notes().forEach(s -> System.out.println("    " + s));
            }
            int clean = all.stream().mapToInt(Figures::clean).sum();
            int cleanHeld = all.stream().mapToInt(Figures::cleanHeld).sum();
            int bp = all.stream().mapToInt(Figures::boilerplate).sum();
            int bpc = all.stream().mapToInt(Figures::boilerplateCaught).sum();
            int nd = all.stream().mapToInt(Figures::named).sum();
            int ndc = all.stream().mapToInt(Figures::namedCaught).sum();
            System.out.printf(Locale.ROOT, "%s over %d catalog(s): false holds %d of %d clean (%.2f %%, worst %.2f %%); boilerplate recall"
                            + " %.3f (%d of %d, worst %.3f); named-drift recall %.3f (%d of %d, worst %.3f)%n", name, all.size(), cleanHeld,
                    clean, 100.0 * cleanHeld / Math.max(1, clean), 100 * all.stream().mapToDouble(Figures::falseHoldShare).max().orElse(0),
                    bp == 0 ? 1 : bpc / (double) bp, bpc, bp, all.stream().mapToDouble(Figures::boilerplateRecall).min().orElse(1),
                    nd == 0 ? 1 : ndc / (double) nd, ndc, nd, all.stream().mapToDouble(Figures::namedRecall).min().orElse(1));
        }
    }

    /** Writes the domain's catalog for {@code seed} and {@code rows} into {@code dir}, runs the offline job on it and scores it. */
    public static Figures measure(Domain domain, long seed, int rows, Path dir) throws Exception {
        Files.createDirectories(dir);
        Path csv = dir.resolve("catalog-in.csv");
        Path truth = dir.resolve("catalog-in.truth.csv");
        domain.generator().write(seed, rows, csv, truth);
        Path job = dir.resolve("job.yml");
        Files.writeString(job, domain.job().job(csv.toAbsolutePath()));
        String url = "jdbc:h2:file:" + dir.resolve("db/santa").toAbsolutePath() + ";AUTO_SERVER=TRUE;WRITE_DELAY=0";
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        Path outRoot = dir.resolve("out");
        int exit;
        try (PrintStream out = new PrintStream(log, true, StandardCharsets.UTF_8)) {
            exit = Cli.run(new String[] {"run", job.toString(), "--out", outRoot.toString(), "--run-id", RUN_ID},
                    Map.of("spring.datasource.url", url), out, out);
        }
        Files.write(dir.resolve("cli.log"), log.toByteArray());
        Path out;
        try (var folders = Files.list(outRoot)) {
            out = folders.findFirst().orElseThrow().resolve(RUN_ID);
        }
        return score(domain, seed, exit, csv, truth, out);
    }

    static Figures score(Domain domain, long seed, int exit, Path csv, Path truth, Path out) throws IOException {
        Map<String, String> input = new LinkedHashMap<>();
        for (CSVRecord r : records(csv)) {
            input.put(r.get("id"), r.get(domain.contentColumn()));
        }
        Map<String, List<CSVRecord>> byItem = new HashMap<>();
        for (CSVRecord t : records(truth)) {
            byItem.computeIfAbsent(t.get("id"), k -> new ArrayList<>()).add(t);
        }
        Map<String, String> shipped = new HashMap<>();
        for (String f : List.of("catalog.csv", "verified.csv")) {
            if (Files.exists(out.resolve(f))) {
                for (CSVRecord r : records(out.resolve(f))) {
                    shipped.put(r.get("id"), r.get(domain.contentColumn()));
                }
                break;
            }
        }
        Map<String, String> held = new LinkedHashMap<>();
        for (String f : List.of("escalations.csv", "unverified.csv")) {
            Path file = out.resolve(f);
            if (Files.exists(file)) {
                List<CSVRecord> rs = records(file);
                String idColumn = rs.isEmpty() || rs.get(0).isMapped("id") ? "id" : "item_id";
                for (CSVRecord r : rs) {
                    held.put(r.get(idColumn), reason(r));
                }
            }
        }
        shipped.keySet().removeAll(held.keySet());
        String status = "none";
        Path report = out.resolve("report.json");
        if (Files.exists(report)) {
            Object s = dev.santabatch.export.RunReport.read(report).get("status");
            status = String.valueOf(s);
        }
        int clean = 0;
        int cleanHeld = 0;
        int[] bp = new int[2];
        int[] nd = new int[2];
        List<String> notes = new ArrayList<>();
        for (Map.Entry<String, String> e : input.entrySet()) {
            String id = e.getKey();
            List<CSVRecord> rows = byItem.getOrDefault(id, List.of());
            boolean isHeld = held.containsKey(id);
            if (rows.isEmpty()) {
                clean++;
                if (isHeld) {
                    cleanHeld++;
                    if (domain.tuning()) {
                        notes.add("false hold " + id + ": " + held.get(id));
                    }
                }
                continue;
            }
            for (CSVRecord t : rows) {
                int[] counter = isBoilerplate(t) ? bp : isNamedDrift(t) ? nd : null;
                if (counter == null) {
                    continue;
                }
                counter[0]++;
                String text = shipped.get(id);
                boolean caught = isHeld || text == null || DefectText.find(text, t.get("wrong")) == null;
                if (caught) {
                    counter[1]++;
                } else if (domain.tuning()) {
                    notes.add("missed " + t.get("kind") + " " + id + " (" + t.get("truth") + "): \"" + t.get("wrong") + "\"");
                }
            }
        }
        Collections.sort(notes);
        return new Figures(domain.name(), seed, input.size(), status, exit, held.size(), clean, cleanHeld, bp[0], bp[1], nd[0], nd[1], notes);
    }

    private static boolean isBoilerplate(CSVRecord t) {
        return t.get("kind").equals(ListingCatalogGenerator.BOILERPLATE) || t.get("kind").equals(SampleCatalogGenerator.BOILERPLATE);
    }

    /** A sentence naming another item's value of a text-valued column: another listing's city, another product's name. */
    private static boolean isNamedDrift(CSVRecord t) {
        return t.get("kind").equals(ListingCatalogGenerator.OFF_TOPIC_SENTENCE)
                || (t.get("kind").equals(SampleCatalogGenerator.DRIFT_SENTENCE) && t.get("truth").startsWith("product:"));
    }

    private static String reason(CSVRecord r) {
        StringBuilder b = new StringBuilder();
        for (String c : List.of("reason", "pattern", "open_issues")) {
            if (r.isMapped(c) && !r.get(c).isBlank()) {
                b.append(b.length() == 0 ? "" : " | ").append(r.get(c));
            }
        }
        String s = b.toString().replace('\n', ' ');
        return s.length() > 400 ? s.substring(0, 400) + "…" : s;
    }

    // ------------------------------------------------------------------ jobs

    static String listingJob(Path csv) throws IOException {
        return template("bench/listings-offline.yml").replace("@CSV@", csv.toString()).replace("@RATE@", "1.0")
                .replace("@MAX_ROUNDS@", "1");
    }

    /** The default job itself, on another catalog, every item reviewed once. */
    static String productJob(Path csv) throws IOException {
        String job = Files.readString(DEFAULT_JOB);
        String[][] edits = {
                {"  path: ../sample-data/products.csv\n", "  path: " + csv + "\n"},
                {"  ground-truth: ../sample-data/products.truth.csv\n", ""},
                {"  rate: 0.12\n", "  rate: 1.0\n  allow-rate-outside-range: true\n"},
                {"  max-rounds: 5\n", "  max-rounds: 1\n"}};
        for (String[] e : edits) {
            if (!job.contains(e[0])) {
                throw new IllegalStateException(DEFAULT_JOB + " has no line '" + e[0].strip() + "' to replace");
            }
            job = job.replace(e[0], e[1]);
        }
        return job;
    }

    static String template(String resource) throws IOException {
        try (InputStream in = OfflinePanelBenchmark.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IOException("no job template " + resource + " on the test class path");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    static List<CSVRecord> records(Path csv) throws IOException {
        try (Reader in = Files.newBufferedReader(csv, StandardCharsets.UTF_8);
                var p = CSVFormat.DEFAULT.builder().setHeader().setSkipHeaderRecord(true).get().parse(in)) {
            return p.getRecords();
        }
    }

    private OfflinePanelBenchmark() {}
}
