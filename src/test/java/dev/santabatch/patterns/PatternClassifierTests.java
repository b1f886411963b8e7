package dev.santabatch.patterns;

import dev.santabatch.text.IssueText;
import static org.assertj.core.api.Assertions.assertThat;

import dev.santabatch.patterns.PatternClassifier.Failure;
import dev.santabatch.patterns.PatternClassifier.Pattern;
import dev.santabatch.review.semantic.Embedder;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/** Patterns by meaning: the issue-pair table, the classifier, stripping measured. */
class PatternClassifierTests {

    /** The default job's santa.pattern-similarity (0.45: see docs/offline-reviewers.md). */
    static final double THRESHOLD = loadThreshold();

    static double loadThreshold() {
        try {
            return dev.santabatch.config.JobFileLoader.load(java.nio.file.Path.of("jobs/product-descriptions.yml")).santa().patternSimilarity();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    record Pair(String a, String b, boolean same) {}

    static final String WARRANTY_1 = "factual-accuracy: claims a 10-year warranty but the source says 2";
    static final String WARRANTY_2 = "factual-accuracy: warranty length contradicts the source (10 vs 2)";
    static final String BATTERY_1 = "factual-accuracy: battery life stated as 30 hours, source says 20";
    static final String BATTERY_2 = "factual-accuracy: the battery runtime contradicts the source facts (30 h vs 20 h)";
    static final String PRICE_1 = "factual-accuracy: price stated as $49 but the source says $59.99";
    static final String TERM_1 = "compliance: uses the banned term \"miracle\"";
    static final String DISCLAIMER_1 = "disclaimer: the FDA disclaimer is missing";
    static final String OFF_TOPIC_1 = "on-specification: sentence 4 is off-topic (similarity to its product 0.12): \"Morning fog should lift by noon.\"";
    static final String OFF_TOPIC_2 = "on-specification: sentence 2 is off-topic (similarity to its product 0.21): \"Leftovers reheat well with a splash of broth.\"";
    static final String DUP_1 = "original: near-duplicate of P00017 (cosine 0.93)";
    static final String DUP_2 = "original: near-duplicate of P00412 (3 shared sentences, cosine 0.71), P00388 (2 shared sentences, cosine 0.66)";

    static final List<Pair> TABLE = List.of(
            // one problem said two ways: merged
            new Pair(WARRANTY_1, WARRANTY_2, true),
            new Pair(BATTERY_1, BATTERY_2, true),
            new Pair(TERM_1, "compliance: contains the forbidden word 'miracle'", true),
            new Pair(DISCLAIMER_1, "disclaimer: supplement description lacks the required FDA disclaimer", true),
            new Pair(OFF_TOPIC_1, OFF_TOPIC_2, true),
            new Pair(DUP_1, DUP_2, true),
            new Pair("on-specification: the text describes a different product", "on-specification: the description is about a different item, not this product", true),
            new Pair("original: the text is boilerplate shared with other items", "original: the text reuses boilerplate that other items share", true),
            new Pair("compliance: makes an absolute medical claim (cures arthritis)", "compliance: claims the product cures a medical condition", true),
            new Pair(PRICE_1, "factual-accuracy: the price in the text does not match the source price", true),
            new Pair("on-specification: sentence 3 talks about the weather, not the product", "on-specification: sentence 5 is an off-topic remark about the weather", true),
            new Pair("on-specification: the whole text is off-topic (4 of 4 sentences; lowest similarity to its product 0.15)",
                    "on-specification: the whole text is off-topic, about something unrelated to the product", true),
            // hard negatives: kept apart
            new Pair(WARRANTY_1, BATTERY_1, false),
            new Pair(WARRANTY_2, BATTERY_2, false),
            new Pair(PRICE_1, WARRANTY_1, false),
            new Pair("compliance: uses a forbidden term", "compliance: the required disclaimer is missing", false),
            new Pair(TERM_1, "compliance: mentions a competitor's trademark", false),
            new Pair("on-specification: sentence 2 is about P00048 (similarity 0.74 to its source, 0.31 to its own): \"The Blendmaster Max is a popular alternative.\"",
                    OFF_TOPIC_1, false),
            // different criteria never merge, whatever the text
            new Pair(TERM_1, DISCLAIMER_1, false),
            new Pair(OFF_TOPIC_1, DUP_1, false),
            new Pair(DISCLAIMER_1, "factual-accuracy: the FDA disclaimer is missing", false),
            new Pair(WARRANTY_1, "compliance: claims a 10-year warranty but the source says 2", false));

    @Test
    void issuePairTable() {
        EmbeddingIssueSimilarity stripped = new EmbeddingIssueSimilarity(Embedder::shared, THRESHOLD, true);
        EmbeddingIssueSimilarity raw = new EmbeddingIssueSimilarity(Embedder::shared, THRESHOLD, false);
        int rightStripped = 0;
        int rightRaw = 0;
        List<String> wrong = new ArrayList<>();
        for (Pair p : TABLE) {
            double cs = stripped.cosine(p.a(), p.b());
            double cr = raw.cosine(p.a(), p.b());
            boolean s = stripped.same(p.a(), p.b());
            boolean r = raw.same(p.a(), p.b());
            rightStripped += s == p.same() ? 1 : 0;
            rightRaw += r == p.same() ? 1 : 0;
            System.out.printf(Locale.ROOT, "%-5s stripped %.3f %-5s raw %.3f %-5s | %s | %s%n", p.same(), cs, s, cr, r, p.a(), p.b());
            if (s != p.same()) {
                wrong.add(p.a() + " | " + p.b());
            }
        }
        System.out.printf("issue-pair table: %d pairs, right with stripping %d, without %d (threshold %.2f)%n", TABLE.size(), rightStripped, rightRaw, THRESHOLD);
        double minSame = 2;
        double maxApart = -2;
        for (Pair p : TABLE) {
            if (IssueText.criterion(p.a()).equals(IssueText.criterion(p.b()))) {
                double c = stripped.cosine(p.a(), p.b());
                if (p.same()) {
                    minSame = Math.min(minSame, c);
                } else {
                    maxApart = Math.max(maxApart, c);
                }
            }
        }
        System.out.printf("stripped cosines: same problem >= %.3f, different problems of one criterion <= %.3f%n", minSame, maxApart);
        assertThat(TABLE).hasSizeGreaterThanOrEqualTo(20);
        assertThat(wrong).isEmpty();
    }

    /** Average linkage by its plain definition: each pair's mean recomputed over its members (the reference). */
    static List<List<Integer>> plainClusters(double[][] cos, double threshold) {
        int n = cos.length;
        List<List<Integer>> plain = new java.util.ArrayList<>();
        for (int i = 0; i < n; i++) {
            plain.add(new java.util.ArrayList<>(List.of(i)));
        }
        while (plain.size() > 1) {
            double best = -2;
            int bi = -1;
            int bj = -1;
            for (int i = 0; i < plain.size(); i++) {
                for (int j = i + 1; j < plain.size(); j++) {
                    double t = 0;
                    for (int a : plain.get(i)) {
                        for (int b : plain.get(j)) {
                            t += cos[a][b];
                        }
                    }
                    t /= plain.get(i).size() * plain.get(j).size();
                    if (t > best) {
                        best = t;
                        bi = i;
                        bj = j;
                    }
                }
            }
            if (best < threshold) {
                break;
            }
            plain.get(bi).addAll(plain.remove(bj));
        }
        return plain;
    }

    /**
     * The clustering (average linkage with the Lance-Williams update, the label by one pass over the
     * summed vectors) gives the same clusters, in the same order, and the same labels as the plain
     * definition (each pair's mean recomputed over its members, the label by summed pairwise
     * cosines) at four thresholds on 240 issue texts of several related problems with varied wording and numbers.
     */
    @Test
    void clustersAndLabelsAreThoseOfThePlainAverageLinkage() {
        EmbeddingIssueSimilarity sim = new EmbeddingIssueSimilarity(THRESHOLD);
        String[] shapes = {
            "factual-accuracy: claims a %d-year warranty but the source says %d",
            "factual-accuracy: warranty length contradicts the source (%d vs %d)",
            "factual-accuracy: battery life stated as %d hours, source says %d",
            "factual-accuracy: price stated as $%d but the source says $%d.99",
            "factual-accuracy: the weight is given as %d kg while the source lists %d kg",
            "factual-accuracy: says it has %d speed settings, the source has %d",
            "factual-accuracy: the guarantee period (%d years) is not the one in the source (%d)",
            "factual-accuracy: runtime on one charge is %d h in the text and %d h in the facts",
            "factual-accuracy: charging takes %d minutes according to the text, %d in the source",
            "factual-accuracy: capacity of %d litres does not match the %d litres listed"};
        List<Failure> fs = new java.util.ArrayList<>();
        java.util.Random r = new java.util.Random(7);
        for (int i = 0; i < 240; i++) {
            fs.add(new Failure("P" + i, String.format(Locale.ROOT, shapes[r.nextInt(shapes.length)], 1 + r.nextInt(40), 1 + r.nextInt(40))));
        }
        for (double threshold : new double[] {0.35, THRESHOLD, 0.6, 0.75}) {
            assertSameAsPlain(sim, fs, threshold);
        }
    }

    private static void assertSameAsPlain(EmbeddingIssueSimilarity sim, List<Failure> fs, double threshold) {
        PatternClassifier classifier = new PatternClassifier(sim, threshold);
        List<List<Failure>> clusters = classifier.cluster(fs);

        // the plain definition
        int n = fs.size();
        double[][] cos = new double[n][n];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                cos[i][j] = dev.santabatch.review.semantic.Vectors.dot(sim.vector(fs.get(i).issue()), sim.vector(fs.get(j).issue()));
            }
        }
        List<List<Integer>> plain = plainClusters(cos, threshold);
        List<List<Failure>> expected = plain.stream().map(c -> c.stream().sorted().map(fs::get).toList()).toList();
        assertThat(clusters).as("clusters at %s", threshold).isEqualTo(expected);
        assertThat(clusters.size()).isBetween(2, n - 1);

        List<Pattern> patterns = classifier.classify(fs, n);
        for (List<Failure> c : expected) {
            String label = c.get(0).issue();
            if (c.size() > 2) {
                double bestScore = -1e9;
                for (Failure a : c) {
                    double t = 0;
                    for (Failure b : c) {
                        if (a != b) {
                            t += sim.cosine(a.issue(), b.issue());
                        }
                    }
                    if (t > bestScore + 1e-9) {
                        bestScore = t;
                        label = a.issue();
                    }
                }
            }
            String want = label;
            assertThat(patterns).filteredOn(p -> p.itemIds().contains(c.get(0).itemId())).singleElement()
                    .satisfies(p -> assertThat(p.label()).isEqualTo(want));
        }
    }

    @Test
    void failuresBecomePatterns() {
        List<Failure> failures = List.of(
                new Failure("P1", WARRANTY_1),
                new Failure("P2", WARRANTY_2),
                new Failure("P3", "factual-accuracy: states a 5-year warranty while the source says 3"),
                new Failure("P4", BATTERY_1),
                new Failure("P5", BATTERY_2),
                new Failure("P6", OFF_TOPIC_1),
                new Failure("P7", OFF_TOPIC_2),
                new Failure("P8", DUP_1),
                new Failure("P9", "compliance: contains \"miracle\"", "forbidden-claims"),
                new Failure("P10", "compliance: contains \"cures\"", "forbidden-claims"),
                new Failure("P1", "original: near-duplicate of P00002 (cosine 0.98)"));
        List<Pattern> patterns = new PatternClassifier(new EmbeddingIssueSimilarity(THRESHOLD), THRESHOLD).classify(failures, 20);
        patterns.forEach(p -> System.out.printf(Locale.ROOT, "pattern %-20s %-17s items %s share %.2f label %s%n", p.key(), p.criterion(), p.itemIds(), p.share(), p.label()));

        Pattern warranty = patterns.stream().filter(p -> p.itemIds().contains("P2")).findFirst().orElseThrow();
        assertThat(warranty.itemIds()).containsExactly("P1", "P2", "P3");
        assertThat(warranty.criterion()).isEqualTo("factual-accuracy");
        assertThat(warranty.share()).isEqualTo(0.15);
        assertThat(warranty.issues()).contains(warranty.label());
        Pattern battery = patterns.stream().filter(p -> p.itemIds().contains("P4")).findFirst().orElseThrow();
        assertThat(battery.itemIds()).containsExactly("P4", "P5");
        Pattern offTopic = patterns.stream().filter(p -> p.itemIds().contains("P6")).findFirst().orElseThrow();
        assertThat(offTopic.itemIds()).containsExactly("P6", "P7");
        assertThat(offTopic.criterion()).isEqualTo("on-specification");
        Pattern rule = patterns.stream().filter(p -> "forbidden-claims".equals(p.ruleId())).findFirst().orElseThrow();
        assertThat(rule.key()).isEqualTo("rule:forbidden-claims");
        assertThat(rule.itemIds()).containsExactly("P9", "P10");
        Pattern dup = patterns.stream().filter(p -> p.criterion().equals("original")).findFirst().orElseThrow();
        assertThat(dup.itemIds()).containsExactly("P8", "P1");
        assertThat(patterns).hasSize(5);
        assertThat(patterns.get(0)).isSameAs(warranty);
    }
}
