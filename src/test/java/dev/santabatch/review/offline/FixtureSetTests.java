package dev.santabatch.review.offline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.santabatch.review.offline.FixtureSet.Fixture;
import dev.santabatch.text.Shingles;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Issue 4's objective difficulty of the hand-written fixture set, checked on the set as the panel
 * floor uses it ({@link PanelFloorTests}: both fixture files, inside the sample catalog): at least
 * 10 paraphrased boilerplate pairs (word 3-shingle Jaccard at most 0.2), 10 copies or light edits
 * (pairs that keep most of their shingles, Jaccard at least 0.6), 10 drift sentences sharing no
 * token with any other item's name or brand, 10 drift sentences naming another product, and 10 clean
 * texts that mention a competitor by name and brand.
 */
class FixtureSetTests {

    @Test
    void theFixtureSetHasTheRequiredCasesWithObjectiveDifficulty() throws Exception {
        FixtureSet set = FixtureSet.load();
        Map<String, Fixture> f = set.fixtures;
        // the catalog the panel reviews the fixtures in: the sample plus the fixtures
        Map<String, SnapshotItem> catalog = new LinkedHashMap<>(MemorySnapshot.items(MemorySnapshot.records(Path.of("sample-data/products.csv")),
                "id", "description", MemorySnapshot.PRODUCT_SOURCE));
        catalog.putAll(set.items);
        assertThat(catalog).hasSize(1200 + 124);

        Map<String, Integer> count = new HashMap<>();
        List<String> failures = new ArrayList<>();
        Set<Set<String>> paraphrasePairs = new HashSet<>();
        Set<Set<String>> copyPairs = new HashSet<>();
        for (Fixture x : f.values()) {
            String kind = x.kind().replace("semantic-cases ", "");
            switch (kind) {
                case "paraphrase" -> {
                    Fixture o = f.get(x.other());
                    assertThat(o).as("%s is paired", x.id()).isNotNull();
                    assertThat(o.other()).isEqualTo(x.id());
                    double j = Shingles.jaccard(Shingles.of(x.passage()), Shingles.of(o.passage()));
                    if (j <= 0.2) {
                        paraphrasePairs.add(Set.of(x.id(), o.id()));
                    } else {
                        failures.add(x.id() + " paraphrase Jaccard " + j);
                    }
                }
                case "copy" -> {
                    Fixture o = f.get(x.other());
                    double j = Shingles.jaccard(Shingles.of(x.content()), Shingles.of(o.content()));
                    if (j >= 0.6) {
                        copyPairs.add(Set.of(x.id(), o.id()));
                    } else {
                        failures.add(x.id() + " copy Jaccard " + j);
                    }
                }
                case "drift-unnamed", "drift" -> {
                    assertThat(x.content()).contains(x.passage());
                    Set<String> tokens = new HashSet<>(Shingles.words(x.passage()));
                    List<String> shared = new ArrayList<>();
                    for (SnapshotItem it : catalog.values()) {
                        if (!it.id().equals(x.id())) {
                            for (String w : Shingles.words(it.source().get("name") + " " + it.source().get("brand"))) {
                                if (tokens.contains(w)) {
                                    shared.add(w + " (" + it.id() + ")");
                                }
                            }
                        }
                    }
                    if (shared.isEmpty()) {
                        count.merge("unnamed drift", 1, Integer::sum);
                    } else {
                        failures.add(x.id() + " drift shares " + shared.subList(0, Math.min(3, shared.size())));
                    }
                }
                case "drift-named", "competitor-clean" -> {
                    Fixture o = f.get(x.other());
                    if (x.content().contains(o.name()) && x.content().contains(o.brand()) && !x.name().equals(o.name())) {
                        count.merge(kind, 1, Integer::sum);
                    } else {
                        failures.add(x.id() + " does not name " + o.name() + " by " + o.brand());
                    }
                    assertThat(x.kase().clean()).isEqualTo(kind.equals("competitor-clean"));
                }
                default -> count.merge("clean " + kind, 1, Integer::sum);
            }
        }
        System.out.printf("fixture set: %d paraphrase pairs (Jaccard <= 0.2), %d copy/light-edit pairs (Jaccard >= 0.6), %s; not meeting the bar: %s%n",
                paraphrasePairs.size(), copyPairs.size(), count, failures);
        assertThat(paraphrasePairs).hasSizeGreaterThanOrEqualTo(10);
        assertThat(copyPairs).hasSizeGreaterThanOrEqualTo(10);
        assertThat(count.getOrDefault("unnamed drift", 0)).isGreaterThanOrEqualTo(10);
        assertThat(count.getOrDefault("drift-named", 0)).isGreaterThanOrEqualTo(10);
        assertThat(count.getOrDefault("competitor-clean", 0)).isGreaterThanOrEqualTo(10);
    }

    /**
     * The clean-text set of {@link FixtureSet#cleanLargeCategories()}, as {@link PanelFloorTests}
     * reviews it (inside the sample catalog): at least 40 clean texts and 10 unnamed drift texts,
     * every one in a category with at least the job's {@code min-category-peers} other items (so the
     * semantic off-topic test is on for all of them); drift sentences that are part of their text and
     * share no token with any other item's name or brand; competitor mentions that name the
     * competitor; names and brands of their own (none of the sample's); and texts the job's rules
     * leave unchanged (clean on every rules criterion, numbers consistent with their source).
     */
    @Test
    void theCleanTextSetIsInCategoriesWhereTheOffTopicTestIsOn() throws Exception {
        FixtureSet set = FixtureSet.cleanLargeCategories();
        Map<String, SnapshotItem> sample = MemorySnapshot.items(MemorySnapshot.records(Path.of("sample-data/products.csv")),
                "id", "description", MemorySnapshot.PRODUCT_SOURCE);
        Map<String, SnapshotItem> catalog = new LinkedHashMap<>(sample);
        catalog.putAll(set.items);
        assertThat(catalog).hasSize(1200 + 66);
        dev.santabatch.config.JobDefinition job = dev.santabatch.config.JobFileLoader.load(PanelFloorTests.JOB);
        int minPeers = job.reviewers().stream().filter(r -> r.type().equals("semantic")).findFirst().orElseThrow()
                .thresholds().get("min-category-peers").intValue();
        dev.santabatch.prepass.rules.RuleEngine rules = dev.santabatch.prepass.rules.RuleEngine.forJob(job);
        Map<String, Integer> perCategory = new HashMap<>();
        catalog.values().forEach(it -> perCategory.merge(it.category(), 1, Integer::sum));
        Set<String> sampleNames = new HashSet<>();
        sample.values().forEach(it -> {
            sampleNames.add(it.source().get("name"));
            sampleNames.add(it.source().get("brand"));
        });
        Map<String, Integer> count = new HashMap<>();
        for (Fixture x : set.fixtures.values()) {
            SnapshotItem it = set.items.get(x.id());
            assertThat(perCategory.get(it.category()) - 1).as("other items in %s's category %s", x.id(), it.category())
                    .isGreaterThanOrEqualTo(minPeers);
            assertThat(sampleNames).as("%s has a name and brand of its own", x.id()).doesNotContain(x.name(), x.brand());
            dev.santabatch.prepass.rules.RuleOutcome o = rules.apply(it.content(), it.source());
            assertThat(o.changed() || o.mustEscalate()).as("the job's rules change or hold %s: %s", x.id(), o.rules()).isFalse();
            count.merge(x.kind(), 1, Integer::sum);
            switch (x.kind()) {
                case "drift" -> {
                    assertThat(x.content()).contains(x.passage());
                    assertThat(x.passage()).isNotEqualTo(x.content());
                    Set<String> tokens = new HashSet<>(Shingles.words(x.passage()));
                    for (SnapshotItem other : catalog.values()) {
                        if (!other.id().equals(x.id())) {
                            Set<String> shared = new HashSet<>(Shingles.words(other.source().get("name") + " " + other.source().get("brand")));
                            shared.retainAll(tokens);
                            assertThat(shared).as("drift of %s shares tokens with %s's name or brand", x.id(), other.id()).isEmpty();
                        }
                    }
                }
                case "competitor-clean" -> {
                    assertThat(x.content()).contains(x.passage());
                    assertThat(x.other()).as("%s says whom it mentions", x.id()).isNotEmpty();
                    String competitor = x.other().replaceAll(" \\(.*\\)$", "");
                    String[] nameBy = competitor.split(" by ");
                    assertThat(nameBy.length == 2 ? x.passage().contains(nameBy[0]) && x.passage().contains(nameBy[1]) : x.passage().contains(competitor))
                            .as("%s's passage names %s", x.id(), competitor).isTrue();
                }
                default -> assertThat(x.kind()).isEqualTo("clean");
            }
        }
        System.out.printf("clean-text set: %s in categories %s%n", count, perCategory);
        assertThat(count.get("clean") + count.get("competitor-clean")).isGreaterThanOrEqualTo(40);
        assertThat(count.get("competitor-clean")).isGreaterThanOrEqualTo(10);
        assertThat(count.get("drift")).isGreaterThanOrEqualTo(10);
    }
}
