package dev.santabatch.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.santabatch.bench.PatternCBenchmark.Run;
import dev.santabatch.model.CatalogModelServer;
import dev.santabatch.model.CatalogModelServer.Kind;
import dev.santabatch.model.RealisticJudges;
import dev.santabatch.export.RunReport;
import dev.santabatch.eval.ListingCatalogGenerator;
import dev.santabatch.eval.PlantedDefect;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVPrinter;
import org.apache.commons.csv.CSVRecord;

/**
 * Two nights of one job on one store (issue 19's acceptance benchmark), on the listing generator's
 * {@code HELD_OUT} pool with {@link PatternCBenchmark}'s realistic judges, and a full verification
 * of the second night's catalog. Not a test.
 *
 * <ul>
 *   <li><b>Night 1</b>: the job template {@code bench/listings-llm.yml} at
 *       {@link PatternCBenchmark#SAMPLED_RATE} and {@link PatternCBenchmark#SAMPLED_ROUNDS}, run id
 *       {@code night1}, on a generated catalog.
 *   <li><b>Night 2</b>: the same job file (same name, panel and judge server, so the same
 *       verification fingerprint), the same store, run id {@code night2}, on the same catalog with
 *       {@link #CHANGED_SHARE} of its items regenerated: each such row replaced by the same row of a
 *       catalog generated with another seed (new facts and text under the same id, carrying that
 *       catalog's planted defects, yesterday's kinds), and {@link #NEW_KIND_SHARE} of the changed
 *       items that have no planted defect given a defect of a kind night 1 never had
 *       ({@value #NEW_KIND}: a model's preamble sentence left at the start of the listing, which
 *       fails {@code on-specification}; its evidence is the sentence, its fix removes it). The
 *       server's judges are replaced by the night-2 catalog's (seed + 1: a fresh review draws
 *       again), at the same base URL.
 *   <li><b>Full verification</b> of night 2's catalog: rate 1.0, one round, its own store and judge
 *       server ({@link PatternCBenchmark#run}).
 * </ul>
 *
 * Prints the calls each night the server received (by kind), night 2's as a share of night 1's, the
 * changed items each run shipped still carrying a planted defect, night 2's failure patterns with
 * the planted kinds of their items and whether the job had seen them before
 * ({@code pattern_memory}), night 2's {@code carry_over} and {@code strata} blocks, and
 * {@code santa-batch history} of the job.
 *
 * <p>Arguments: {@code [rows] [seed]}, default {@code 10000 1}. Run from the project folder after
 * {@code test-compile}.
 */
public final class NightlyBenchmark {

    static final double CHANGED_SHARE = 0.05;
    static final double NEW_KIND_SHARE = 0.20;
    static final String NEW_KIND = "model-preamble";
    static final String NEW_KIND_CRITERION = "on-specification";
    /** What a model wrote before the listing it was asked for. */
    static final List<String> PREAMBLES = List.of("Certainly, here is a listing written from the facts you gave me.",
            "Here is the listing you asked for, written from the source facts.",
            "As requested, here is a short listing for this activity.");
    /** The kind {@link RealisticJudges#noticingAlteredText} gives one sentence copied from another item. */
    static final String DRIFT_SENTENCE = "drift-sentence";
    static final String NIGHT1 = "night1";
    static final String NIGHT2 = "night2";
    private static final CSVFormat WRITE = CSVFormat.DEFAULT.builder().setRecordSeparator("\n").get();
    private static final ObjectMapper JSON = new ObjectMapper();

    /** Night 2's catalog: its planted defects, the changed ids, and those given the new kind. */
    record Night2(List<PlantedDefect> defects, Set<String> changed, Set<String> newKind) {}

    public static void main(String[] args) throws Exception {
        int rows = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
        long seed = args.length > 1 ? Long.parseLong(args[1]) : 1;
        BenchDomain base = BenchDomain.listings();
        Map<String, String> criteria = new HashMap<>(base.criterionByKind());
        criteria.put(NEW_KIND, NEW_KIND_CRITERION);
        // the kind the judges give a sentence copied in from another item (a foreign-sentence canary)
        criteria.put(DRIFT_SENTENCE, NEW_KIND_CRITERION);
        BenchDomain domain = new BenchDomain(base.name(), base.pool(), base.template(), base.contentColumn(), base.generator(),
                base.defects(), Map.copyOf(criteria));
        Path dir = Files.createTempDirectory("santa-nightly");
        System.out.printf(Locale.ROOT, "Nightly benchmark: %s (%s), %d rows, seed %d, %d cores, folder %s%n", domain.name(),
                domain.pool(), rows, seed, Runtime.getRuntime().availableProcessors(), dir);

        Path csv1 = dir.resolve("night1.csv");
        List<PlantedDefect> defects1 = domain.write(seed, rows, csv1, dir.resolve("night1.truth.csv"));
        Path alt = dir.resolve("regenerated.csv");
        List<PlantedDefect> altDefects = domain.write(seed * 1_000_003L + 17, rows, alt, dir.resolve("regenerated.truth.csv"));
        Path csv2 = dir.resolve("night2.csv");
        Night2 night2 = night2(seed, csv1, defects1, alt, altDefects, csv2, domain);
        Set<String> oldKinds = kinds(defects1);
        System.out.printf(Locale.ROOT, "night 1 catalog: %d items, %d planted defects, kinds %s%n", rows, defects1.size(), oldKinds);
        System.out.printf(Locale.ROOT, "night 2 catalog: %d changed (%.1f %%), %d of them with yesterday's kinds, %d with the new kind %s%n",
                night2.changed().size(), 100.0 * night2.changed().size() / rows,
                night2.changed().stream().filter(id -> byItem(night2.defects()).getOrDefault(id, List.of()).stream()
                        .anyMatch(d -> !d.kind().equals(NEW_KIND))).count(), night2.newKind().size(), NEW_KIND);

        Path nights = dir.resolve("nights");
        Files.createDirectories(nights);
        String url = PatternCBenchmark.storeUrl(nights.resolve("db"));
        Path job = nights.resolve("job.yml");
        Path outRoot = nights.resolve("out");
        Run n1;
        Run n2;
        RealisticJudges judges1 = judges(domain, csv1, defects1, seed);
        try (CatalogModelServer server = CatalogModelServer.start(judges1)) {
            n1 = night(domain, server, judges1, job, csv1, url, outRoot, NIGHT1, defects1, nights);
            RealisticJudges judges2 = judges(domain, csv2, night2.defects(), seed + 1);
            server.judges(judges2);
            n2 = night(domain, server, judges2, job, csv2, url, outRoot, NIGHT2, night2.defects(), nights);
        }
        long t0 = System.nanoTime();
        Run full = PatternCBenchmark.run(domain, "full", csv2, night2.defects(), judges(domain, csv2, night2.defects(), seed), 1.0, 1,
                dir.resolve("full"));
        System.out.printf(Locale.ROOT, "full verification: %.0f s%n", (System.nanoTime() - t0) / 1e9);
        Path fullOut = PatternCBenchmark.outFolder(dir.resolve("full").resolve("out"), PatternCBenchmark.RUN_ID);

        System.out.println();
        for (Run r : List.of(n1, n2, full)) {
            System.out.printf(Locale.ROOT, "%-7s status %s, exit %d, rounds %d, calls %d (review %d, fix %d, match %d);"
                            + " shipped %d, still defective %d (%.2f %%)%s%n", r.mode(), r.status(), r.exit(), r.rounds(), r.total(),
                    r.calls(Kind.REVIEW), r.calls(Kind.FIX), r.calls(Kind.MATCH), r.shipped(), r.shippedDefective(),
                    100 * r.shippedDefectiveShare(), r.unmatched() == 0 ? "" : "; WARNING: " + r.unmatched() + " requests matched no row");
        }
        System.out.printf(Locale.ROOT, "night2/night1 calls %.3f (required <= 0.15); night2/full %.3f; night1/full %.3f%n",
                n2.total() / (double) n1.total(), n2.total() / (double) full.total(), n1.total() / (double) full.total());

        Map<String, List<PlantedDefect>> byItem2 = byItem(night2.defects());
        Path out2 = PatternCBenchmark.outFolder(outRoot, NIGHT2);
        System.out.println();
        System.out.println("changed items (" + night2.changed().size() + "):");
        double n2Share = changedLine("night2", out2, domain, night2.changed(), byItem2);
        double fullShare = changedLine("full", fullOut, domain, night2.changed(), byItem2);
        System.out.printf(Locale.ROOT, "  night2 shipped defective share of changed %.2f %% (required <= 0.5 %% and <= full's %.2f %%): %s%n",
                100 * n2Share, 100 * fullShare, n2Share <= 0.005 && n2Share <= fullShare ? "holds" : "does not hold");
        for (String kindSet : List.of("new", "old")) {
            Set<String> ids = night2.changed().stream().filter(id -> byItem2.getOrDefault(id, List.of()).stream()
                    .anyMatch(d -> kindSet.equals("new") == d.kind().equals(NEW_KIND))).collect(Collectors.toCollection(LinkedHashSet::new));
            changedLine("night2, " + (kindSet.equals("new") ? "new kind" : "yesterday's kinds"), out2, domain, ids, byItem2);
        }

        System.out.println();
        patterns(url, out2, NIGHT2, byItem2);
        Map<String, Object> report2 = RunReport.read(out2.resolve("report.json"));
        System.out.println();
        System.out.println("night2 carry_over: " + compact(report2.get("carry_over")));
        System.out.println("night2 strata: " + compact(report2.get("strata")));
        Map<String, Object> report1 = RunReport.read(PatternCBenchmark.outFolder(outRoot, NIGHT1).resolve("report.json"));
        for (Map<String, Object> r : List.of(report1, report2)) {
            Map<?, ?> run = r.get("run") instanceof Map<?, ?> m ? m : Map.of();
            Map<Object, Object> picked = new LinkedHashMap<>();
            picked.put("status", r.get("status"));
            for (String key : List.of("rounds", "first_pass_rate", "sampled", "escalations_by_cause", "bound")) {
                picked.put(key, run.get(key));
            }
            System.out.println((r == report1 ? NIGHT1 : NIGHT2) + " run: " + compact(picked));
        }

        System.out.println();
        Path historyLog = nights.resolve("history.log");
        int exit = PatternCBenchmark.cli(url, historyLog, "history", job.toString());
        System.out.println("santa-batch history " + job + " (exit " + exit + "):");
        System.out.print(Files.readString(historyLog));
    }

    /**
     * Realistic judges at their defaults that also notice the defects of a text unlike the item's own
     * ({@link RealisticJudges#noticingAlteredText}), as real models would: the canaries the job
     * plants are such texts, and judges blind to them would make every run stop with
     * {@code panel-does-not-fit}. Their {@code drift-sentence} (a foreign-sentence canary) fails
     * {@code on-specification} (see {@link #main}): the listing domain has no such kind of its own.
     */
    static RealisticJudges judges(BenchDomain domain, Path csv, List<PlantedDefect> defects, long seed) throws IOException {
        return RealisticJudges.forCatalog(csv, "id", defects, domain.criterionByKind(), RealisticJudges.Settings.defaults(seed))
                .noticingAlteredText(domain.contentColumn());
    }

    /** One night: the job file rewritten to read {@code csv}, the real command line, the server's calls during it. */
    static Run night(BenchDomain domain, CatalogModelServer server, RealisticJudges judges, Path job, Path csv, String url, Path outRoot,
            String runId, List<PlantedDefect> defects, Path dir) throws Exception {
        Files.writeString(job, PatternCBenchmark.jobText(domain, csv, server.baseUrl(), PatternCBenchmark.SAMPLED_RATE,
                PatternCBenchmark.SAMPLED_ROUNDS));
        Map<Kind, Map<String, Long>> before = server.callCounts();
        long t0 = System.nanoTime();
        int exit = PatternCBenchmark.cli(url, dir.resolve(runId + ".log"), "run", job.toString(), "--out", outRoot.toString(),
                "--run-id", runId);
        System.out.printf(Locale.ROOT, "%s: exit %d, %.0f s%n", runId, exit, (System.nanoTime() - t0) / 1e9);
        Map<Kind, Long> calls = new LinkedHashMap<>();
        Map<String, Long> byModel = new TreeMap<>();
        server.callCounts().forEach((kind, models) -> models.forEach((model, n) -> {
            long d = n - before.getOrDefault(kind, Map.of()).getOrDefault(model, 0L);
            calls.merge(kind, d, Long::sum);
            byModel.merge(model, d, Long::sum);
        }));
        return PatternCBenchmark.outcome(runId, exit, calls, byModel, judges.unmatchedRequests(), PatternCBenchmark.outFolder(outRoot, runId),
                domain, defects);
    }

    /**
     * Writes night 2's catalog: night 1's, with {@link #CHANGED_SHARE} of its rows (drawn from the
     * seed) replaced by the regenerated catalog's same rows, and {@link #NEW_KIND_SHARE} of the
     * changed items without a planted defect given a preamble.
     */
    static Night2 night2(long seed, Path csv1, List<PlantedDefect> defects1, Path alt, List<PlantedDefect> altDefects, Path csv2,
            BenchDomain domain) throws IOException {
        List<CSVRecord> first = BenchDomain.records(csv1);
        List<CSVRecord> regenerated = BenchDomain.records(alt);
        List<String> ids = new ArrayList<>(first.stream().map(r -> r.get("id")).toList());
        Random random = new Random(seed);
        Collections.shuffle(ids, random);
        Set<String> changed = new LinkedHashSet<>(ids.subList(0, (int) Math.round(ids.size() * CHANGED_SHARE)));
        Map<String, List<PlantedDefect>> altByItem = byItem(altDefects);
        List<String> cleanChanged = new ArrayList<>(changed.stream().filter(id -> !altByItem.containsKey(id)).toList());
        Collections.shuffle(cleanChanged, random);
        Set<String> newKind = new LinkedHashSet<>(cleanChanged.subList(0,
                Math.min(cleanChanged.size(), (int) Math.round(changed.size() * NEW_KIND_SHARE))));
        List<PlantedDefect> defects = new ArrayList<>(defects1.stream().filter(d -> !changed.contains(d.itemId())).toList());
        defects.addAll(altDefects.stream().filter(d -> changed.contains(d.itemId())).toList());
        List<String> header = first.get(0).getParser().getHeaderNames();
        int content = header.indexOf(domain.contentColumn());
        try (BufferedWriter w = Files.newBufferedWriter(csv2, StandardCharsets.UTF_8); CSVPrinter p = new CSVPrinter(w, WRITE)) {
            p.printRecord(header);
            for (int i = 0; i < first.size(); i++) {
                String id = first.get(i).get("id");
                CSVRecord source = changed.contains(id) ? regenerated.get(i) : first.get(i);
                if (!source.get("id").equals(id)) {
                    throw new IllegalStateException("row " + i + ": regenerated id " + source.get("id") + " is not " + id);
                }
                List<String> values = new ArrayList<>(source.toList());
                if (newKind.contains(id)) {
                    String preamble = PREAMBLES.get(random.nextInt(PREAMBLES.size()));
                    values.set(content, preamble + " " + values.get(content));
                    defects.add(new PlantedDefect(id, NEW_KIND, preamble, "", ""));
                }
                p.printRecord(values);
            }
        }
        return new Night2(List.copyOf(defects), changed, newKind);
    }

    /** The changed items {@code ids} in a run's outputs: shipped, still defective, held; returns the defective share of {@code ids}. */
    static double changedLine(String what, Path out, BenchDomain domain, Set<String> ids, Map<String, List<PlantedDefect>> byItem)
            throws IOException {
        Map<String, String> shipped = PatternCBenchmark.shippedTexts(out, domain);
        Set<String> held = PatternCBenchmark.heldIds(out);
        int ship = 0;
        int defective = 0;
        int hold = 0;
        Map<String, Integer> byKind = new TreeMap<>();
        for (String id : ids) {
            String text = shipped.get(id);
            if (text != null) {
                ship++;
                List<PlantedDefect> still = byItem.getOrDefault(id, List.of()).stream()
                        .filter(d -> PatternCBenchmark.defective(text, List.of(d))).toList();
                if (!still.isEmpty()) {
                    defective++;
                    still.forEach(d -> byKind.merge(d.kind(), 1, Integer::sum));
                }
            } else if (held.contains(id)) {
                hold++;
            }
        }
        double share = ids.isEmpty() ? 0 : defective / (double) ids.size();
        System.out.printf(Locale.ROOT, "  %-26s %5d items: shipped %d, still defective %d (%.2f %% of the items, %.2f %% of shipped) %s;"
                        + " held %d%n", what, ids.size(), ship, defective, 100 * share, ship == 0 ? 0 : 100.0 * defective / ship, byKind,
                hold);
        return share;
    }

    /** Night 2's failure patterns from the store, with the planted kinds of their items and what pattern memory says of them. */
    @SuppressWarnings("unchecked")
    static void patterns(String url, Path out, String runId, Map<String, List<PlantedDefect>> byItem) throws Exception {
        Map<String, Object> report = RunReport.read(out.resolve("report.json"));
        Map<String, Object> memory = report.get("pattern_memory") instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
        Map<String, String> status = new HashMap<>();
        for (Object o : memory.get("seen_again_patterns") instanceof List<?> l ? l : List.of()) {
            Map<String, Object> s = (Map<String, Object>) o;
            ((List<Object>) s.get("patterns")).forEach(p -> status.put(String.valueOf(p), "seen again (first in " + s.get("first_seen_in")
                    + " as \"" + s.get("label") + "\")"));
        }
        for (Object o : memory.get("new_patterns") instanceof List<?> l ? l : List.of()) {
            ((List<Object>) ((Map<String, Object>) o).get("patterns")).forEach(p -> status.put(String.valueOf(p), "new"));
        }
        System.out.printf("%s pattern_memory: seen again %s, new %s, not seen %s (since %s)%n", runId, memory.get("seen_again"),
                memory.get("new"), memory.get("not_seen"), memory.get("not_seen_since_run"));
        for (Object o : memory.get("not_seen_patterns") instanceof List<?> l ? l : List.of()) {
            Map<String, Object> g = (Map<String, Object>) o;
            System.out.printf("  not seen: [%s] \"%s\"%n", g.get("criterion"), g.get("label"));
        }
        Map<String, int[]> caught = new TreeMap<>();
        try (Connection c = DriverManager.getConnection(url, "sa", "");
                ResultSet rs = c.createStatement().executeQuery("SELECT p.round_no, p.pattern_no, p.criterion, p.label, p.items,"
                        + " p.systematic, p.matched, p.fixed, p.escalated FROM sb_pattern p JOIN sb_run r ON r.run_pk = p.run_pk"
                        + " WHERE r.run_id = '" + runId + "' ORDER BY p.round_no, p.pattern_no")) {
            while (rs.next()) {
                String id = "r" + rs.getInt(1) + "-p" + rs.getInt(2);
                Map<String, Integer> kinds = new TreeMap<>();
                int n = 0;
                for (String item : rs.getString(5).split("[,\\s\\[\\]\"]+")) {
                    if (item.isBlank()) {
                        continue;
                    }
                    n++;
                    List<PlantedDefect> planted = byItem.getOrDefault(item, List.of());
                    if (planted.isEmpty()) {
                        kinds.merge("none", 1, Integer::sum);
                    }
                    planted.forEach(d -> kinds.merge(d.kind(), 1, Integer::sum));
                }
                String memo = status.getOrDefault(id, "?");
                kinds.keySet().forEach(k -> caught.computeIfAbsent(k, x -> new int[2])[memo.equals("new") ? 0 : 1]++);
                String label = rs.getString(4);
                System.out.printf(Locale.ROOT, "  %s [%s] \"%s\": %d items, kinds %s, systematic %s, matched %d, fixed %d, escalated %d -> %s%n",
                        id, rs.getString(3), label.length() > 90 ? label.substring(0, 90) + "..." : label, n, kinds, rs.getBoolean(6),
                        rs.getLong(7), rs.getLong(8), rs.getLong(9), memo);
            }
        }
        caught.forEach((kind, counts) -> System.out.printf("  kind %-26s in %d new and %d seen-again patterns%n", kind, counts[0],
                counts[1]));
    }

    /** A report block as one line of JSON, its long prose ({@code note}, {@code method}, {@code rule}) left out. */
    static String compact(Object block) throws IOException {
        return JSON.writeValueAsString(strip(block));
    }

    private static Object strip(Object o) {
        if (o instanceof Map<?, ?> m) {
            Map<Object, Object> out = new LinkedHashMap<>();
            m.forEach((k, v) -> {
                if (!List.of("note", "method", "rule").contains(String.valueOf(k))) {
                    out.put(k, strip(v));
                }
            });
            return out;
        }
        if (o instanceof List<?> l) {
            return l.stream().map(NightlyBenchmark::strip).toList();
        }
        return o;
    }

    static Map<String, List<PlantedDefect>> byItem(List<PlantedDefect> defects) {
        return defects.stream().collect(Collectors.groupingBy(PlantedDefect::itemId));
    }

    static Set<String> kinds(List<PlantedDefect> defects) {
        return defects.stream().map(PlantedDefect::kind).collect(Collectors.toCollection(java.util.TreeSet::new));
    }

    private NightlyBenchmark() {}

    static {
        // the new kind must be one the generator never plants
        if (ListingCatalogGenerator.KINDS.contains(NEW_KIND)) {
            throw new IllegalStateException(NEW_KIND + " is a kind the generator plants");
        }
    }
}
