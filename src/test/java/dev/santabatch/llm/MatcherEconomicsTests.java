package dev.santabatch.llm;

import static org.assertj.core.api.Assertions.assertThat;

import dev.santabatch.loop.PatternNarrowing;
import dev.santabatch.review.FixExample;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The matcher's economics on a generated catalog where each planted pattern touches at most 10 % of
 * the items, against a scripted model on 127.0.0.1: the cheap narrowing sends the model at most
 * 25 % of the eligible items per pattern, and keeps at least 95 % of the items a full scan (the
 * same matcher called on every eligible item) matches.
 */
class MatcherEconomicsTests {

    record Planted(String criterion, String issue, List<String> variants) {}

    static final List<Planted> PLANTED = List.of(
            new Planted("on-specification", "adds an unrelated sentence about shipping offers", List.of(
                    "Order today for free shipping on every order.",
                    "Free shipping applies to all orders placed today.",
                    "Orders placed today ship free of charge.")),
            new Planted("factual-accuracy", "promises a lifetime guarantee the source does not give", List.of(
                    "Backed by a lifetime guarantee.",
                    "Comes with a lifetime guarantee against defects.",
                    "Guaranteed for a lifetime of everyday use.")),
            new Planted("original", "carries the shop's hand-picked boilerplate passage", List.of(
                    "Our experts hand-picked this product for its quality and value.",
                    "Our team of experts hand-picked this item for quality and value.",
                    "Hand-picked by our experts for quality and great value.")));

    static final String[] BRANDS = {"Acme", "Northwind", "Globex", "Initech", "Umbrella", "Stark", "Wayne", "Tyrell"};
    static final String[] KINDS = {"kettle", "blender", "headset", "lantern", "backpack", "smartwatch", "toaster", "tent"};
    static final String[] ADJ = {"compact", "sturdy", "lightweight", "quiet", "rugged", "sleek", "versatile", "durable"};
    static final String[] FEATURES = {"a brushed steel body", "two speed settings", "a padded strap", "a fold-flat frame",
            "a water-resistant shell", "a long-lasting battery", "an easy-grip handle", "a removable filter",
            "a bright display", "reinforced seams"};
    static final String[] USES = {"weekend trips", "busy mornings", "long commutes", "small kitchens", "daily training",
            "family camping", "home offices", "rainy hikes"};

    /** One defect of the scripted model per planted pattern: shows any variant, fixed by removing it. */
    static ScriptedCatalogModel model() {
        List<ScriptedCatalogModel.Defect> defects = new ArrayList<>();
        for (Planted p : PLANTED) {
            defects.add(new ScriptedCatalogModel.Defect(p.criterion(), p.issue(),
                    t -> p.variants().stream().anyMatch(t::contains),
                    t -> {
                        String out = t;
                        for (String v : p.variants()) {
                            out = out.replace(" " + v, "").replace(v, "");
                        }
                        return out.strip();
                    }));
        }
        return new ScriptedCatalogModel(defects);
    }

    @Test
    void narrowingSendsAtMostAQuarterOfTheEligibleItemsAndKeepsWhatAFullScanMatches() throws Exception {
        // given 600 items, each planted pattern on 8 % of them (a few items carry two)
        Random random = new Random(42);
        int n = 600;
        List<String> texts = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            String brand = BRANDS[random.nextInt(BRANDS.length)];
            String kind = KINDS[random.nextInt(KINDS.length)];
            texts.add("The " + brand + " " + ADJ[random.nextInt(ADJ.length)] + " " + kind + " " + (100 + i) + " has "
                    + FEATURES[random.nextInt(FEATURES.length)] + " and " + FEATURES[random.nextInt(FEATURES.length)]
                    + ". It suits " + USES[random.nextInt(USES.length)] + " and costs $" + (10 + random.nextInt(190))
                    + ".99. " + (random.nextBoolean() ? "A " + (1 + random.nextInt(4)) + "-year warranty is included." : ""));
        }
        for (Planted p : PLANTED) {
            for (int k = 0; k < n * 8 / 100; k++) {
                int i = random.nextInt(n);
                String v = p.variants().get(random.nextInt(p.variants().size()));
                if (!texts.get(i).contains(v)) {
                    texts.set(i, texts.get(i).strip() + " " + v);
                }
            }
        }
        ScriptedCatalogModel scripted = model();
        // the round's sample: every tenth item; its failing items of each pattern give the evidence
        Set<Integer> sample = new HashSet<>();
        for (int i = 0; i < n; i += 10) {
            sample.add(i);
        }
        List<PatternNarrowing.Evidence> evidence = new ArrayList<>();
        List<String> paraphrases = List.of("the text %s: \"%s\"", "%s, namely \"%s\"", "it %s ('%s')");
        for (int pNo = 0; pNo < PLANTED.size(); pNo++) {
            Planted p = PLANTED.get(pNo);
            List<FixExample> fixes = new ArrayList<>();
            List<String> issues = new ArrayList<>();
            List<String> failing = new ArrayList<>();
            for (int i : sample) {
                String t = texts.get(i);
                String variant = p.variants().stream().filter(t::contains).findFirst().orElse(null);
                if (variant != null) {
                    failing.add(t);
                    fixes.add(new FixExample(t, scripted.fixAll(t)));
                    issues.add(p.criterion() + ": " + paraphrases.get(issues.size() % 3).formatted(p.issue(), variant));
                }
            }
            assertThat(failing).as("pattern %d is systematic in the sample", pNo + 1).hasSizeGreaterThanOrEqualTo(2);
            evidence.add(new PatternNarrowing.Evidence(pNo + 1, issues, fixes, failing));
        }
        List<PatternNarrowing.Item> eligible = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            if (!sample.contains(i)) {
                eligible.add(new PatternNarrowing.Item("P" + i, texts.get(i)));
            }
        }
        Map<String, String> byId = new LinkedHashMap<>();
        eligible.forEach(e -> byId.put(e.id(), e.content()));

        try (ScriptedServer server = ScriptedServer.answering(scripted::answer)) {
            LlmMatcher matcher = new LlmMatcher(LlmClient.create(LlmFixtures.model(server.baseUrl()), LlmRoles.MATCHER,
                    new CallGovernor(LlmFixtures.FAST), LlmFixtures.ENV));

            // when the narrowing picks candidates, and the matcher is asked about each
            Map<Integer, List<String>> candidates = PatternNarrowing.candidates(evidence, eligible, 0.25);

            for (int pNo = 1; pNo <= PLANTED.size(); pNo++) {
                Planted p = PLANTED.get(pNo - 1);
                // the full scan: the same matcher on every eligible item
                Set<String> fullScan = matched(matcher, p, eligible.stream().map(PatternNarrowing.Item::id).toList(), byId);
                int before = server.requests().size();
                Set<String> narrowed = matched(matcher, p, candidates.get(pNo), byId);
                int calls = server.requests().size() - before;
                System.out.printf("matcher economics, pattern %d: %d eligible, full scan matches %d; %d calls (%.1f %%)"
                        + " find %d of them%n", pNo, eligible.size(), fullScan.size(), calls,
                        100.0 * calls / eligible.size(), narrowed.stream().filter(fullScan::contains).count());

                // then: few calls, nearly everything the full scan finds
                assertThat(fullScan.size()).as("pattern %d touches at most 10 %% of the items", pNo)
                        .isPositive().isLessThanOrEqualTo(n / 10);
                assertThat(calls).as("matcher calls for pattern %d", pNo).isLessThanOrEqualTo(eligible.size() / 4);
                Set<String> kept = new HashSet<>(fullScan);
                kept.retainAll(narrowed);
                assertThat(kept.size()).as("pattern %d: narrowing keeps %d of %d full-scan matches with %d calls", pNo,
                        kept.size(), fullScan.size(), calls).isGreaterThanOrEqualTo((int) Math.ceil(0.95 * fullScan.size()));
            }
        }
    }

    /** The ids the matcher says show the pattern, asked 16 at a time. */
    private static Set<String> matched(LlmMatcher matcher, Planted p, List<String> ids, Map<String, String> byId)
            throws Exception {
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(16);
        try {
            List<java.util.concurrent.Future<String>> futures = new ArrayList<>();
            for (String id : ids) {
                futures.add(pool.submit(() -> match(matcher, p, byId.get(id)) instanceof MatchOutcome.Matched ? id : null));
            }
            Set<String> out = new HashSet<>();
            for (var f : futures) {
                String id = f.get();
                if (id != null) {
                    out.add(id);
                }
            }
            return out;
        } finally {
            pool.shutdown();
        }
    }

    private static MatchOutcome match(LlmMatcher matcher, Planted p, String content) {
        return matcher.match(new MatchRequest(p.criterion(), p.criterion() + ": " + p.issue(), List.of(),
                "Write a product description.", Map.of("name", "x"), content));
    }
}
