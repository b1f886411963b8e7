package dev.santabatch.export;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.santabatch.sampling.StratumStore;
import dev.santabatch.rounds.Decision;
import dev.santabatch.rounds.LoopStore;
import dev.santabatch.persistence.Store;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.h2.jdbcx.JdbcDataSource;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code report.json}'s {@code strata} and the catalog's bound of a run with a covered stratum,
 * against hand-computed values (α = 0.05 shared over H strata; StratumBoundTests has the arithmetic).
 */
class StrataReportTests {

    Store store;
    LoopStore loop;
    StratumStore strata;
    long runPk;

    @BeforeEach
    void aStore() {
        JdbcDataSource ds = new JdbcDataSource();
        ds.setURL("jdbc:h2:mem:strata-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
        store = new Store(ds);
        dev.santabatch.persistence.StoreSchema.migrate(ds);
        loop = new LoopStore(store.jdbc());
        strata = new StratumStore(store.jdbc());
        long earlier = store.createRunIfAbsent(new Store.RunRow(0, "nightly", "monday", "job.yml", "in.csv", "out", 1,
                Instant.now(), null, null)).runPk();
        runPk = store.createRunIfAbsent(new Store.RunRow(0, "nightly", "tuesday", "job.yml", "in.csv", "out", 1,
                Instant.now(), null, null)).runPk();
        // round 1 drew 120 of 1,000 changed items and 72 of 9,000 covered ones (H = 2, first look)
        strata.insert(new StratumStore.Draw(runPk, 1, 2, 0.05, 9000, 72, 1, earlier, 12L, 1000, 120, false, null, null,
                null, null));
        // its 9,000 members, the 72 sampled NICE at export (reviewed): 8,928 covered at export
        List<Integer> members = java.util.stream.IntStream.range(0, 9000).boxed().toList();
        store.jdbc().batchUpdate("INSERT INTO sb_item (run_pk, item_id, record_index, line, fields, state, current_rev, carry)"
                + " VALUES (?, ?, ?, ?, '', ?, 0, 'covered')", members, 1000, (ps, i) -> {
                    ps.setLong(1, runPk);
                    ps.setString(2, "c" + i);
                    ps.setLong(3, i);
                    ps.setLong(4, i + 2);
                    ps.setString(5, i < 72 ? "NICE" : "ACTIVE");
                });
    }

    private List<LoopStore.Round> rounds(String... decisions) {
        for (int i = 0; i < decisions.length; i++) {
            loop.insertRound(runPk, i == 0 ? new LoopStore.Round(1, 7, 10_000, 192, false, "", null)
                    : new LoopStore.Round(i + 1, 7, 8000, 960, false, "", null));
            loop.decide(runPk, i + 1, decisions[i]);
            loop.recordAcceptance(runPk, i + 1, new LoopStore.Acceptance(7, 0));
        }
        return loop.rounds(runPk);
    }

    /**
     * The report of the run whose covered sample had {@code failures} (reopened in {@code reopenedRound}),
     * whose changed stratum's last decision was {@code changedOutcome}, and whose rounds were decided so.
     */
    private @Nullable StrataReport report(int failures, @Nullable Integer reopenedRound, String changedOutcome, String status,
            String... decisions) {
        strata.decide(runPk, failures, 0, reopenedRound);
        strata.changedOutcome(runPk, changedOutcome);
        return StrataReport.of(store, loop, runPk, status, rounds(decisions));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> stratum(Map<String, Object> block, String name) {
        return ((List<Map<String, Object>>) block.get("per_stratum")).stream().filter(s -> name.equals(s.get("name")))
                .findFirst().orElseThrow();
    }

    private static @Nullable Object catalogBound(Map<String, Object> block) {
        return ((Map<?, ?>) block.get("catalog")).get("defect_rate_below");
    }

    @Test
    void aCleanRunStatesEachStratumsBoundAndTheCatalogsWeightedMean() {
        // given round 1 clean in both strata
        StrataReport r = report(0, null, Decision.CLEAN, RunReport.CLEAN, Decision.CLEAN);

        // then changed: 1 − 0.025^(1/120) = 0.0302730; covered: 1 − 0.025^(1/72) = 0.0499441, over the 8,928
        // members at export; catalog: (1000 · 0.0302730 + 8928 · 0.0499441) / 9928 = 0.0479627
        Map<String, Object> block = RunReportBoundTests.tree(r.block());
        assertThat(block).containsEntry("strata_sampled", 2).containsEntry("target_bound", 0.05);
        Map<String, Object> changed = stratum(block, "changed");
        assertThat(changed).containsEntry("items", 1000L).containsEntry("sampled", 120).containsEntry("looks", 1)
                .containsEntry("failures", 0).containsEntry("reopened", false);
        assertThat((Double) changed.get("bound")).isCloseTo(0.0302730, within(1e-7));
        Map<String, Object> covered = stratum(block, "covered");
        assertThat(covered).containsEntry("items", 9000L).containsEntry("sampled", 72).containsEntry("looks", 1)
                .containsEntry("failures", 0).containsEntry("reopened", false).containsEntry("previous_look", "monday")
                .containsEntry("entered_since_previous_look", 12L);
        assertThat((Double) covered.get("bound")).isCloseTo(0.0499441, within(1e-7));
        assertThat(((Map<?, ?>) covered.get("covers")).get("items")).isEqualTo(8928L);
        assertThat((Double) catalogBound(block)).isCloseTo(0.0479627, within(1e-7));
        Map<String, Object> bound = RunReportBoundTests.tree(r.bound());
        assertThat(bound).containsEntry("stated", true).containsEntry("eligible", 9928L);
        assertThat((Double) bound.get("defect_rate_below")).isEqualTo(catalogBound(block));
        assertThat((String) bound.get("sentence")).startsWith("Among the 9928 items the strata's samples cover")
                .contains("below 4.80 %").contains("changed: 1000 items, below 3.03 %").contains("covered: 8928 items, below 4.99 %");
        assertThat(StrataReport.summary(r.block())).containsExactly("strata:   changed 1000 items, 120 sampled,"
                + " bound 3.03 %; covered 9000 items, 72 sampled (look 1), bound 4.99 %; catalog bound 4.80 % (95 %)");
    }

    @Test
    void reportHtmlShowsTheStrataUnderMoreFigures() {
        StrataReport r = report(0, null, Decision.CLEAN, RunReport.CLEAN, Decision.CLEAN);
        Map<String, Object> report = new java.util.LinkedHashMap<>();
        HtmlReportTests.cleanReport("x").forEach((k, v) -> {
            report.put(k, v);
            if (k.equals("outputs")) {
                report.put("strata", RunReportBoundTests.tree(r.block()));
            }
        });

        String html = HtmlReport.render(report, List.of());

        String more = html.substring(html.indexOf("<h2>More figures</h2>"));
        assertThat(more).contains("<h3>strata</h3>").contains("<th>per stratum</th>")
                .contains("<td>covered</td><td>9,000</td><td>72</td><td>1</td><td>0</td><td>false</td><td>0.0499</td>");
    }

    @Test
    void aReopenedCoveredStratumHasNoBoundOfItsOwnAndItsItemsAreInTheChangedStratumsLastRound() {
        // given a failure in the covered sample: reopened in round 1; round 2 (8,000 items, both strata's) clean
        StrataReport r = report(3, 1, Decision.CLEAN, RunReport.CLEAN, Decision.CONTINUE, Decision.CLEAN);

        // then covered: reopened, no bound; changed: 960 of 8,000 clean after 2 rounds, H = 2:
        // 1 − (0.05 / 4)^(1/960) = 1 − exp(−4.382027 / 960) = 1 − 0.9954458 = 0.0045542, the catalog's bound
        Map<String, Object> block = RunReportBoundTests.tree(r.block());
        assertThat(stratum(block, "covered")).containsEntry("reopened", true).containsEntry("reopened_in_round", 1)
                .containsEntry("failures", 3).containsEntry("bound", null);
        Map<String, Object> changed = stratum(block, "changed");
        assertThat(changed).containsEntry("items", 8000L).containsEntry("sampled", 960).containsEntry("looks", 2);
        assertThat((Double) changed.get("bound")).isCloseTo(0.0045542, within(1e-7));
        assertThat((Double) catalogBound(block)).isEqualTo(changed.get("bound"));
        assertThat(StrataReport.summary(r.block()).get(0)).contains("covered 9000 items, 72 sampled (look 1),"
                + " 3 failed: reopened in round 1");
    }

    @Test
    void aChangedStratumReviewedInFullBoundsNothingAndTheCoveredOneCarriesTheCatalog() {
        // given every changed item reviewed in round 1 (nothing left eligible) and the covered sample clean
        StrataReport r = report(0, null, Decision.FULLY_REVIEWED, RunReport.CLEAN, Decision.CLEAN);

        // then the changed stratum's bound is 0, and the catalog's 8928 / 9928 · 0.0499441 = 0.0449135
        Map<String, Object> block = RunReportBoundTests.tree(r.block());
        assertThat(stratum(block, "changed")).containsEntry("bound", 0.0).containsEntry("reviewed_in_full", true);
        assertThat((Double) catalogBound(block)).isCloseTo(0.0449135, within(1e-7));
        assertThat(r.bound().sentence()).contains("changed: 1000 items, reviewed in full");
    }

    @Test
    void aRunThatDidNotEndCleanStatesNoBound() {
        StrataReport r = report(0, null, Decision.NOT_CLEAN, RunReport.NOT_CLEAN, Decision.NOT_CLEAN);

        assertThat(stratum(RunReportBoundTests.tree(r.block()), "changed")).containsEntry("bound", null);
        assertThat(stratum(RunReportBoundTests.tree(r.block()), "covered")).containsEntry("bound", null);
        Map<?, ?> catalog = (Map<?, ?>) RunReportBoundTests.tree(r.block()).get("catalog");
        assertThat(catalog.get("stated")).isEqualTo(false);
        assertThat(catalog.get("why")).isEqualTo("no clean sample: no bound can be stated");
        assertThat(r.bound()).isNull();
    }

    @Test
    void aRunWithoutACoveredStratumHasNoStrata() {
        store.jdbc().update("DELETE FROM sb_stratum");

        assertThat(StrataReport.of(store, loop, runPk, RunReport.CLEAN, rounds(Decision.CLEAN))).isNull();
    }
}
