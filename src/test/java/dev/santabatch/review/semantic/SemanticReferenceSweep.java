package dev.santabatch.review.semantic;

import dev.santabatch.config.JobFileLoader;
import dev.santabatch.config.SemanticSettings;
import dev.santabatch.review.offline.SnapshotItem;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Function;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Dev harness (not part of the test run; {@code -Dtest=SemanticReferenceSweep}): how sentence
 * typicality separates clean items from unnamed drift when the reference a sentence is compared
 * with is thin — a category with only a few other items, or a category the catalog does not have.
 * Measured on the bundled sample catalog only, by giving each item a reference built from fewer
 * peers (m other items of its category) or from the other categories. Prints, per reference, the
 * clean items flagged and the drift items caught at the job's {@code topic-similarity}.
 *
 * <p>Tuning tool: never point it at the generator's {@code FRESH} pool, which the held-out floor tests
 * measure on.
 */
class SemanticReferenceSweep {

    record Item(String id, String category, List<float[]> sentences, float[] source) {}

    @Test
    void sweep() throws Exception {
        TestCatalog sample = TestCatalog.sample(1);
        JdbcDataSource ds = new JdbcDataSource();
        ds.setURL("jdbc:h2:file:./target/sm-ref/sample;DB_CLOSE_DELAY=-1");
        ExecutorService pool = Executors.newFixedThreadPool(2);
        SemanticIndex index = new SemanticIndex(ds, Embedder::shared, pool, SemanticSettings.defaults());
        index.prepare(sample);
        float[] task = index.textVector(JobFileLoader.load(Path.of("jobs/product-descriptions.yml")).taskSpec());
        double threshold = SemanticSettings.defaults().topicSimilarity();

        JdbcTemplate jdbc = new JdbcTemplate(ds);
        Map<String, List<float[]>> sentences = new LinkedHashMap<>();
        jdbc.query("SELECT item_id, vec FROM sm_vector WHERE run_pk = 1 AND rev = 0 AND kind = 'sentence' ORDER BY item_id, seq",
                rs -> {
                    sentences.computeIfAbsent(rs.getString(1), k -> new ArrayList<>()).add(Vectors.decode(rs.getString(2)));
                });
        List<Item> items = new ArrayList<>();
        Map<String, List<Item>> byCategory = new LinkedHashMap<>();
        for (SnapshotItem it : sample.items()) {
            Item i = new Item(it.id(), it.category(), sentences.get(it.id()), index.sourceVector(it.id()).orElseThrow());
            items.add(i);
            byCategory.computeIfAbsent(i.category(), k -> new ArrayList<>()).add(i);
        }
        System.out.printf(Locale.ROOT, "sample: %d items, %d categories, topic-similarity %.2f%n", items.size(), byCategory.size(), threshold);

        Random random = new Random(1);
        Map<String, Function<Item, SemanticIndex.Reference>> references = new LinkedHashMap<>();
        references.put("own category, all peers (as now)", i -> reference(byCategory.get(i.category()), null, random));
        for (int m : new int[] {0, 1, 2, 3, 5, 10, 20, 30, 40, 60, 80, 100, 150}) {
            references.put("own category, " + m + " peers", i -> reference(peers(byCategory.get(i.category()), i, m, random), null, random));
        }
        references.put("other categories only (unseen category)", i -> reference(others(byCategory, i.category()), null, random));
        for (int m : new int[] {0, 1, 2, 5, 10, 20, 40}) {
            references.put("catalog-wide pool, " + m + " own-category peers",
                    i -> reference(others(byCategory, i.category()), peers(byCategory.get(i.category()), i, m, random), random));
        }
        for (Map.Entry<String, Function<Item, SemanticIndex.Reference>> e : references.entrySet()) {
            count(e.getKey(), items, sample, threshold, i -> e.getValue().apply(i), task);
        }
        for (double t : new double[] {0.0, 0.05, 0.1, 0.15, 0.2, 0.25}) {
            count(String.format(Locale.ROOT, "no reference (own source, task spec) < %.2f", t), items, sample, t, i -> null, task);
        }
        pool.shutdown();
    }

    static void count(String name, List<Item> items, TestCatalog sample, double threshold, Function<Item, SemanticIndex.Reference> ref, float[] task) {
        int clean = 0;
        int cleanFlagged = 0;
        int drift = 0;
        int driftCaught = 0;
        for (Item i : items) {
            boolean isClean = sample.clean(i.id());
            boolean isDrift = sample.topicDrift(i.id());
            if (!isClean && !isDrift) {
                continue;
            }
            SemanticIndex.Reference r = ref.apply(i);
            double lowest = 1;
            for (float[] v : i.sentences()) {
                lowest = Math.min(lowest, SemanticIndex.typicality(v, i.source(), task, r, i.id()));
            }
            if (isClean) {
                clean++;
                cleanFlagged += lowest < threshold ? 1 : 0;
            } else {
                drift++;
                driftCaught += lowest < threshold ? 1 : 0;
            }
        }
        System.out.printf(Locale.ROOT, "%-48s clean flagged %4d of %4d (%.3f)   unnamed drift caught %3d of %3d (%.3f)%n",
                name, cleanFlagged, clean, (double) cleanFlagged / clean, driftCaught, drift, (double) driftCaught / drift);
    }

    /** m random items of the group other than the item itself. */
    static List<Item> peers(List<Item> group, Item self, int m, Random random) {
        List<Item> others = new ArrayList<>(group);
        others.remove(self);
        Collections.shuffle(others, random);
        return others.subList(0, Math.min(m, others.size()));
    }

    static List<Item> others(Map<String, List<Item>> byCategory, String category) {
        List<Item> out = new ArrayList<>();
        byCategory.forEach((c, l) -> {
            if (!c.equals(category)) {
                out.addAll(l);
            }
        });
        return out;
    }

    /** A uniform sample of at most REFERENCE_SAMPLE sentences of {@code pool}, plus every sentence of {@code extra}. */
    static SemanticIndex.Reference reference(List<Item> pool, List<Item> extra, Random random) {
        List<String> ids = new ArrayList<>();
        List<float[]> vecs = new ArrayList<>();
        List<int[]> all = new ArrayList<>();
        for (int a = 0; a < pool.size(); a++) {
            for (int s = 0; s < pool.get(a).sentences().size(); s++) {
                all.add(new int[] {a, s});
            }
        }
        Collections.shuffle(all, random);
        int budget = SemanticIndex.REFERENCE_SAMPLE - (extra == null ? 0 : extra.stream().mapToInt(x -> x.sentences().size()).sum());
        for (int[] p : all.subList(0, Math.min(Math.max(0, budget), all.size()))) {
            ids.add(pool.get(p[0]).id());
            vecs.add(pool.get(p[0]).sentences().get(p[1]));
        }
        if (extra != null) {
            for (Item x : extra) {
                for (float[] v : x.sentences()) {
                    ids.add(x.id());
                    vecs.add(v);
                }
            }
        }
        return new SemanticIndex.Reference(ids.toArray(String[]::new), vecs.toArray(float[][]::new));
    }

}
