package dev.santabatch.review.offline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.santabatch.config.JobDefinition;
import dev.santabatch.config.JobFileLoader;
import dev.santabatch.config.ReviewerSpec;
import dev.santabatch.config.SemanticSettings;
import dev.santabatch.prepass.rules.RuleEngine;
import dev.santabatch.prepass.rules.RuleOutcome;
import dev.santabatch.review.semantic.Embedder;
import dev.santabatch.review.semantic.SemanticIndex;
import dev.santabatch.review.semantic.Vectors;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.commons.csv.CSVRecord;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.Test;

/**
 * Dev harness (not part of the test run: {@code -Dtest=PassageSentenceDump -Dset=fixtures|blind|blind2|large|sample
 * -Dshop=path}): every atypical sentence (a passage sentence) of every scored item, with its
 * nearest-anchor means against the product, off-topic and shop banks, and whether the item's passage
 * has a neighbour at {@code passage-cosine}; written to {@code target/sm-passage/<set>.tsv}.
 */
class PassageSentenceDump {

    static List<float[]> bank(Embedder e, List<String> lines) {
        return e.embedAll(lines);
    }

    static List<String> lines(java.io.Reader in) throws Exception {
        List<String> out = new ArrayList<>();
        BufferedReader r = new BufferedReader(in);
        for (String l = r.readLine(); l != null; l = r.readLine()) {
            String s = l.strip();
            if (!s.isEmpty() && !s.startsWith("#")) {
                out.add(s);
            }
        }
        return out;
    }

    static double cosine(float[] a, float[] b) {
        double d = 0, na = 0, nb = 0;
        for (int i = 0; i < a.length; i++) {
            d += a[i] * b[i];
            na += a[i] * a[i];
            nb += b[i] * b[i];
        }
        return d / Math.sqrt(na * nb);
    }

    static double top(List<float[]> bank, float[] v) {
        double[] c = new double[bank.size()];
        for (int i = 0; i < c.length; i++) {
            c[i] = Vectors.dot(bank.get(i), v);
        }
        Arrays.sort(c);
        int k = Math.min(10, c.length);
        double s = 0;
        for (int i = c.length - k; i < c.length; i++) {
            s += c[i];
        }
        return s / k;
    }

    /** A scored set inside the sample catalog, after the job's rules pre-pass, with its labels. */
    record Loaded(JobDefinition job, SemanticSettings settings, Map<String, SnapshotItem> prePassed, Map<String, String> label,
            List<String> scored) {}

    /**
     * {@code -Dset=fixtures|blind|blind2|blind3|blind4|large} (the set's cases scored) or anything
     * else (every sample item scored, labelled by the sample's ground truth).
     */
    static Loaded load(String which) throws Exception {
        JobDefinition job = JobFileLoader.load(Path.of("jobs/product-descriptions.yml"));
        RuleEngine rules = RuleEngine.forJob(job);
        Map<String, SnapshotItem> items = new LinkedHashMap<>(MemorySnapshot.items(MemorySnapshot.records(PanelFloorTests.SAMPLE),
                "id", "description", MemorySnapshot.PRODUCT_SOURCE));
        Map<String, String> label = new LinkedHashMap<>();
        for (CSVRecord t : MemorySnapshot.records(Path.of("sample-data/products.truth.csv"))) {
            label.merge(t.get("id"), t.get("kind") + (t.get("truth").startsWith("product:") ? ":named" : ""), (a, b) -> a + "+" + b);
        }
        FixtureSet set = switch (which) {
            case "fixtures" -> FixtureSet.load();
            case "blind" -> FixtureSet.blind(1);
            case "blind2", "blind3", "blind4", "blind5", "blind6" -> FixtureSet.blind(Integer.parseInt(which.substring(5)));
            case "large" -> FixtureSet.cleanLargeCategories();
            default -> null;
        };
        List<String> scored = new ArrayList<>();
        if (set != null) {
            items.putAll(set.items);
            set.cases().forEach((id, c) -> {
                label.put(id, c.clean() ? "clean:" + c.kind() : c.kind());
                scored.add(id);
            });
        } else {
            scored.addAll(items.keySet());
        }
        Map<String, SnapshotItem> prePassed = new LinkedHashMap<>();
        for (SnapshotItem it : items.values()) {
            RuleOutcome o = rules.apply(it.content(), it.source());
            prePassed.put(it.id(), o.changed() ? new SnapshotItem(it.id(), 1, o.text(), it.source(), it.category()) : it);
        }
        ReviewerSpec c = job.reviewers().stream().filter(r -> r.type().equals("semantic")).findFirst().orElseThrow();
        return new Loaded(job, SemanticSettings.from(c.thresholds()), prePassed, label, scored);
    }

    /** The loaded catalog's semantic index, prepared for one round in a fresh in-memory store. */
    static SemanticIndex prepared(Loaded l, ExecutorService pool) {
        JdbcDataSource ds = new JdbcDataSource();
        ds.setURL("jdbc:h2:mem:dump-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
        SemanticIndex index = new SemanticIndex(ds, Embedder::shared, pool, l.settings());
        index.prepare(new MemorySnapshot(1, 1, l.prePassed()));
        return index;
    }

    static void write(String name, List<String> rows) throws Exception {
        Path out = Path.of("target/sm-passage/" + name + ".tsv");
        Files.createDirectories(out.getParent());
        Files.write(out, rows);
        assertThat(rows).hasSizeGreaterThan(1);
        System.out.println("wrote " + out + " (" + (rows.size() - 1) + " rows)");
    }

    @Test
    void dump() throws Exception {
        String which = System.getProperty("set", "fixtures");
        Loaded l = load(which);
        SemanticSettings s = l.settings();
        Map<String, SnapshotItem> prePassed = l.prePassed();
        Map<String, String> label = l.label();
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            SemanticIndex index = prepared(l, pool);
            Embedder e = index.embedder();
            List<float[]> prod = bank(e, lines(new InputStreamReader(getClass().getResourceAsStream("/semantic/anchors-product.txt"), StandardCharsets.UTF_8)));
            List<float[]> off = bank(e, lines(new InputStreamReader(getClass().getResourceAsStream("/semantic/anchors-offtopic.txt"), StandardCharsets.UTF_8)));
            List<float[]> shop = bank(e, lines(Files.newBufferedReader(Path.of(System.getProperty("shop", "src/test/resources/dev/shop-anchors.txt")))));
            List<String> rows = new ArrayList<>();
            rows.add("id\tlabel\tneighbours\ttotal\tn\ttyp\tprod\toff\tshop\tsrc\ttext");
            Map<String, SemanticIndex.Passage> allPassages = null;
            for (String id : l.scored()) {
                SnapshotItem it = prePassed.get(id);
                SemanticIndex.Stored st = index.stored(id).orElseThrow();
                float[] source = index.sourceVector(id).orElseThrow();
                List<String> texts = SemanticIndex.sentencesOf(it.content());
                List<float[]> atyp = new ArrayList<>();
                List<Integer> which2 = new ArrayList<>();
                for (int i = 0; i < texts.size(); i++) {
                    if (st.typical()[i] < s.atypicalSimilarity()) {
                        atyp.add(st.sentences().get(i));
                        which2.add(i);
                    }
                }
                String nb = "";
                if (allPassages == null) {
                    allPassages = index.passages(prePassed.keySet());
                }
                if (atyp.size() >= s.paraphraseMinSentences()) {
                    List<SemanticIndex.Neighbour> n = index.near(SemanticIndex.PASSAGE, Vectors.mean(atyp, Embedder.DIMENSION), s.passageCosine(), id);
                    StringBuilder b = new StringBuilder();
                    n.forEach(x -> b.append(x.itemId()).append(String.format(java.util.Locale.ROOT, "@%.2f~%.2f ", x.cosine(),
                            Vectors.dot(source, index.sourceVector(x.itemId()).orElseThrow()))));
                    nb = b.toString().strip();
                    float[] mine = Vectors.mean(atyp, Embedder.DIMENSION);
                    List<Double> cos = new ArrayList<>();
                    for (var en : allPassages.entrySet()) {
                        if (!en.getKey().equals(id) && en.getValue().sentences() >= s.paraphraseMinSentences()) {
                            cos.add(Vectors.dot(mine, en.getValue().vector()));
                        }
                    }
                    cos.sort(java.util.Comparator.reverseOrder());
                    StringBuilder t = new StringBuilder();
                    for (int q = 0; q < Math.min(8, cos.size()); q++) {
                        t.append(String.format(java.util.Locale.ROOT, "%.3f ", cos.get(q)));
                    }
                    nb = nb + "|" + t.toString().strip() + String.format(java.util.Locale.ROOT, "|%.3f", Vectors.dot(mine, source));
                }
                for (int k = 0; k < atyp.size(); k++) {
                    float[] v = atyp.get(k);
                    rows.add(String.join("\t", id, label.getOrDefault(id, "clean"), nb, String.valueOf(texts.size()), String.valueOf(atyp.size()),
                            String.format(java.util.Locale.ROOT, "%.3f", st.typical()[which2.get(k)]),
                            String.format(java.util.Locale.ROOT, "%.3f", top(prod, v)),
                            String.format(java.util.Locale.ROOT, "%.3f", top(off, v)),
                            String.format(java.util.Locale.ROOT, "%.3f", top(shop, v)),
                            String.format(java.util.Locale.ROOT, "%.3f", Vectors.dot(v, source)),
                            texts.get(which2.get(k)).replace('\t', ' ').replace('\n', ' ')));
                }
            }
            write(which, rows);
        } finally {
            pool.shutdown();
        }
    }

    /** Every sentence of a clean-and-drift set's items ({@code -Dset=blind|blind2|blind3|blind4|large}) with the off-topic measures. */
    @Test
    void sentences() throws Exception {
        String which = System.getProperty("set", "blind2");
        Path file = which.equals("large") ? FixtureSet.CLEAN_LARGE
                : FixtureSet.BLIND_SETS.get(which.equals("blind") ? 0 : Integer.parseInt(which.substring(5)) - 1);
        JobDefinition job = JobFileLoader.load(Path.of("jobs/product-descriptions.yml"));
        Map<String, SnapshotItem> items = new LinkedHashMap<>(MemorySnapshot.items(MemorySnapshot.records(PanelFloorTests.SAMPLE),
                "id", "description", MemorySnapshot.PRODUCT_SOURCE));
        List<CSVRecord> recs = MemorySnapshot.records(file);
        items.putAll(MemorySnapshot.items(recs, "id", "description", MemorySnapshot.PRODUCT_SOURCE));
        ReviewerSpec c = job.reviewers().stream().filter(r -> r.type().equals("semantic")).findFirst().orElseThrow();
        SemanticSettings s = SemanticSettings.from(c.thresholds());
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            SemanticIndex index = prepared(new Loaded(job, s, items, Map.of(), List.of()), pool);
            dev.santabatch.review.semantic.TopicAnchors anchors = dev.santabatch.review.semantic.TopicAnchors.of(index.embedder());
            float[] task = index.textVector(job.taskSpec());
            List<String> rows = new ArrayList<>();
            rows.add("id\tcase\tstyle\tdrift\ttyp\tmargin\tsrc\tdensity\tloo\ttext");
            for (CSVRecord r : recs) {
                String id = r.get("id");
                String kind = r.isMapped("case") ? r.get("case") : r.get("kind");
                String note = r.isMapped("note") ? r.get("note") : r.get("passage");
                SemanticIndex.Stored st = index.stored(id).orElseThrow();
                float[] source = index.sourceVector(id).orElseThrow();
                SemanticIndex.Reference ref = index.reference(st.category());
                List<String> texts = SemanticIndex.sentencesOf(items.get(id).content());
                double sum = 0;
                for (float[] v : st.sentences()) {
                    sum += ref.density(v, id);
                }
                double style = sum / st.sentences().size();
                float[] all = Vectors.sum(st.sentences(), Embedder.DIMENSION); // for each sentence's coherence with the rest
                for (int i = 0; i < texts.size(); i++) {
                    float[] v = st.sentences().get(i);
                    String t = texts.get(i);
                    boolean drift = kind.equals("drift") && java.util.Arrays.stream(note.split(" \\| ")).anyMatch(q -> q.contains(t.strip()) || t.contains(q.strip()));
                    double typ = Math.max(st.typical()[i], Vectors.dot(v, task));
                    rows.add(String.join("\t", id, kind, String.format(java.util.Locale.ROOT, "%.3f", style), String.valueOf(drift),
                            String.format(java.util.Locale.ROOT, "%.3f", typ), String.format(java.util.Locale.ROOT, "%.3f", anchors.margin(v)),
                            String.format(java.util.Locale.ROOT, "%.3f", Vectors.dot(v, source)),
                            String.format(java.util.Locale.ROOT, "%.3f", ref.density(v, id)),
                            String.format(java.util.Locale.ROOT, "%.3f", Vectors.coherence(v, all)), t.replace('\t', ' ').replace('\n', ' ')));
                }
            }
            write("sent-" + which, rows);
        } finally {
            pool.shutdown();
        }
    }

    /** Per item of a set (as {@link #load}): the whole-text off-topic measures and the cosines to category reference means. */
    @Test
    void items() throws Exception {
        String which = System.getProperty("set", "blind3");
        Loaded l = load(which);
        SemanticSettings s = l.settings();
        Map<String, SnapshotItem> prePassed = l.prePassed();
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            SemanticIndex index = prepared(l, pool);
            dev.santabatch.review.semantic.TopicAnchors anchors = dev.santabatch.review.semantic.TopicAnchors.of(index.embedder());
            float[] task = index.textVector(l.job().taskSpec());
            List<String> rows = new ArrayList<>();
            rows.add("id\tlabel\tstyle\tn\tlow\tbestSrc\tmeanMargin\tmaxMargin\tmeanScore\tminScore\twords\townCent\tbestOther\totherCat");
            Map<String, float[]> centroids = new LinkedHashMap<>();
            for (String cat : prePassed.values().stream().map(SnapshotItem::category).distinct().sorted().toList()) {
                SemanticIndex.Reference ref = index.reference(cat);
                if (ref != null && ref.vectors().length > 0) {
                    centroids.put(cat, Vectors.mean(java.util.Arrays.asList(ref.vectors()), Embedder.DIMENSION));
                }
            }
            for (String id : l.scored()) {
                SemanticIndex.Stored st = index.stored(id).orElseThrow();
                float[] source = index.sourceVector(id).orElseThrow();
                SemanticIndex.Reference ref = index.reference(st.category());
                List<String> texts = SemanticIndex.sentencesOf(prePassed.get(id).content());
                double dens = 0, best = -1, mm = 0, mx = -9, ms = 0, mn = 9;
                int low = 0;
                StringBuilder words = new StringBuilder();
                for (int i = 0; i < texts.size(); i++) {
                    float[] v = st.sentences().get(i);
                    dens += ref.density(v, id);
                    double typ = Math.max(st.typical()[i], Vectors.dot(v, task));
                    low += typ < s.topicSimilarity() ? 1 : 0;
                    best = Math.max(best, Vectors.dot(v, source));
                    double m = anchors.margin(v);
                    mm += m;
                    mx = Math.max(mx, m);
                    ms += typ - m;
                    mn = Math.min(mn, typ - m);
                    words.append(texts.get(i).strip().split("\\s+").length).append(' ');
                }
                int n = texts.size();
                float[] cv = Vectors.mean(st.sentences(), Embedder.DIMENSION);
                double own = centroids.containsKey(st.category()) ? cosine(cv, centroids.get(st.category())) : -1;
                double bestOther = -1;
                String otherCat = "";
                for (var ce : centroids.entrySet()) {
                    double cc = cosine(cv, ce.getValue());
                    if (!ce.getKey().equals(st.category()) && cc > bestOther) {
                        bestOther = cc;
                        otherCat = ce.getKey();
                    }
                }
                words.append('\t').append(String.format(java.util.Locale.ROOT, "%.3f\t%.3f\t%s", own, bestOther, otherCat));
                rows.add(String.join("\t", id, l.label().getOrDefault(id, "clean"), String.format(java.util.Locale.ROOT, "%.3f", dens / n), String.valueOf(n),
                        String.valueOf(low), String.format(java.util.Locale.ROOT, "%.3f", best), String.format(java.util.Locale.ROOT, "%.3f", mm / n),
                        String.format(java.util.Locale.ROOT, "%.3f", mx), String.format(java.util.Locale.ROOT, "%.3f", ms / n),
                        String.format(java.util.Locale.ROOT, "%.3f", mn), words.toString().strip()));
            }
            write("items-" + which, rows);
        } finally {
            pool.shutdown();
        }
    }
}
