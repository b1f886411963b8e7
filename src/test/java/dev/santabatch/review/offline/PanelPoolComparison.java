package dev.santabatch.review.offline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.santabatch.eval.SampleCatalogGenerator;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Dev harness (not part of the test run: {@code -Dtest=PanelPoolComparison}): the panel floor's
 * harness ({@link PanelFloorTests}: the job's pre-pass, both offline reviewers, the same scoring) on
 * generator catalogs of the tuning pools, for comparison with the held-out figures. {@code -Dpools=}
 * a comma-separated list of {@code POOL:seed}, default {@code SAMPLE:20261130,HELD_OUT:2027}
 * ({@code SAMPLE:20261130} is the bundled sample). It refuses the {@code FRESH} pool: that is the
 * floor tests' held-out pool and no tool may look at it outside them.
 */
class PanelPoolComparison {

    @Test
    void compare() throws Exception {
        PanelFloorTests t = new PanelFloorTests();
        t.setUp();
        try {
            for (String spec : System.getProperty("pools", "SAMPLE:20261130,HELD_OUT:2027").split(",")) {
                String[] p = spec.split(":");
                SampleCatalogGenerator.Vocabulary pool = SampleCatalogGenerator.Vocabulary.valueOf(p[0]);
                assertThat(pool).as("the FRESH pool is for the floor tests only").isNotEqualTo(SampleCatalogGenerator.Vocabulary.FRESH);
                Map<String, SnapshotItem> items = new LinkedHashMap<>();
                Map<String, FixtureSet.Case> cases = PanelFloorTests.generatorCatalog(pool, Long.parseLong(p[1]), items);
                t.run(pool + " pool, seed " + p[1], items, cases);
            }
        } finally {
            t.tearDown();
        }
    }
}
