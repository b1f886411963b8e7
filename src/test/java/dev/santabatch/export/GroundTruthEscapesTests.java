package dev.santabatch.export;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The ground-truth figures name what they count: the escape rate over planted defects of shipped
 * items and over all shipped items, and the false-hold rate over items planted clean and over items
 * with no planted defect left after the rules pre-pass.
 */
class GroundTruthEscapesTests {

    static final String DRIFT = "Our founder once sailed around the world in a paper boat made of recycled tickets.";

    @TempDir
    Path dir;

    /**
     * A1, A2: a forbidden term the pre-pass fixed; A1 then held by the reviewers, A2 shipped. A3:
     * a drift sentence shipped unchanged (escaped). A4: a wrong number the pre-pass fixed and a
     * drift sentence a reviewer fix removed, shipped. C1-C3 planted clean, C2 held.
     */
    GroundTruthEscapes scenario() throws Exception {
        Path truth = dir.resolve("truth.csv");
        Files.writeString(truth, String.join("\n",
                "id,kind,detail,wrong,truth,group",
                "A1,forbidden-term,risk-free,Risk-Free,low-risk,",
                "A2,forbidden-term,risk-free,Risk-Free,low-risk,",
                "A3,drift-sentence,,\"" + DRIFT + "\",,",
                "A4,wrong-number,warranty_years,1,5,",
                "A4,drift-sentence,,\"" + DRIFT + "\",,",
                ""));
        GroundTruthEscapes g = new GroundTruthEscapes(truth);
        String a1 = "The Lamp is Risk-Free and bright.";
        String a2 = "The Kettle is Risk-Free and quick.";
        String a3 = "The Fan is quiet. " + DRIFT;
        String a4 = "The Drill has a 1-year warranty. " + DRIFT;
        // the rules pre-pass's revisions
        g.afterPrePass("A1", "The Lamp is low-risk and bright.");
        g.afterPrePass("A2", "The Kettle is low-risk and quick.");
        g.afterPrePass("A4", "The Drill has a 5-year warranty. " + DRIFT);
        g.afterPrePass("C1", "a clean item's rules fix: not planted, ignored");
        g.offer("A1", a1, null);
        g.offer("A2", a2, "The Kettle is low-risk and quick.");
        g.offer("A3", a3, a3);
        g.offer("A4", a4, "The Drill has a 5-year warranty.");
        g.offer("C1", "Clean one.", "Clean one.");
        g.offer("C2", "Clean two.", null);
        g.offer("C3", "Clean three.", "Clean three.");
        return g;
    }

    @Test
    void theEscapeRateNamesItsDenominatorAndIsAlsoGivenOverAllShippedItems() throws Exception {
        Map<String, Object> r = RunReportBoundTests.tree(scenario().result());

        // 4 planted defects in shipped items (A2 1, A3 1, A4 2), 1 escaped
        assertThat(r.get("escape_rate")).isEqualTo(0.25);
        assertThat(r.get("escape_rate_denominator")).asString().contains("planted defects").contains("shipped items");
        assertThat(r.get("shipped_planted_defects")).isEqualTo(4L);
        assertThat(r.get("escaped_defects")).isEqualTo(1L);
        // 5 shipped items (A2, A3, A4, C1, C3), 1 of them still carrying a planted defect (A3)
        assertThat(r.get("escape_rate_of_shipped")).isEqualTo(0.2);
        assertThat(r.get("escape_rate_of_shipped_denominator")).asString().contains("all shipped items");
        assertThat(r.get("shipped_items")).isEqualTo(5L);
        assertThat(r.get("escaped_items")).isEqualTo(1L);
        @SuppressWarnings("unchecked")
        Map<String, Map<String, Object>> byKind = (Map<String, Map<String, Object>>) r.get("by_kind");
        assertThat(byKind.get("drift-sentence")).containsEntry("escape_rate_of_shipped", 0.2).containsEntry("escaped_items", 1L);
        assertThat(byKind.get("forbidden-term")).containsEntry("escape_rate_of_shipped", 0.0);
        // and the summary says which rate is which
        assertThat(RunReport.summary((Report) RunReport.of(report(r)))).anySatisfy(l -> assertThat(l).startsWith("ground truth:")
                .contains("escape rate 25.0 % of planted defects in shipped items, 20.0 % of all shipped items"));
    }

    @Test
    void itemsHeldAfterThePrePassFixedEveryPlantedDefectAreCountedAndASecondFalseHoldRateCountsThem()
            throws Exception {
        Map<String, Object> r = RunReportBoundTests.tree(scenario().result());

        // the original rate: planted-clean items held, 1 of 3
        assertThat(r.get("false_hold_rate")).isEqualTo(1 / 3.0);
        assertThat(r.get("false_hold_rate_denominator")).asString().contains("planted with no defect");
        assertThat(r.get("clean_items")).isEqualTo(3L);
        assertThat(r.get("clean_items_held")).isEqualTo(1L);
        // A1 and A2 had no planted defect left after the pre-pass (A4 still had its drift); A1 was held
        assertThat(r.get("prepass_fixed_all_planted")).isEqualTo(2L);
        assertThat(r.get("held_after_prepass_fixed_all_planted")).isEqualTo(1L);
        // counted as false holds: (1 + 1) of (3 + 2)
        assertThat(r.get("false_hold_rate_after_prepass")).isEqualTo(0.4);
        assertThat(r.get("false_hold_rate_after_prepass_denominator")).asString().contains("after the pre-pass");
        assertThat(RunReport.summary((Report) RunReport.of(report(r)))).anySatisfy(l -> assertThat(l)
                .contains("false holds 33.3 % of items planted clean, 40.0 % of items clean after the pre-pass"
                        + " (1 held whose planted defects the pre-pass fixed)"));
    }

    /** A report with the ground truth's figures and what the summary reads besides. */
    static Map<String, Object> report(Map<String, Object> truth) {
        Map<String, Object> run = new java.util.LinkedHashMap<>();
        run.put("rounds", 1);
        run.put("bound", Map.of("stated", false, "why", "no clean sample"));
        run.put("agreement", Map.of("kappa", "undefined", "flagged_by_all", 0, "flagged_by_one", 0));
        Map<String, Object> r = new java.util.LinkedHashMap<>();
        r.put("status", "not-clean");
        r.put("input", Map.of("records", 7, "items", 7, "rejects", 0));
        r.put("outputs", Map.of("shipped", 5, "held", 2));
        r.put("run", run);
        r.put("escape_rates_against_ground_truth", truth);
        return r;
    }
}
