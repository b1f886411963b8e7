package dev.santabatch.bench;

import dev.santabatch.eval.SampleCatalogGenerator;
import dev.santabatch.review.semantic.Embedder;
import dev.santabatch.review.semantic.SemanticIndex;
import dev.santabatch.review.semantic.Vectors;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVRecord;

/**
 * Derives the similarity floor of the model matcher's meaning narrowing
 * ({@code matcher.min-similarity}) on the product generator's tuning pools only ({@code SAMPLE} and
 * {@code HELD_OUT}; never {@code FRESH}). Each pattern is a planted defect that no rule captures:
 * a drift topic ({@code topic:<label>}: drifted sentences and whole texts), a sentence or text about another
 * product, or a boilerplate passage
 * (exact, lightly edited or paraphrased). The pattern's "sampled" members are its first three items,
 * their failing sentences the planted sentences; every other item is scored by the best cosine of any
 * of its sentences to any failing sentence (what the narrowing ranks by). Printed per floor: the
 * share of the other members found (recall) and the share of the items outside the pattern that
 * would be candidates (false candidates), pooled over patterns.
 *
 * <p>Run: {@code java -Xmx1g -cp "$CP" dev.santabatch.bench.MeaningFloorSweep [rows]}.
 */
public final class MeaningFloorSweep {

    private static final int SAMPLED = 3;

    private MeaningFloorSweep() {}

    public static void main(String[] args) throws Exception {
        int rows = args.length > 0 ? Integer.parseInt(args[0]) : 600;
        Embedder embedder = Embedder.shared();
        for (SampleCatalogGenerator.Vocabulary pool : List.of(SampleCatalogGenerator.Vocabulary.SAMPLE,
                SampleCatalogGenerator.Vocabulary.HELD_OUT)) {
            Path dir = Files.createTempDirectory("floor-sweep");
            Path csv = dir.resolve("c.csv");
            Path truth = dir.resolve("t.csv");
            SampleCatalogGenerator.write(SampleCatalogGenerator.DEFAULT_SEED, rows, pool, csv, truth);
            Map<String, String> texts = new LinkedHashMap<>();
            for (CSVRecord r : records(csv)) {
                texts.put(r.get("id"), r.get("description"));
            }
            // pattern key -> item -> its planted sentences
            Map<String, Map<String, List<String>>> patterns = new TreeMap<>();
            for (CSVRecord r : records(truth)) {
                String kind = r.get("kind");
                String key = switch (kind) {
                    // a whole text that drifted to a topic carries the topic's sentences too
                    case SampleCatalogGenerator.DRIFT_SENTENCE, SampleCatalogGenerator.DRIFT_TEXT ->
                            r.get("truth").startsWith("product:") ? "drift:other-product" : "drift:" + r.get("truth");
                    case SampleCatalogGenerator.BOILERPLATE -> "boilerplate:" + r.get("detail");
                    default -> null;
                };
                if (key != null) {
                    patterns.computeIfAbsent(key, k -> new LinkedHashMap<>()).put(r.get("id"),
                            SemanticIndex.sentencesOf(r.get("wrong")));
                }
            }
            List<String> ids = new ArrayList<>(texts.keySet());
            List<float[][]> vectors = new ArrayList<>();
            for (String id : ids) {
                vectors.add(embedder.embedAll(SemanticIndex.sentencesOf(texts.get(id))).toArray(float[][]::new));
            }
            double[] floors = {0.30, 0.35, 0.40, 0.45, 0.50, 0.55, 0.60, 0.65, 0.70, 0.75, 0.80};
            // per kind of pattern (boilerplate, drift): found members and false candidates per floor
            Map<String, long[][]> tally = new TreeMap<>();
            System.out.printf("pool %s, %d items%n", pool, ids.size());
            for (Map.Entry<String, Map<String, List<String>>> p : patterns.entrySet()) {
                List<String> members = new ArrayList<>(p.getValue().keySet());
                if (members.size() <= SAMPLED) {
                    continue;
                }
                List<float[]> queries = new ArrayList<>();
                for (String id : members.subList(0, SAMPLED)) {
                    queries.addAll(embedder.embedAll(p.getValue().get(id)));
                }
                Set<String> sampled = Set.copyOf(members.subList(0, SAMPLED));
                Set<String> inPattern = Set.copyOf(members);
                long[][] t = tally.computeIfAbsent(p.getKey().substring(0, p.getKey().indexOf(':')),
                        k -> new long[3][floors.length]);
                double minPositive = 1;
                double maxNegative = -1;
                for (int i = 0; i < ids.size(); i++) {
                    if (sampled.contains(ids.get(i))) {
                        continue;
                    }
                    double best = -1;
                    for (float[] s : vectors.get(i)) {
                        for (float[] q : queries) {
                            best = Math.max(best, Vectors.dot(s, q));
                        }
                    }
                    boolean positive = inPattern.contains(ids.get(i));
                    if (positive) {
                        minPositive = Math.min(minPositive, best);
                    } else {
                        maxNegative = Math.max(maxNegative, best);
                    }
                    t[2][positive ? 0 : 1]++; // members, non-members scored
                    for (int f = 0; f < floors.length; f++) {
                        if (best >= floors[f]) {
                            t[positive ? 0 : 1][f]++;
                        }
                    }
                }
                System.out.printf("  %-28s members %3d: lowest member %.3f, highest non-member %.3f%n", p.getKey(),
                        members.size(), minPositive, maxNegative);
            }
            for (Map.Entry<String, long[][]> k : tally.entrySet()) {
                long[][] t = k.getValue();
                System.out.printf("  %s patterns: %-6s %-10s %-18s%n", k.getKey(), "floor", "recall", "false candidates");
                for (int f = 0; f < floors.length; f++) {
                    System.out.printf("      %.2f   %5.1f %%    %6.2f %% (%d)%n", floors[f], 100.0 * t[0][f] / t[2][0],
                            100.0 * t[1][f] / t[2][1], t[1][f]);
                }
            }
        }
    }

    private static List<CSVRecord> records(Path file) throws Exception {
        try (Reader in = Files.newBufferedReader(file)) {
            return CSVFormat.DEFAULT.builder().setHeader().setSkipHeaderRecord(true).get().parse(in).getRecords();
        }
    }
}
