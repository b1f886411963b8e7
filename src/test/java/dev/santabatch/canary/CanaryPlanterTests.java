package dev.santabatch.canary;

import static org.assertj.core.api.Assertions.assertThat;

import dev.santabatch.config.CanaryKind;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class CanaryPlanterTests {

    static final List<CanaryPlanter.Plant> PLANTS = List.of(
            new CanaryPlanter.Plant(CanaryKind.FOREIGN_SENTENCE, "on-specification"),
            new CanaryPlanter.Plant(CanaryKind.BOILERPLATE, "original"),
            new CanaryPlanter.Plant(CanaryKind.CHANGED_NUMBER, "factual-accuracy"));

    static List<CanaryPlanter.Item> items(int n) {
        List<CanaryPlanter.Item> out = new ArrayList<>();
        for (int i = 1; i <= n; i++) {
            Map<String, String> source = new LinkedHashMap<>();
            source.put("name", "Widget" + (char) ('A' + i));
            source.put("brand", "Brand" + (char) ('A' + i));
            source.put("warranty_years", String.valueOf(1 + i % 4));
            String[] finish = {"matte black", "brushed steel", "walnut", "white oak", "sand grey", "forest green", "coral"};
            String[] box = {"cardboard", "paper", "recycled", "gift", "compact"};
            String text = "The Widget" + (char) ('A' + i) + " by Brand" + (char) ('A' + i) + " keeps your desk tidy. It comes with a "
                    + (1 + i % 4) + " year warranty. Its frame has a " + finish[i % 7] + " finish. It ships in a " + box[i % 5]
                    + " box.";
            out.add(new CanaryPlanter.Item("p" + i, source, text));
        }
        return out;
    }

    @Test
    void theSameSeedAndRoundDrawTheSameCanariesAndAnotherRoundOthers() {
        CanaryPlanter planter = new CanaryPlanter(PLANTS, List.of("warranty_years"));
        List<CanaryPlanter.Item> items = items(20);

        List<Canary> a = planter.plant(items, items, 8, 42, 1);
        List<Canary> b = planter.plant(items, items, 8, 42, 1);
        List<Canary> c = planter.plant(items, items, 8, 42, 2);

        assertThat(a).isEqualTo(b);
        assertThat(c).isNotEqualTo(a);
    }

    @Test
    void aQuarterAreCleanCopiesAndThePlantedOnesCarryOneDefectOfTheirKind() {
        CanaryPlanter planter = new CanaryPlanter(PLANTS, List.of("warranty_years"));
        List<CanaryPlanter.Item> items = items(20);
        Map<String, CanaryPlanter.Item> byId = items.stream().collect(Collectors.toMap(CanaryPlanter.Item::id, i -> i));

        List<Canary> canaries = planter.plant(items, items, 8, 7, 1);

        assertThat(canaries).hasSize(8);
        assertThat(canaries.stream().map(Canary::seq).toList()).containsExactly(1, 2, 3, 4, 5, 6, 7, 8);
        assertThat(canaries.stream().filter(c -> !c.planted())).hasSize(2)
                .allSatisfy(c -> assertThat(c.content()).isEqualTo(byId.get(c.itemId()).content()));
        Set<CanaryKind> kinds = canaries.stream().filter(Canary::planted).map(Canary::kind).collect(Collectors.toSet());
        assertThat(kinds).containsExactlyInAnyOrder(CanaryKind.values());
        for (Canary c : canaries) {
            CanaryPlanter.Item own = byId.get(c.itemId());
            assertThat(c.source()).as("reviewed with its item's id and source").isEqualTo(own.source());
            if (!c.planted()) {
                continue;
            }
            assertThat(c.content()).isNotEqualTo(own.content());
            switch (c.kind()) {
                case FOREIGN_SENTENCE -> {
                    CanaryPlanter.Item donor = byId.get(c.donorId());
                    // the donor's first sentence names it; the copy holds it beside all of its own text
                    assertThat(c.content()).contains(donor.content().substring(0, donor.content().indexOf('.') + 1))
                            .contains(own.content().substring(own.content().indexOf("Its frame")))
                            .contains(own.source().get("name"));
                    assertThat(c.criterion()).isEqualTo("on-specification");
                }
                case BOILERPLATE -> {
                    CanaryPlanter.Item donor = byId.get(c.donorId());
                    assertThat(c.content()).startsWith(own.content().substring(0, own.content().indexOf('.') + 1))
                            .contains(donor.content().substring(donor.content().indexOf("Its frame")))
                            .doesNotContain(donor.source().get("name"));
                    assertThat(c.criterion()).isEqualTo("original");
                }
                case CHANGED_NUMBER -> {
                    String w = own.source().get("warranty_years");
                    assertThat(c.content()).doesNotContain("a " + w + " year").isEqualTo(own.content()
                            .replace("a " + w + " year", c.content().substring(c.content().indexOf("with a ") + 7,
                                    c.content().indexOf(" year"))
                                    .transform(x -> "a " + x + " year")));
                    assertThat(c.criterion()).isEqualTo("factual-accuracy");
                }
            }
        }
    }

    @Test
    void noItemToCopyNoCanaryAndNoPlantsOnlyCleanCopies() {
        CanaryPlanter planter = new CanaryPlanter(PLANTS, List.of());
        assertThat(planter.plant(List.of(), items(5), 4, 1, 1)).isEmpty();

        List<Canary> clean = new CanaryPlanter(List.of(), List.of()).plant(items(5), items(5), 4, 1, 1);
        assertThat(clean).hasSize(1).allSatisfy(c -> assertThat(c.planted()).isFalse());
    }

    @Test
    void aFourthOfTheCanariesAreCleanAtLeastOne() {
        assertThat(CanaryPlanter.cleanOf(4)).isEqualTo(1);
        assertThat(CanaryPlanter.cleanOf(8)).isEqualTo(2);
        assertThat(CanaryPlanter.cleanOf(1)).isEqualTo(1);
        assertThat(CanaryPlanter.cleanOf(0)).isZero();
    }
}
