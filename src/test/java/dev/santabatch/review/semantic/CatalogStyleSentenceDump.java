package dev.santabatch.review.semantic;

import static org.assertj.core.api.Assertions.assertThat;

import dev.santabatch.config.JobDefinition;
import dev.santabatch.config.JobFileLoader;
import dev.santabatch.config.ReviewerSpec;
import dev.santabatch.config.SemanticSettings;
import dev.santabatch.prepass.rules.RuleEngine;
import dev.santabatch.prepass.rules.RuleOutcome;
import dev.santabatch.eval.SampleCatalogGenerator;
import dev.santabatch.review.offline.MemorySnapshot;
import dev.santabatch.review.offline.SnapshotItem;
import java.io.StringReader;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.apache.commons.csv.CSVRecord;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.Test;

/**
 * Dev harness (not part of the test run: {@code -Dtest=CatalogStyleSentenceDump}): for a generator
 * catalog of a tuning pool ({@code -Dpool=SAMPLE:20261130}, the bundled sample, or
 * {@code HELD_OUT:2027}), after the job's rules pre-pass as in {@code PanelFloorTests}, writes every
 * sentence of every item with the semantic reviewer's per-sentence measures to
 * {@code target/sm-style/<pool>-<seed>.tsv}: the item's planted defects, whether the sentence is a
 * planted drift sentence (or part of a drifted text) or a claim the pre-pass rewrote, the item's
 * style (mean density), and the sentence's typicality, density, cosine to its own source and to the
 * task, and topic-anchor margin; and prints a sweep of {@code catalog-anchor-score} (how its default was
 * derived, docs/offline-reviewers.md). It refuses the {@code FRESH} pool (the floor tests' held-out pool).
 */
class CatalogStyleSentenceDump {

    static double top(SemanticIndex.Reference ref, float[] v, String own, int k) {
        double[] c = new double[ref.vectors().length];
        int n = 0;
        for (int i = 0; i < c.length; i++) {
            if (!ref.itemIds()[i].equals(own)) {
                c[n++] = Vectors.dot(v, ref.vectors()[i]);
            }
        }
        double[] d = java.util.Arrays.copyOf(c, n);
        java.util.Arrays.sort(d);
        double sum = 0;
        for (int i = n - k; i < n; i++) {
            sum += d[i];
        }
        return sum / k;
    }

    /**
     * The reviewer's on-specification rule, item by item, at several {@code catalog-anchor-score}
     * values: unnamed-drift items caught (a sentence judged off-topic) and items without a planted
     * drift or boilerplate defect flagged (after the pre-pass: a false hold). Every other threshold
     * as in the job; the other-item check and {@code original} are left out (they do not depend on it).
     */
    static void sweep(Map<String, double[][]> perItem, Map<String, List<String>> kinds, SemanticSettings s) {
        System.out.println("catalog-anchor-score sweep (on-specification, items): unnamed drift caught / clean after the pre-pass flagged");
        for (double a : new double[] {0.30, 0.35, 0.38, 0.40, 0.42, 0.44, 0.45, 0.46, 0.47, 0.48, 0.50, 0.55, 10}) {
            int drift = 0;
            int caught = 0;
            int clean = 0;
            int flagged = 0;
            for (Map.Entry<String, double[][]> e : perItem.entrySet()) {
                List<String> k = kinds.getOrDefault(e.getKey(), List.of("clean"));
                boolean unnamed = k.contains(SampleCatalogGenerator.DRIFT_SENTENCE + ":unnamed") || k.contains(SampleCatalogGenerator.DRIFT_TEXT + ":unnamed");
                boolean isClean = k.stream().noneMatch(x -> x.startsWith("drift") || x.startsWith(SampleCatalogGenerator.BOILERPLATE));
                if (!unnamed && !isClean) {
                    continue;
                }
                boolean off = offTopic(e.getValue(), s, a);
                if (unnamed) {
                    drift++;
                    caught += off ? 1 : 0;
                } else {
                    clean++;
                    flagged += off ? 1 : 0;
                }
            }
            System.out.printf(Locale.ROOT, "  %-6s %3d of %3d caught, %3d of %4d clean flagged%n", a == 10 ? "off" : String.format(Locale.ROOT, "%.2f", a),
                    caught, drift, flagged, clean);
        }
    }

    /** Whether any sentence of the item is off-topic (SemanticReviewer's rule), at this catalog-anchor-score. */
    static boolean offTopic(double[][] m, SemanticSettings s, double catalogAnchorScore) {
        boolean catalogStyle = m[0][0] >= s.styleDensity();
        boolean any = false;
        boolean allLow = true;
        double bestSource = -1;
        for (int i = 1; i < m.length; i++) {
            double typ = m[i][0];
            boolean low = typ < s.topicSimilarity();
            allLow &= low;
            bestSource = Math.max(bestSource, m[i][2]);
            any |= low && m[i][1] < (catalogStyle ? catalogAnchorScore : s.anchorScore());
        }
        return any || (!catalogStyle && allLow && bestSource < s.wholeTextSource());
    }

    @Test
    void dump() throws Exception {
        String[] p = System.getProperty("pool", "SAMPLE:20261130").split(":");
        SampleCatalogGenerator.Vocabulary pool = SampleCatalogGenerator.Vocabulary.valueOf(p[0]);
        assertThat(pool).as("the FRESH pool is for the floor tests only").isNotEqualTo(SampleCatalogGenerator.Vocabulary.FRESH);
        long seed = Long.parseLong(p[1]);
        JobDefinition job = JobFileLoader.load(Path.of("jobs/product-descriptions.yml"));
        RuleEngine rules = RuleEngine.forJob(job);
        StringWriter csv = new StringWriter();
        StringWriter truthCsv = new StringWriter();
        SampleCatalogGenerator.write(seed, 1200, pool, csv, truthCsv);
        Map<String, SnapshotItem> raw = MemorySnapshot.items(MemorySnapshot.records(new StringReader(csv.toString())),
                "id", "description", MemorySnapshot.PRODUCT_SOURCE);
        Map<String, List<String>> kinds = new LinkedHashMap<>();
        Map<String, String> driftSentence = new LinkedHashMap<>();
        Map<String, String> replacement = new LinkedHashMap<>();
        for (CSVRecord t : MemorySnapshot.records(new StringReader(truthCsv.toString()))) {
            String id = t.get("id");
            String kind = t.get("kind");
            String label = kind;
            if (kind.equals(SampleCatalogGenerator.DRIFT_SENTENCE) || kind.equals(SampleCatalogGenerator.DRIFT_TEXT)) {
                label += t.get("truth").startsWith("product:") ? ":named" : ":unnamed";
                if (kind.equals(SampleCatalogGenerator.DRIFT_SENTENCE)) {
                    driftSentence.put(id, t.get("wrong"));
                }
            } else if (kind.equals(SampleCatalogGenerator.BOILERPLATE)) {
                label += ":" + t.get("truth");
            } else if (kind.equals(SampleCatalogGenerator.FORBIDDEN_TERM)) {
                replacement.put(id, t.get("truth").toLowerCase(Locale.ROOT));
            }
            kinds.computeIfAbsent(id, x -> new ArrayList<>()).add(label);
        }
        Map<String, SnapshotItem> prePassed = new LinkedHashMap<>();
        for (SnapshotItem it : raw.values()) {
            RuleOutcome o = rules.apply(it.content(), it.source());
            prePassed.put(it.id(), o.changed() ? new SnapshotItem(it.id(), 1, o.text(), it.source(), it.category()) : it);
        }
        ReviewerSpec c = job.reviewers().stream().filter(r -> r.type().equals("semantic")).findFirst().orElseThrow();
        SemanticSettings settings = SemanticSettings.from(c.thresholds());
        JdbcDataSource ds = new JdbcDataSource();
        ds.setURL("jdbc:h2:mem:style-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
        ExecutorService embedPool = Executors.newFixedThreadPool(2);
        try {
            SemanticIndex index = new SemanticIndex(ds, Embedder::shared, embedPool, settings);
            index.prepare(new MemorySnapshot(1, 1, prePassed));
            TopicAnchors anchors = TopicAnchors.of(index.embedder());
            float[] task = index.textVector(job.taskSpec());
            float[][] prodBank = index.embedder().embedAll(TopicAnchors.lines(TopicAnchors.PRODUCT)).toArray(new float[0][]);
            float[][] offBank = index.embedder().embedAll(TopicAnchors.lines(TopicAnchors.OFF_TOPIC)).toArray(new float[0][]);
            List<String> rows = new ArrayList<>();
            rows.add("id\tkinds\tcategory\tsent\tdrift\trewritten\tstyle\ttyp\tdensity\tsrc\ttask\tmargin\tprodA\toffA\tcoh\totherCatMax\tdens3\tmeanDensOthers\ttext");
            List<String> cats = prePassed.values().stream().map(SnapshotItem::category).distinct().sorted().toList();
            // per item: its kinds, style, and each sentence's typicality, anchored score and source cosine (for the sweep)
            Map<String, double[][]> perItem = new LinkedHashMap<>();
            for (SnapshotItem it : prePassed.values()) {
                SemanticIndex.Stored st = index.stored(it.id()).orElseThrow();
                float[] source = index.sourceVector(it.id()).orElseThrow();
                SemanticIndex.Reference ref = index.reference(st.category());
                List<String> texts = SemanticIndex.sentencesOf(it.content());
                assertThat(texts).hasSameSizeAs(st.sentences());
                double[] density = new double[texts.size()];
                double sum = 0;
                for (int i = 0; i < texts.size(); i++) {
                    density[i] = ref.density(st.sentences().get(i), it.id());
                    sum += density[i];
                }
                double style = sum / texts.size();
                List<String> k = kinds.getOrDefault(it.id(), List.of("clean"));
                boolean driftText = k.stream().anyMatch(x -> x.startsWith(SampleCatalogGenerator.DRIFT_TEXT));
                String rep = replacement.get(it.id());
                double[][] measures = new double[texts.size() + 1][];
                measures[0] = new double[] {style};
                perItem.put(it.id(), measures);
                for (int i = 0; i < texts.size(); i++) {
                    float[] v = st.sentences().get(i);
                    String text = texts.get(i);
                    boolean drift = driftText || text.equals(driftSentence.get(it.id()));
                    boolean rewritten = rep != null && text.toLowerCase(Locale.ROOT).contains(rep);
                    double typ = SemanticIndex.typicality(v, source, task, ref, it.id());
                    List<float[]> others = new ArrayList<>(st.sentences());
                    others.remove(i);
                    double coh = others.isEmpty() ? 0 : Vectors.dot(v, Vectors.normalise(Vectors.mean(others, Embedder.DIMENSION)));
                    double otherCat = -1;
                    for (String oc : cats) {
                        if (!oc.equals(st.category())) {
                            otherCat = Math.max(otherCat, index.reference(oc).density(v, it.id()));
                        }
                    }
                    double dens3 = top(ref, v, it.id(), 3);
                    measures[i + 1] = new double[] {typ, typ - anchors.margin(v), Vectors.dot(v, source)};
                    double meanOthers = 0;
                    for (int j = 0; j < texts.size(); j++) {
                        meanOthers += j == i ? 0 : density[j];
                    }
                    meanOthers = texts.size() > 1 ? meanOthers / (texts.size() - 1) : 0;
                    rows.add(String.format(Locale.ROOT, "%s\t%s\t%s\t%d\t%s\t%s\t%.4f\t%.4f\t%.4f\t%.4f\t%.4f\t%.4f\t%.4f\t%.4f\t%.4f\t%.4f\t%.4f\t%.4f\t%s",
                            it.id(), String.join("+", k), st.category(), i + 1, drift ? 1 : 0, rewritten ? 1 : 0, style, typ, density[i],
                            Vectors.dot(v, source), Vectors.dot(v, task), anchors.margin(v), TopicAnchors.topMean(prodBank, v),
                            TopicAnchors.topMean(offBank, v), coh, otherCat, dens3, meanOthers, text.replace('\t', ' ')));
                }
            }
            Path out = Path.of("target/sm-style/" + pool + "-" + seed + ".tsv");
            Files.createDirectories(out.getParent());
            Files.write(out, rows);
            System.out.println("wrote " + out + " (" + (rows.size() - 1) + " sentences)");
            sweep(perItem, kinds, settings);
        } finally {
            embedPool.shutdown(); // every task has finished; no interrupt (a task may have been inside H2)
            assertThat(embedPool.awaitTermination(1, TimeUnit.MINUTES)).isTrue();
        }
    }
}
