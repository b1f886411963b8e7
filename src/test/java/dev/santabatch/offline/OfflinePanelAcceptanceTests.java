package dev.santabatch.offline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.santabatch.bench.OfflinePanelBenchmark;
import dev.santabatch.bench.OfflinePanelBenchmark.Figures;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 18's acceptance of the offline panel, on smaller catalogs than {@link OfflinePanelBenchmark} (which
 * prints the figures of full-size catalogs, docs/benchmarks.md): the real offline job (lexical B, semantic C
 * at their defaults, the offline fixer) reviews every item of a generated catalog once, end to end through
 * the command line, and its outputs are scored against the generator's ground truth. On a catalog of a
 * domain no offline threshold was derived on (templated listings of the listing generator's {@code HELD_OUT}
 * pool, whose clean texts share sentence templates and house-style lines) and on one of the product
 * generator's {@code SAMPLE} pool: the panel holds at most 2 % of the clean items, and catches (holds, or
 * ships without) at least 0.90 of the planted boilerplate and of the sentences naming another item's value of
 * a text-valued column (another listing's city, another product's name).
 */
class OfflinePanelAcceptanceTests {

    static final int ROWS = 400;

    @Test
    void onTemplatedListingsOfAnotherDomainThePanelHoldsFewCleanItemsAndCatchesBoilerplateAndNamedDrift(@TempDir Path dir)
            throws Exception {
        assertAcceptance(OfflinePanelBenchmark.measure(OfflinePanelBenchmark.DOMAINS.get("listings"), 7, ROWS, dir));
    }

    @Test
    void onTheProductCatalogThePanelHoldsFewCleanItemsAndCatchesBoilerplateAndNamedDrift(@TempDir Path dir) throws Exception {
        assertAcceptance(OfflinePanelBenchmark.measure(OfflinePanelBenchmark.DOMAINS.get("products"), 7, ROWS, dir));
    }

    private static void assertAcceptance(Figures f) {
        System.out.println(f.line());
        assertThat(f.clean()).as(f.line()).isGreaterThan(ROWS / 2);
        assertThat(f.boilerplate()).as(f.line()).isGreaterThanOrEqualTo(8);
        assertThat(f.named()).as(f.line()).isGreaterThanOrEqualTo(8);
        assertThat(f.falseHoldShare()).as(f.line()).isLessThanOrEqualTo(0.02);
        assertThat(f.boilerplateRecall()).as(f.line()).isGreaterThanOrEqualTo(0.90);
        assertThat(f.namedRecall()).as(f.line()).isGreaterThanOrEqualTo(0.90);
    }
}
