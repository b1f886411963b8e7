package dev.santabatch.review.semantic;

import dev.santabatch.config.JobFileLoader;
import dev.santabatch.config.SemanticSettings;
import dev.santabatch.review.offline.MemorySnapshot;
import dev.santabatch.review.offline.SnapshotItem;
import dev.santabatch.text.SentenceSplitter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.apache.commons.csv.CSVRecord;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.Test;

/**
 * Dev harness (not part of the test run; {@code -Dtest=SemanticOtherSourceSweep}): how often the
 * semantic reviewer's "closer to another item's source" check fires, and on which kinds of item,
 * at a grid of {@code other-source-similarity} and {@code other-source-margin} values. A sentence
 * fires when its cosine to another item's source is at least {@code max(similarity, own + margin)},
 * where {@code own} is its cosine to its own item's source.
 *
 * <p>Measured exactly (every sentence against every other item's source vector, no LSH), on the
 * bundled sample catalog (the other items of a sample item are the sample's), and as a cross-check
 * on the hand-written fixtures of {@code offline-cases.csv} (named drift and legitimate competitor
 * mentions; their other items are the fixtures and the sample). Then the reviewer itself (LSH
 * lookups, as in a run) at a few settings, over the sample with the fixtures added. Vectors are
 * cached in {@code target/sm-other/}. With {@code -Dheldout=true} the generator's held-out catalog
 * (seed 99) stands in for the sample (the cross-check).
 */
class SemanticOtherSourceSweep {

    static final double[] SIMILARITIES = {0.50, 0.55, 0.60, 0.65, 0.70, 0.75, 0.80};
    static final double[] MARGINS = {0.00, 0.05, 0.10, 0.15, 0.20};

    /** One sentence: its item's kind, whether it is the planted named-drift sentence, and its cosines. */
    record Sentence(String itemId, String kind, boolean planted, String expectedOther, double own, double other, String otherId,
            boolean offTopic, String text) {}

    @Test
    void sweep() throws Exception {
        boolean heldOut = Boolean.getBoolean("heldout");
        TestCatalog sample = heldOut ? TestCatalog.generated(1, 99, 1200, true) : TestCatalog.sample(1);
        List<CSVRecord> fixtureRows = MemorySnapshot.records(Path.of("src/test/resources/fixtures/offline-cases.csv"));
        Map<String, SnapshotItem> fixtures = MemorySnapshot.items(fixtureRows, "item_id", "content", MemorySnapshot.PRODUCT_SOURCE);
        Map<String, CSVRecord> fixtureCase = new LinkedHashMap<>();
        fixtureRows.forEach(r -> fixtureCase.put(r.get("item_id"), r));
        Map<String, SnapshotItem> all = new LinkedHashMap<>();
        sample.items().forEach(i -> all.put(i.id(), i));
        all.putAll(fixtures);
        TestCatalog catalog = new TestCatalog(1, 1, all, sample.truth);

        JdbcDataSource ds = new JdbcDataSource();
        ds.setURL("jdbc:h2:file:./target/sm-other/" + (heldOut ? "held-out" : "sample") + "-fixtures;DB_CLOSE_DELAY=-1");
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            SemanticIndex index = new SemanticIndex(ds, Embedder::shared, pool, SemanticSettings.defaults());
            long t0 = System.nanoTime();
            index.prepare(catalog);
            System.out.printf(Locale.ROOT, "prepared %d items in %d s%n", catalog.size(), (System.nanoTime() - t0) / 1_000_000_000);
            String taskSpec = JobFileLoader.load(Path.of("jobs/product-descriptions.yml")).taskSpec();
            float[] task = index.textVector(taskSpec);
            double topic = SemanticSettings.defaults().topicSimilarity();

            Map<String, float[]> sources = new LinkedHashMap<>();
            for (SnapshotItem it : catalog.items()) {
                sources.put(it.id(), index.sourceVector(it.id()).orElseThrow());
            }
            List<Sentence> sentences = new ArrayList<>();
            for (SnapshotItem it : catalog.items()) {
                boolean fixture = fixtures.containsKey(it.id());
                String kind = fixture ? "fixture " + fixtureCase.get(it.id()).get("kind") : sampleKind(sample, it.id());
                String expectedOther = fixture ? fixtureCase.get(it.id()).get("other_item_id") : namedTarget(sample, it.id());
                Set<String> plantedText = fixture ? Set.of() : plantedSentences(sample, it.id());
                SemanticIndex.Stored st = index.stored(it.id()).orElseThrow();
                List<String> texts = SemanticIndex.sentencesOf(it.content());
                float[] own = sources.get(it.id());
                for (int i = 0; i < st.sentences().size(); i++) {
                    float[] v = st.sentences().get(i);
                    double best = -2;
                    String bestId = null;
                    for (Map.Entry<String, float[]> e : sources.entrySet()) {
                        // a sample item is compared with the sample alone; a fixture with everything
                        if (e.getKey().equals(it.id()) || (!fixture && fixtures.containsKey(e.getKey()))) {
                            continue;
                        }
                        double c = Vectors.dot(v, e.getValue());
                        if (c > best) {
                            best = c;
                            bestId = e.getKey();
                        }
                    }
                    double typical = Math.max(st.typical()[i], Vectors.dot(v, task));
                    String text = i < texts.size() ? texts.get(i) : "";
                    boolean planted = fixture
                            ? kind.endsWith("drift-named") && !expectedOther.isEmpty()
                                    && containsName(text, fixtures.get(expectedOther))
                            : plantedText.stream().anyMatch(p -> p.contains(text.strip()) || text.strip().contains(p));
                    sentences.add(new Sentence(it.id(), kind, planted, expectedOther, Vectors.dot(v, own), best, bestId,
                            typical < topic, text));
                }
            }

            // distributions
            Map<String, List<Sentence>> byKind = new TreeMap<>();
            sentences.forEach(s -> byKind.computeIfAbsent(s.kind() + (s.planted() ? " [planted sentence]" : ""), k -> new ArrayList<>()).add(s));
            System.out.println("\nper kind of sentence: count, best other-source cosine (median / p99 / max), best minus own (p99 / max)");
            byKind.forEach((k, ss) -> {
                double[] other = ss.stream().mapToDouble(Sentence::other).sorted().toArray();
                double[] diff = ss.stream().mapToDouble(s -> s.other() - s.own()).sorted().toArray();
                System.out.printf(Locale.ROOT, "  %-45s %5d  other %.3f / %.3f / %.3f   other-own %.3f / %.3f%n", k, ss.size(),
                        q(other, 0.5), q(other, 0.99), other[other.length - 1], q(diff, 0.99), diff[diff.length - 1]);
            });

            // grid: items with at least one firing sentence, by kind
            System.out.println("\ngrid (items with a firing sentence; named drift: caught / with the right other item / of all;"
                    + " 'not yet off-topic': named-drift items the off-topic test misses that this check catches)");
            Map<String, Integer> totals = new TreeMap<>();
            Map<String, Set<String>> itemsOfKind = new TreeMap<>();
            catalog.items().forEach(it -> {
                String k = fixtures.containsKey(it.id()) ? "fixture " + fixtureCase.get(it.id()).get("kind") : sampleKind(sample, it.id());
                itemsOfKind.computeIfAbsent(k, x -> new LinkedHashSet<>()).add(it.id());
            });
            itemsOfKind.forEach((k, v) -> totals.put(k, v.size()));
            System.out.println("  items per kind: " + totals);
            for (double sim : SIMILARITIES) {
                for (double margin : MARGINS) {
                    Map<String, Set<String>> fired = new TreeMap<>();
                    Map<String, Set<String>> right = new TreeMap<>();
                    Set<String> extra = new LinkedHashSet<>();
                    Set<String> offTopicItems = new LinkedHashSet<>();
                    sentences.stream().filter(Sentence::offTopic).forEach(s -> offTopicItems.add(s.itemId()));
                    for (Sentence s : sentences) {
                        if (fires(s, sim, margin)) {
                            fired.computeIfAbsent(s.kind(), x -> new LinkedHashSet<>()).add(s.itemId());
                            if (sameProduct(catalog, s.otherId(), s.expectedOther())) {
                                right.computeIfAbsent(s.kind(), x -> new LinkedHashSet<>()).add(s.itemId());
                            }
                            if (named(s.kind()) && !offTopicItems.contains(s.itemId())) {
                                extra.add(s.itemId());
                            }
                        }
                    }
                    StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "  sim %.2f margin %.2f:", sim, margin));
                    for (String k : totals.keySet()) {
                        int f = fired.getOrDefault(k, Set.of()).size();
                        if (named(k)) {
                            line.append(String.format(Locale.ROOT, " | %s %d/%d/%d", k, f, right.getOrDefault(k, Set.of()).size(), totals.get(k)));
                        } else if (f > 0) {
                            line.append(String.format(Locale.ROOT, " | %s %d", k, f));
                        }
                    }
                    line.append(" | named drift not yet off-topic: ").append(extra.size());
                    System.out.println(line);
                }
            }

            // the firing sentences at a few settings, for reading
            for (double[] at : new double[][] {{0.80, 0.20}, {0.65, 0.15}, {0.60, 0.10}}) {
                System.out.printf(Locale.ROOT, "%nfiring sentences at sim %.2f margin %.2f:%n", at[0], at[1]);
                sentences.stream().filter(s -> fires(s, at[0], at[1])).forEach(s -> System.out.printf(Locale.ROOT,
                        "  %-8s %-34s own %.3f other %.3f %s (expected %s)%s: %s%n", s.itemId(), s.kind(), s.own(), s.other(), s.otherId(),
                        s.expectedOther().isEmpty() ? "-" : s.expectedOther(), s.offTopic() ? " [off-topic too]" : "", s.text()));
            }

            // the reviewer itself (LSH source lookups; a sentence already off-topic is not looked up), at a few settings
            SemanticSettings d = SemanticSettings.defaults();
            for (double[] at : new double[][] {{0.80, 0.20}, {0.75, 0.15}, {0.70, 0.15}}) {
                SemanticSettings s = new SemanticSettings(d.topicSimilarity(), d.wholeTextShare(), at[0], at[1], d.copyCosine(),
                        d.atypicalSimilarity(), d.paraphraseMinSentences(), d.passageCosine(), d.minCategoryPeers(),
                        d.styleDensity(), d.anchorScore(), d.wholeTextSource(), d.catalogAnchorScore(), d.smallCategoryMargin(), d.minSentenceWords(), d.coherentAnchorScore(), d.productLineSimilarity(), d.passageSourceMargin());
                SemanticIndex at2 = new SemanticIndex(ds, Embedder::shared, pool, s);
                at2.prepare(catalog); // the round is prepared: loads its state, writes nothing
                SemanticReviewer reviewer = new SemanticReviewer("C", Set.of("on-specification", "original"), at2);
                Map<String, Integer> reviewerFired = new TreeMap<>();
                Map<String, Integer> failed = new TreeMap<>();
                for (SnapshotItem it : catalog.items()) {
                    SemanticReviewer.Analysis a = reviewer.analyse(Scoring.request(it));
                    String k = fixtures.containsKey(it.id()) ? "fixture " + fixtureCase.get(it.id()).get("kind") : sampleKind(sample, it.id());
                    if (a.findings().stream().anyMatch(f -> f.reason() == SemanticReviewer.Reason.OTHER_ITEM)) {
                        reviewerFired.merge(k, 1, Integer::sum);
                        a.findings().stream().filter(f -> f.reason() == SemanticReviewer.Reason.OTHER_ITEM).forEach(f -> System.out.printf(
                                Locale.ROOT, "    %s %s: other %s %.3f own %.3f: %s%n", it.id(), k, f.otherItem(), f.otherSimilarity(), f.similarity(), f.text()));
                    }
                    if (!a.findings().isEmpty()) {
                        failed.merge(k, 1, Integer::sum);
                    }
                }
                System.out.printf(Locale.ROOT, "reviewer at other-source-similarity %.2f, other-source-margin %.2f (LSH): items with an"
                        + " OTHER_ITEM finding by kind: %s; items failing on-specification by kind: %s%n", at[0], at[1], reviewerFired, failed);
            }
        } finally {
            pool.shutdown(); // every task has finished; no interrupt (a task may have been inside H2)
            pool.awaitTermination(1, TimeUnit.MINUTES);
        }
    }

    /** The same product: the same item, or one with the same name and brand (the sample repeats some). */
    static boolean sameProduct(TestCatalog catalog, String a, String b) {
        if (a == null || b == null || b.isEmpty()) {
            return false;
        }
        SnapshotItem x = catalog.get(a).orElseThrow();
        SnapshotItem y = catalog.get(b).orElse(null);
        return y != null && x.source().get("name").equals(y.source().get("name")) && x.source().get("brand").equals(y.source().get("brand"));
    }

    static boolean fires(Sentence s, double sim, double margin) {
        return s.other() >= Math.max(sim, s.own() + margin);
    }

    static boolean named(String kind) {
        return kind.startsWith("named drift") || kind.endsWith("drift-named");
    }

    static boolean containsName(String text, SnapshotItem other) {
        return other != null && text.contains(other.source().get("name"));
    }

    static double q(double[] sorted, double p) {
        return sorted[Math.min(sorted.length - 1, (int) Math.floor(p * sorted.length))];
    }

    /** The sample item's kind for this check: named drift (sentence or text), other defects, clean. */
    static String sampleKind(TestCatalog sample, String id) {
        List<TestCatalog.Truth> t = sample.truth.getOrDefault(id, List.of());
        if (t.isEmpty()) {
            return "sample clean";
        }
        if (t.stream().anyMatch(x -> x.kind().equals("drift-sentence") && x.truth().startsWith("product:"))) {
            return "named drift sentence";
        }
        if (t.stream().anyMatch(x -> x.kind().equals("drift-text") && x.truth().startsWith("product:"))) {
            return "named drift text";
        }
        if (t.stream().anyMatch(x -> x.kind().startsWith("drift"))) {
            return "sample unnamed drift";
        }
        if (t.stream().anyMatch(x -> x.kind().equals("boilerplate"))) {
            return "sample boilerplate";
        }
        return "sample rules defects only";
    }

    static String namedTarget(TestCatalog sample, String id) {
        return sample.truth.getOrDefault(id, List.of()).stream().filter(x -> x.truth().startsWith("product:"))
                .map(x -> x.truth().substring("product:".length())).findFirst().orElse("");
    }

    /** The planted sentences of a named-drift item (the whole text's sentences for drift-text). */
    static Set<String> plantedSentences(TestCatalog sample, String id) {
        Set<String> out = new LinkedHashSet<>();
        for (TestCatalog.Truth x : sample.truth.getOrDefault(id, List.of())) {
            if (x.kind().startsWith("drift") && x.truth().startsWith("product:")) {
                for (SentenceSplitter.Span sp : SentenceSplitter.split(x.wrong())) {
                    out.add(sp.of(x.wrong()).strip());
                }
            }
        }
        return out;
    }
}
