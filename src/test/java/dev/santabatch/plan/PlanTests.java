package dev.santabatch.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.santabatch.carry.CarryStore;
import dev.santabatch.history.RunSummary;
import dev.santabatch.history.RunSummaryStore;
import dev.santabatch.config.JobDefinition;
import dev.santabatch.config.JobFileLoader;
import dev.santabatch.model.SpendStore;
import dev.santabatch.review.ReviewRequest;
import dev.santabatch.rounds.LoopStore;
import dev.santabatch.stats.AcceptanceNumber;
import dev.santabatch.persistence.Store;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The plan's model of a run's calls and bounds against hand-computed values (docs/plan.md). */
class PlanTests {

    @TempDir
    Path dir;

    /** 1,000 changed items (600 in a, 400 in b) and 500 covered ones, at their first look. */
    private static Census census(int looks) {
        return new Census(1500, 3, List.of("n2"), Map.of("nice", 0L, "held", 0L, "covered", 500L), Map.of(), 0, 0,
                Map.of("a", 900L, "b", 600L), Map.of("a", 300L, "b", 200L), "n2", looks,
                List.of(new Census.PromptItem("a1", "A kettle that boils water fast.", Map.of("name", "Kettle"))));
    }

    /** First-pass rate 0.8 over three rounds, 2 matcher calls per predicted defect, covered strata never reopened. */
    private static final PlanHistory HISTORY = new PlanHistory(0.8,
            List.of(new PlanHistory.Run("n2", 0.8, 3, 2.0, false)), 3, 2.0, 0.0);

    @Test
    void roundOneSamplesTheChangedStratumAtTheRateAndTheCoveredOneAtItsFixedSize() throws Exception {
        Map<String, Object> plan = Plan.of(job(), "in.csv", census(1), HISTORY, new Plan.Options(true, 0.05)).toMap();

        List<?> strata = (List<?>) plan.get("strata");
        Map<?, ?> changed = (Map<?, ?>) strata.get(0);
        Map<?, ?> covered = (Map<?, ?>) strata.get(1);
        // 12 % of 1,000
        assertThat(changed.get("sample")).isEqualTo(120);
        // ceil(ln(0.05 / 2) / ln(1 - 0.05)) = ceil(71.9)
        assertThat(covered.get("sample")).isEqualTo(72);
        // 1 - (0.05 / 2)^(1/120) and 1 - (0.05 / 2)^(1/72)
        assertThat((Double) changed.get("bound_if_clean")).isCloseTo(0.030273, within(1e-6));
        assertThat((Double) covered.get("bound_if_clean")).isCloseTo(0.049944, within(1e-6));
        Map<?, ?> sample = (Map<?, ?>) plan.get("round_1_sample");
        assertThat(sample.get("size")).isEqualTo(192);
        assertThat(sample.get("by_category")).isEqualTo(Map.of("a", Map.of("eligible", 600, "sample", 72),
                "b", Map.of("eligible", 400, "sample", 48)));
        // weighted by the strata's items: (1000 x 0.030273 + 500 x 0.049944) / 1500
        assertThat((Double) sample.get("bound_if_clean")).isCloseTo(0.036830, within(1e-6));
        // both strata at their first look: ceil(ln(0.05 / (2 x 1)) / ln(1 - 0.05)) = ceil(71.9)
        assertThat(plan.get("target")).isEqualTo(Map.of("bound", 0.05, "strata", 2, "per_stratum", List.of(
                Map.of("stratum", "changed", "looks", 1, "clean_sample_size", 72),
                Map.of("stratum", "covered", "looks", 1, "clean_sample_size", 72))));
    }

    @Test
    void aLaterLookAtAnUnchangedCoveredStratumNeedsALargerSample() throws Exception {
        Map<String, Object> plan = Plan.of(job(), "in.csv", census(3), HISTORY, new Plan.Options(true, 0.05)).toMap();

        // ceil(ln(0.05 / (2 x 3)) / ln(0.95)) = ceil(93.3)
        assertThat(((Map<?, ?>) ((List<?>) plan.get("strata")).get(1)).get("sample")).isEqualTo(94);
    }

    @Test
    void theTargetsCleanSampleCountsTheCoveredStratumsLooks() throws Exception {
        Plan plan = Plan.of(job(), "in.csv", census(2), HISTORY, new Plan.Options(true, 0.05));

        // H = 2, t = 0.05, ln(0.95) = -0.051293:
        // changed, one look:  ceil(ln(0.05 / (2 x 1)) / ln(0.95)) = ceil(-3.688879 / -0.051293) = ceil(71.92) = 72
        // covered, look 2:    ceil(ln(0.05 / (2 x 2)) / ln(0.95)) = ceil(-4.382027 / -0.051293) = ceil(85.43) = 86
        assertThat(plan.toMap().get("target")).isEqualTo(Map.of("bound", 0.05, "strata", 2, "per_stratum", List.of(
                Map.of("stratum", "changed", "looks", 1, "clean_sample_size", 72),
                Map.of("stratum", "covered", "looks", 2, "clean_sample_size", 86))));
        assertThat(plan.text()).contains("target:     a bound below 5.0 % needs a clean sample of 72 items in the changed"
                + " stratum (look 1) and 86 in the covered one (look 2)");
    }

    @Test
    void roundOnesCallsAreTheSamplesReviewsFixesCanariesAndTheMatcher() throws Exception {
        Map<String, Object> plan = Plan.of(job(), "in.csv", census(1), HISTORY, new Plan.Options(true, 0.05)).toMap();

        Map<?, ?> roundOne = (Map<?, ?>) plan.get("round_1");
        Map<?, ?> calls = (Map<?, ?>) roundOne.get("by_kind");
        // 192 sampled items, each reviewed by B and C
        assertThat(calls.get("reviews")).isEqualTo(384L);
        // changed: 0.2 x 120 NAUGHTY, 1 + 0.2 + 0.04 fixes each (max-iterations 3); covered: the panel's
        // false failures, 0.0396 x 72, 1 + 0.0396 + 0.0396^2 fixes each
        double q = AcceptanceNumber.PANEL_FALSE_FAILURE;
        double fixes = 0.2 * 120 * 1.24 + q * 72 * (1 + q + q * q);
        assertThat(calls.get("fixes")).isEqualTo(Math.round(fixes));
        assertThat(calls.get("fix_reviews")).isEqualTo(Math.round(2 * fixes));
        // max(4, ceil(0.05 x 192)) canaries, each reviewed by B and C
        assertThat(calls.get("canary_reviews")).isEqualTo(20L);
        // 2 calls per predicted defect among the 1,500 - 192 items left: 2 x 0.2 x 1308
        assertThat(calls.get("matcher")).isEqualTo(523L);
        assertThat(roundOne.get("calls")).isEqualTo(Math.round(384 + fixes + 2 * fixes + 20 + 523.2));
        // tokens and cost: each review as the governor reserves it, at B's and C's prices
        JobDefinition job = job();
        CallEstimates.Tokens review = CallEstimates.review(new ReviewRequest(job.taskSpec(), "a1", Map.of("name", "Kettle"),
                "A kettle that boils water fast.", job.santaCriteria()), job.reviewers().get(0).model());
        Map<?, ?> perCall = (Map<?, ?>) plan.get("tokens_per_call");
        assertThat(((Map<?, ?>) perCall.get("review")).get("input")).isEqualTo(review.input());
        assertThat(((Map<?, ?>) perCall.get("review")).get("output")).isEqualTo(List.of(100L, 200L));
    }

    @Test
    void aWholeRunTakesTheJobsRoundsAndFullVerificationReviewsEveryEligibleItem() throws Exception {
        Map<String, Object> plan = Plan.of(job(), "in.csv", census(1), HISTORY, new Plan.Options(true, 0.05)).toMap();

        Map<?, ?> whole = (Map<?, ?>) plan.get("whole_run");
        assertThat(whole.get("rounds")).isEqualTo(3);
        List<?> rounds = (List<?>) whole.get("by_round");
        // round 2: the 880 changed items left, 12 % of them; round 3 (the last, clean): 774 left
        assertThat(((Map<?, ?>) rounds.get(1)).get("eligible")).isEqualTo(880L);
        assertThat(((Map<?, ?>) rounds.get(1)).get("sample")).isEqualTo(106);
        assertThat(((Map<?, ?>) rounds.get(2)).get("eligible")).isEqualTo(774L);
        assertThat(((Map<?, ?>) rounds.get(2)).get("clean")).isEqualTo(true);
        Map<?, ?> full = (Map<?, ?>) ((Map<?, ?>) plan.get("full_verification")).get("by_kind");
        // every one of the 1,500 eligible items reviewed by B and C; 0.2 of them fixed 1.24 times
        assertThat(full.get("reviews")).isEqualTo(3000L);
        assertThat(full.get("fixes")).isEqualTo(372L);
        assertThat(full.get("fix_reviews")).isEqualTo(744L);
        assertThat(full.get("matcher")).isEqualTo(0L);
    }

    @Test
    void withoutHistoryTheSantaMethodsTargetAndTheMatchersCandidateCaps() throws Exception {
        PlanHistory none = new PlanHistory(0.7, List.of(), null, null, null);
        Map<String, Object> plan = Plan.of(job(), "in.csv", census(1), none, new Plan.Options(false, 0.05)).toMap();

        Map<?, ?> calls = (Map<?, ?>) ((Map<?, ?>) plan.get("round_1")).get("by_kind");
        assertThat(calls.get("canary_reviews")).isEqualTo(0L);
        // 0.3 x 120 + 0.0396 x 72 failures in patterns of 2 (santa.systematic-min-items), each given
        // min(25 % of the 1,308 items left, ceil(the upper 95 % limit of 2 in 192 x 1,308 x 1.5)) candidates
        double patterns = (0.3 * 120 + AcceptanceNumber.PANEL_FALSE_FAILURE * 72) / 2;
        int perPattern = Math.min(327, dev.santabatch.batchfix.PatternNarrowing.predicted(2, 192, 1308));
        assertThat(calls.get("matcher")).isEqualTo(Math.round(patterns * perPattern));
        assertThat(((Map<?, ?>) plan.get("whole_run")).get("rounds")).isEqualTo(2);
    }

    @Test
    void theHistoryIsTheLastFiveExportedRunsThatMeasuredAFirstPassRate() {
        JdbcDataSource ds = new JdbcDataSource();
        ds.setURL("jdbc:h2:mem:plan-history-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
        Store store = new Store(ds);
        dev.santabatch.persistence.StoreSchema.migrate(ds);
        RunSummaryStore summaries = new RunSummaryStore(store.jdbc());
        // r1 to r5 measured 0.1 to 0.5; r6 was not exported; r7 and r8, the newest, measured none
        for (int i = 1; i <= 8; i++) {
            long pk = store.createRunIfAbsent(new Store.RunRow(0, "planned", "r" + i, "job.yml", "in.csv", "out", 1,
                    Instant.now(), null, null)).runPk();
            if (i != 6) {
                store.markExported(pk, "COMPLETED");
            }
            summaries.save(pk, new RunSummary("COMPLETED", 10, null, 0, 10, 0, i <= 6 ? i / 10.0 : null, 0, 0, 0, 0,
                    null, 0, null));
        }

        PlanHistory history = PlanHistory.read(store.jdbc(), "planned", Long.MAX_VALUE);

        // not r7 and r8 (no rate), nor r6 (not exported): the five before them, newest first
        assertThat(history.runs()).extracting(PlanHistory.Run::runId).containsExactly("r5", "r4", "r3", "r2", "r1");
        // the median of 0.1 to 0.5
        assertThat(history.firstPassRate()).isCloseTo(0.3, within(1e-9));
    }

    private JobDefinition job() throws Exception {
        Files.writeString(dir.resolve("in.csv"), "id,category,description\n");
        Path job = dir.resolve("job.yml");
        Files.writeString(job, """
                name: planned
                input:
                  path: in.csv
                  id-column: id
                  content-column: description
                  category-column: category
                task-spec: Write a short product description.
                rubric:
                  - id: on-specification
                    pass: About its own product.
                    fail-signal: About something else.
                    checked-by: santa
                reviewers:
                  - id: B
                    type: llm
                    model: {model: b, base-url: http://127.0.0.1:9/v1, max-output-tokens: 100,
                            price-input-per-million: 1.0, price-output-per-million: 2.0}
                  - id: C
                    type: llm
                    model: {model: c, base-url: http://127.0.0.1:9/v1, max-output-tokens: 200}
                fixer:
                  type: llm
                  model: {model: f, base-url: http://127.0.0.1:9/v1}
                """);
        return JobFileLoader.load(job);
    }
}
