package dev.santabatch.offline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.santabatch.offline.FixtureSet.Fixture;
import dev.santabatch.sampledata.Shingles;
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
}
