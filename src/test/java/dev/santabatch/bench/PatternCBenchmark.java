package dev.santabatch.bench;

import dev.santabatch.cli.Cli;
import dev.santabatch.model.CatalogModelServer;
import dev.santabatch.model.CatalogModelServer.Kind;
import dev.santabatch.model.DefectText;
import dev.santabatch.model.RealisticJudges;
import dev.santabatch.export.RunReport;
import dev.santabatch.run.Launcher;
import dev.santabatch.eval.PlantedDefect;
import dev.santabatch.eval.SampleCatalogGenerator;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.commons.csv.CSVRecord;

/**
 * Pattern C against judges as imperfect as real ones (issue 17's benchmark): per domain and seed, a
 * generated catalog is run twice, each run against its own fresh {@link CatalogModelServer} in judge
 * mode ({@link RealisticJudges} at their defaults: reviewers B and C miss 25 % and 30 % of visible
 * defects and fail 2 % of clean reviews, the matcher misses 10 % and matches 2 % falsely): the
 * sampled run (rate 0.10, {@code santa.max-rounds} 4) and the full verification (rate 1.0 with
 * {@code allow-rate-outside-range}, one round). Both are the real command line ({@link Cli#run}) in
 * this JVM. Not a test.
 *
 * <p>Domains: {@code products} (the product generator's {@code SAMPLE} pool, job template
 * {@code bench/products-llm.yml}) and {@code listings} (the listing generator's {@code HELD_OUT}
 * pool, {@code bench/listings-llm.yml}); on request, {@code recipes} (issue 17's third domain, the recipe
 * generator's single pool, {@code bench/recipes-llm.yml}). Prints per run and, per domain, as medians and ranges over
 * the seeds:
 *
 * <ul>
 *   <li>status and exit, rounds, the calls the server received by kind (review, fix, match);
 *   <li>the sampled run's calls as a share of the full verification's, the floor (two rounds x rate
 *       x the full verification's calls per item) and the matcher's share of the sampled run's calls;
 *   <li>shipped items ({@code catalog.csv} or {@code verified.csv}) still carrying a planted defect
 *       ({@link DefectText#carries}), as a count and a share of the shipped, beside the full
 *       verification's;
 *   <li>false holds: items without a planted defect in {@code escalations.csv} or
 *       {@code unverified.csv}, as a share of those items;
 *   <li>per failure pattern of the report, how it was handled ({@link #handledBy}) and, for each
 *       learned rule the report lists, its precision against the ground truth ({@link #rulePrecision}).
 * </ul>
 *
 * <p>Arguments: {@code [rows] [seeds] [domain...]}, default {@code 1500 5 products listings}. Run from
 * the project folder after {@code test-compile}.
 */
public final class PatternCBenchmark {

    static final String RUN_ID = "bench";
    static final double SAMPLED_RATE = 0.10;
    static final int SAMPLED_ROUNDS = 4;

    /** Products from the product generator's {@code SAMPLE} pool (the pool its thresholds were derived on), listings, recipes. */
    static final Map<String, BenchDomain> DOMAINS = Map.of(
            "products", BenchDomain.products(SampleCatalogGenerator.Vocabulary.SAMPLE),
            "listings", BenchDomain.listings(),
            "recipes", BenchDomain.recipes());

    /** One run and what it shipped and held. */
    record Run(String mode, int exit, String status, int rounds, Map<Kind, Long> calls, Map<String, Long> callsByModel, int unmatched,
            int shipped, int shippedDefective, int cleanHeld, int clean, List<String> patterns, List<String> rules) {

        long total() {
            return calls.values().stream().mapToLong(Long::longValue).sum();
        }

        long calls(Kind kind) {
            return calls.getOrDefault(kind, 0L);
        }

        double shippedDefectiveShare() {
            return shipped == 0 ? 0 : shippedDefective / (double) shipped;
        }

        double falseHoldShare() {
            return clean == 0 ? 0 : cleanHeld / (double) clean;
        }
    }

    /** The sampled run beside the full verification of one catalog. */
    record Pair(long seed, int rows, Run sampled, Run full) {

        double ratio() {
            return sampled.total() / (double) full.total();
        }

        /** Two rounds x rate x the full verification's calls per item. */
        double floor() {
            return 2 * SAMPLED_RATE * full.total();
        }

        double matcherShare() {
            return sampled.total() == 0 ? 0 : sampled.calls(Kind.MATCH) / (double) sampled.total();
        }
    }

    public static void main(String[] args) throws Exception {
        int rows = args.length > 0 ? Integer.parseInt(args[0]) : 1500;
        int seeds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        List<String> names = args.length > 2 ? Arrays.asList(args).subList(2, args.length) : List.of("products", "listings");
        Path dir = Files.createTempDirectory("santa-patternc");
        System.out.printf("Pattern C benchmark: %d rows, %d seeds, domains %s, %d cores, folder %s%n", rows, seeds, names,
                Runtime.getRuntime().availableProcessors(), dir);
        for (String name : names) {
            BenchDomain domain = BenchDomain.named(DOMAINS, name);
            List<Pair> pairs = new ArrayList<>();
            for (long seed = 1; seed <= seeds; seed++) {
                Pair p = pair(domain, seed, rows, dir.resolve(name + "-" + seed));
                pairs.add(p);
                print(domain, p);
            }
            summary(domain, pairs);
        }
    }

    static Pair pair(BenchDomain domain, long seed, int rows, Path dir) throws Exception {
        Files.createDirectories(dir);
        Path csv = dir.resolve("catalog-in.csv");
        Path truth = dir.resolve("catalog-in.truth.csv");
        List<PlantedDefect> defects = domain.write(seed, rows, csv, truth);
        Run sampled = run(domain, "sampled", csv, defects, seed, SAMPLED_RATE, SAMPLED_ROUNDS, dir.resolve("sampled"));
        Run full = run(domain, "full", csv, defects, seed, 1.0, 1, dir.resolve("full"));
        return new Pair(seed, rows, sampled, full);
    }

    static Run run(BenchDomain domain, String mode, Path csv, List<PlantedDefect> defects, long seed, double rate, int maxRounds, Path dir)
            throws Exception {
        return run(domain, mode, csv, defects, RealisticJudges.forCatalog(csv, "id", defects, domain.criterionByKind(),
                RealisticJudges.Settings.defaults(seed)), rate, maxRounds, dir);
    }

    /** One run of the domain's job on {@code csv} against its own server with these judges, run id {@link #RUN_ID}. */
    static Run run(BenchDomain domain, String mode, Path csv, List<PlantedDefect> defects, RealisticJudges judges, double rate,
            int maxRounds, Path dir) throws Exception {
        Files.createDirectories(dir);
        try (CatalogModelServer server = CatalogModelServer.start(judges)) {
            Path job = dir.resolve("job.yml");
            Files.writeString(job, jobText(domain, csv, server.baseUrl(), rate, maxRounds));
            String url = storeUrl(dir.resolve("db"));
            Path outRoot = dir.resolve("out");
            int exit = cli(url, dir.resolve("cli.log"), "run", job.toString(), "--out", outRoot.toString(), "--run-id", RUN_ID);
            Map<Kind, Long> calls = new LinkedHashMap<>();
            Map<String, Long> byModel = new java.util.TreeMap<>();
            server.callCounts().forEach((kind, models) -> {
                calls.put(kind, models.values().stream().mapToLong(Long::longValue).sum());
                models.forEach((model, n) -> byModel.merge(model, n, Long::sum));
            });
            return outcome(mode, exit, calls, byModel, judges.unmatchedRequests(), outFolder(outRoot, RUN_ID), domain, defects);
        }
    }

    /** A run's output folder under {@code --out outRoot} (one job's outputs there). */
    static Path outFolder(Path outRoot, String runId) throws IOException {
        try (var folders = Files.list(outRoot)) {
            return folders.findFirst().orElseThrow().resolve(runId);
        }
    }

    /** The domain's job template with its catalog, judge server, rate and rounds substituted. */
    static String jobText(BenchDomain domain, Path csv, String baseUrl, double rate, int maxRounds) throws IOException {
        return domain.templateText().replace("@CSV@", csv.toAbsolutePath().toString()).replace("@BASE_URL@", baseUrl)
                .replace("@RATE@", Double.toString(rate)).replace("@MAX_ROUNDS@", Integer.toString(maxRounds));
    }

    /** An H2 file store in {@code folder}. */
    static String storeUrl(Path folder) {
        return "jdbc:h2:file:" + folder.resolve("santa") + ";AUTO_SERVER=TRUE;WRITE_DELAY=0";
    }

    /** The real command line ({@link Cli#run}) in this JVM on the store at {@code url}, its output written to {@code log}; its exit. */
    static int cli(String url, Path log, String... args) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        int exit;
        try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
            exit = Cli.run(args, Map.of("spring.datasource.url", url, Launcher.ENV_PROPERTY_PREFIX + "BENCH_MODEL_KEY", "none"), out, out);
        }
        Files.write(log, bytes.toByteArray());
        return exit;
    }

    /** The texts a run's output folder ships ({@code catalog.csv}, else {@code verified.csv}), by item id. */
    static Map<String, String> shippedTexts(Path out, BenchDomain domain) throws IOException {
        Path shippedFile = Files.exists(out.resolve("catalog.csv")) ? out.resolve("catalog.csv") : out.resolve("verified.csv");
        Map<String, String> shipped = new LinkedHashMap<>();
        if (Files.exists(shippedFile)) {
            for (CSVRecord r : BenchDomain.records(shippedFile)) {
                shipped.put(r.get("id"), r.get(domain.contentColumn()));
            }
        }
        return shipped;
    }

    /** The items a run's output folder holds back ({@code escalations.csv}, {@code unverified.csv}). */
    static Set<String> heldIds(Path out) throws IOException {
        Set<String> held = new TreeSet<>();
        for (String f : List.of("escalations.csv", "unverified.csv")) {
            Path file = out.resolve(f);
            if (Files.exists(file)) {
                List<CSVRecord> rs = BenchDomain.records(file);
                String idColumn = BenchDomain.idColumn(rs);
                rs.forEach(r -> held.add(r.get(idColumn)));
            }
        }
        return held;
    }

    /** Whether {@code text} still carries one of the item's planted defects. */
    static boolean defective(String text, List<PlantedDefect> itemDefects) {
        return itemDefects.stream().anyMatch(d -> DefectText.carries(text, d));
    }

    @SuppressWarnings("unchecked")
    static Run outcome(String mode, int exit, Map<Kind, Long> calls, Map<String, Long> byModel, int unmatched, Path out, BenchDomain domain,
            List<PlantedDefect> defects)
            throws IOException {
        Map<String, List<PlantedDefect>> byItem = defects.stream().collect(Collectors.groupingBy(PlantedDefect::itemId));
        Map<String, String> texts = shippedTexts(out, domain);
        int shipped = texts.size();
        int defective = (int) texts.entrySet().stream().filter(e -> defective(e.getValue(), byItem.getOrDefault(e.getKey(), List.of())))
                .count();
        Set<String> held = heldIds(out);
        Map<String, Object> report = Files.exists(out.resolve("report.json")) ? RunReport.read(out.resolve("report.json")) : Map.of();
        Object items = report.get("input") instanceof Map<?, ?> in ? in.get("items") : null;
        int itemCount = items instanceof Number n ? n.intValue() : shipped + held.size();
        int cleanHeld = (int) held.stream().filter(id -> !byItem.containsKey(id)).count();
        int clean = itemCount - byItem.size();
        int rounds = report.get("run") instanceof Map<?, ?> run && run.get("rounds") instanceof Number n ? n.intValue() : 0;
        String status = String.valueOf(report.getOrDefault("status", "none"));
        List<String> patterns = new ArrayList<>();
        if (report.get("rounds") instanceof List<?> perRound) {
            for (Object o : perRound) {
                Map<String, Object> round = (Map<String, Object>) o;
                if (round.get("patterns") instanceof List<?> ps) {
                    for (Object p : ps) {
                        Map<String, Object> pattern = (Map<String, Object>) p;
                        patterns.add(String.format(Locale.ROOT, "round %s %s [%s] \"%s\": sampled %s, systematic %s, matched %s,"
                                        + " fixed %s, escalated %s -> %s", round.get("round"), pattern.get("id"), pattern.get("criterion"),
                                pattern.get("label"), pattern.get("sampled_items"), pattern.get("systematic"), pattern.get("matched"),
                                pattern.get("fixed"), pattern.get("escalated"), handledBy(pattern)));
                    }
                }
            }
        }
        List<String> rules = rulePrecision(report, out.resolve("changes.csv"), byItem, domain);
        return new Run(mode, exit, status, rounds, calls, byModel, unmatched, shipped, defective, cleanHeld, clean, patterns, rules);
    }

    /**
     * How the run handled a pattern, from its report entry. Today's report gives the batch fix's
     * counts only, so: {@code matcher} when the batch fix fixed items, else {@code none}. Hook for
     * the fields other helpers add: an entry naming a learned rule ({@code learned_rule} or
     * {@code rule}) is {@code learned rule}, one whose candidates came by meaning ({@code handled_by}
     * or {@code candidates_by} saying so) is {@code meaning}.
     */
    static String handledBy(Map<String, Object> pattern) {
        Object handled = pattern.get("handled_by");
        if (handled != null) {
            return handled.toString();
        }
        if (pattern.get("learned_rule") != null || pattern.get("rule") != null) {
            return "learned rule";
        }
        if (String.valueOf(pattern.get("candidates_by")).contains("meaning")) {
            return "meaning";
        }
        return pattern.get("fixed") instanceof Number n && n.intValue() > 0 ? "matcher" : "none";
    }

    /**
     * Each learned rule's precision against the ground truth: of the items its revisions changed
     * ({@code changes.csv} rows whose {@code rule} column names it), the share whose text before
     * carried a planted defect of the rule's criterion. Hook: reads the report's
     * {@code learned_rules} list (entries with {@code id} and {@code criterion}); prints nothing
     * while the report has none.
     */
    @SuppressWarnings("unchecked")
    static List<String> rulePrecision(Map<String, Object> report, Path changes, Map<String, List<PlantedDefect>> byItem, BenchDomain domain)
            throws IOException {
        Object listed = report.get("learned_rules");
        if (!(listed instanceof List<?> learned) || learned.isEmpty()) {
            return List.of();
        }
        List<CSVRecord> rows = Files.exists(changes) ? BenchDomain.records(changes) : List.of();
        boolean named = !rows.isEmpty() && rows.get(0).isMapped("rule");
        List<String> out = new ArrayList<>();
        for (Object o : learned) {
            Map<String, Object> rule = (Map<String, Object>) o;
            String id = String.valueOf(rule.getOrDefault("id", rule.get("rule")));
            String criterion = String.valueOf(rule.get("criterion"));
            Set<String> changed = new TreeSet<>();
            Set<String> right = new TreeSet<>();
            for (CSVRecord r : named ? rows : List.<CSVRecord>of()) {
                if (id.equals(r.get("rule"))) {
                    changed.add(r.get("item_id"));
                    String before = r.get("before");
                    if (byItem.getOrDefault(r.get("item_id"), List.of()).stream()
                            .anyMatch(d -> criterion.equals(domain.criterionByKind().get(d.kind())) && DefectText.carries(before, d))) {
                        right.add(r.get("item_id"));
                    }
                }
            }
            out.add(String.format(Locale.ROOT, "rule %s [%s]: %s", id, criterion, changed.isEmpty()
                    ? (named ? "changed no item" : "changes.csv names no rule")
                    : String.format(Locale.ROOT, "precision %.3f (%d of %d items it changed)", right.size() / (double) changed.size(),
                            right.size(), changed.size())));
        }
        return out;
    }

    // ------------------------------------------------------------------ printing

    static void print(BenchDomain domain, Pair p) {
        System.out.printf("%n%s seed %d (%d rows):%n", domain.name(), p.seed(), p.rows());
        for (Run r : List.of(p.sampled(), p.full())) {
            System.out.printf(Locale.ROOT, "  %-7s status %s, exit %d, rounds %d, calls %d (review %d, fix %d, match %d);"
                            + " shipped %d, still defective %d (%.2f %%); false holds %d of %d clean (%.2f %%)%n",
                    r.mode(), r.status(), r.exit(), r.rounds(), r.total(), r.calls(Kind.REVIEW), r.calls(Kind.FIX), r.calls(Kind.MATCH),
                    r.shipped(), r.shippedDefective(), 100 * r.shippedDefectiveShare(), r.cleanHeld(), r.clean(),
                    100 * r.falseHoldShare());
            System.out.printf("          calls by model %s%s%n", r.callsByModel(),
                    r.unmatched() == 0 ? "" : "; WARNING: " + r.unmatched() + " requests matched no catalog row");
        }
        System.out.printf(Locale.ROOT, "  sampled/full calls %.3f; floor %.0f calls (%.3f of full); matcher share %.3f%n", p.ratio(), p.floor(),
                p.floor() / p.full().total(), p.matcherShare());
        p.sampled().patterns().forEach(s -> System.out.println("    sampled pattern " + s));
        p.sampled().rules().forEach(s -> System.out.println("    sampled " + s));
    }

    static void summary(BenchDomain domain, List<Pair> pairs) {
        System.out.printf("%n%s over %d seeds: median [range]%n", domain.name(), pairs.size());
        stat("sampled exit", pairs, p -> (double) p.sampled().exit());
        stat("sampled rounds", pairs, p -> (double) p.sampled().rounds());
        stat("sampled calls", pairs, p -> (double) p.sampled().total());
        stat("sampled match calls", pairs, p -> (double) p.sampled().calls(Kind.MATCH));
        stat("full calls", pairs, p -> (double) p.full().total());
        stat("sampled/full calls", pairs, Pair::ratio);
        stat("floor/full", pairs, p -> p.floor() / p.full().total());
        stat("matcher share of sampled", pairs, Pair::matcherShare);
        stat("sampled shipped defective %", pairs, p -> 100 * p.sampled().shippedDefectiveShare());
        stat("full shipped defective %", pairs, p -> 100 * p.full().shippedDefectiveShare());
        stat("sampled false holds %", pairs, p -> 100 * p.sampled().falseHoldShare());
        stat("full false holds %", pairs, p -> 100 * p.full().falseHoldShare());
        System.out.println("  sampled status: " + pairs.stream().map(p -> p.sampled().status()).toList());
    }

    static void stat(String what, List<Pair> pairs, Function<Pair, Double> f) {
        double[] v = pairs.stream().map(f).mapToDouble(Double::doubleValue).sorted().toArray();
        double median = v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
        System.out.printf(Locale.ROOT, "  %-30s %10.3f [%.3f .. %.3f]%n", what, median, v[0], v[v.length - 1]);
    }
}
