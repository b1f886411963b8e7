package dev.santabatch.export;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.santabatch.review.Check;
import dev.santabatch.review.CheckResult;
import dev.santabatch.review.Review;
import dev.santabatch.review.Verdict;
import dev.santabatch.rounds.LoopStore;
import dev.santabatch.persistence.Store;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/**
 * The report's kappa is computed over the criteria every panel member judged: a criterion one
 * reviewer left NOT_EVALUATED does not count in the other's verdict, and an item the panel judged on
 * no common criterion is left out. Stored reviews in, report out, against hand-computed values.
 */
class RunReportAgreementTests {

    static final long RUN = 1;

    Store store;
    LoopStore loop;

    @BeforeEach
    void stores() {
        DriverManagerDataSource ds = new DriverManagerDataSource(
                "jdbc:h2:mem:" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1", "sa", "");
        store = new Store(ds);
        dev.santabatch.persistence.StoreSchema.migrate(ds);
        loop = new LoopStore(store.jdbc());
    }

    static String review(CheckResult x, CheckResult y) {
        boolean fail = x == CheckResult.FAIL || y == CheckResult.FAIL;
        return new Review(fail ? Verdict.FAIL : Verdict.PASS, List.of(new Check("x", x, "x"), new Check("y", y, "y")),
                fail ? List.of("something fails") : List.of(), List.of()).toJson();
    }

    /** Round 1 samples the items at rev 0; each gets one first review per reviewer, (B's, C's). */
    void round(Map<String, String[]> reviews) {
        loop.insertRound(RUN, new LoopStore.Round(1, 7, reviews.size(), reviews.size(), true, "", null));
        List<LoopStore.SampleRow> sample = new ArrayList<>();
        List<LoopStore.ReviewRow> rows = new ArrayList<>();
        int seq = 0;
        for (Map.Entry<String, String[]> e : reviews.entrySet()) {
            sample.add(new LoopStore.SampleRow(e.getKey(), 0, "", ++seq));
            String[] byReviewer = e.getValue();
            for (int i = 0; i < byReviewer.length; i++) {
                rows.add(new LoopStore.ReviewRow(e.getKey(), 0, 0, i == 0 ? "B" : i == 1 ? "C" : "D", "REVIEWED",
                        "PASS", byReviewer[i], null, 1));
            }
        }
        loop.insertSample(RUN, 1, sample);
        loop.insertReviews(RUN, 1, rows);
    }

    Map<String, Object> report(int panelSize) {
        var ctx = new RunReport.Context("job", "r1", RUN, panelSize, 0.4, List.of(), null, null, 0);
        return RunReport.tree(RunReport.build(store, loop, ctx, RunReport.FULLY_REVIEWED,
                new Report.Outputs("catalog.csv", 0, 0, 0, 0), 0));
    }

    Map<String, Object> agreement(int panelSize) {
        Map<String, Object> report = report(panelSize);
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> rounds = (List<Map<String, Object>>) report.get("rounds");
        @SuppressWarnings("unchecked")
        Map<String, Object> a = (Map<String, Object>) rounds.get(0).get("agreement");
        return a;
    }

    static final CheckResult P = CheckResult.PASS;
    static final CheckResult F = CheckResult.FAIL;
    static final CheckResult N = CheckResult.NOT_EVALUATED;

    @Test
    void cohensKappaCountsOnlyTheCriteriaBothReviewersJudged() {
        // given B judging x and y, C judging x only (y NOT_EVALUATED); and i5, where B judged only y
        // and C only x: no common criterion
        Map<String, String[]> reviews = new java.util.LinkedHashMap<>();
        reviews.put("i1", new String[] {review(P, F), review(P, N)});
        reviews.put("i2", new String[] {review(F, P), review(F, N)});
        reviews.put("i3", new String[] {review(P, P), review(F, N)});
        reviews.put("i4", new String[] {review(P, F), review(P, N)});
        reviews.put("i5", new String[] {review(N, F), review(P, N)});
        round(reviews);

        Map<String, Object> a = agreement(2);

        // then over x alone, on i1-i4: B = P F P P, C = P F F P; agree on 3 of 4;
        // p_e = (3·2 + 1·2) / 16 = 1/2; kappa = (3/4 − 1/2) / (1 − 1/2) = 1/2
        // (with B's failed y counted, B = F F P F: agree on 1 of 4, kappa = −1/2)
        assertThat(a.get("kappa_method")).isEqualTo("cohen");
        assertThat(a.get("items")).isEqualTo(4);
        assertThat((Double) a.get("raw_agreement")).isCloseTo(0.75, within(1e-12));
        // two items flagged (i2 by both, i3 by C): kappa is not reported below 10; positive agreement
        // 2a / (2a + b + c) = 2 / 3, negative 2d / (2d + b + c) = 4 / 5
        assertThat(((Number) a.get("items_flagged")).longValue()).isEqualTo(2L);
        assertThat(a.get("kappa")).isEqualTo("not reported");
        assertThat((Double) a.get("positive_agreement")).isCloseTo(2.0 / 3, within(1e-12));
        assertThat((Double) a.get("negative_agreement")).isCloseTo(0.8, within(1e-12));
    }

    @Test
    void fleissKappaCountsOnlyTheCriteriaAllThreeReviewersJudged() {
        // given three reviewers: B and D judge x and y, C judges x only
        Map<String, String[]> reviews = new java.util.LinkedHashMap<>();
        reviews.put("i1", new String[] {review(P, F), review(P, N), review(P, P)});
        reviews.put("i2", new String[] {review(F, P), review(F, N), review(F, F)});
        reviews.put("i3", new String[] {review(P, P), review(F, N), review(P, F)});
        round(reviews);

        Map<String, Object> a = agreement(3);

        // then over x alone: i1 = P P P, i2 = F F F, i3 = P F P; m = 3, n = 3
        // P_i = (pass² + fail² − 3) / 6: 1, 1, (4 + 1 − 3)/6 = 1/3; P̄ = 7/9
        // pass share 5/9, fail 4/9: P_e = 25/81 + 16/81 = 41/81
        // kappa = (7/9 − 41/81) / (1 − 41/81) = (63 − 41) / (81 − 41) = 22/40 = 0.55
        assertThat(a.get("kappa_method")).isEqualTo("fleiss");
        assertThat(a.get("items")).isEqualTo(3);
        assertThat((Double) a.get("raw_agreement")).isCloseTo(7.0 / 9, within(1e-12));
        // FAILs per item 0, 3, 1: positive = (0 + 6 + 0) / (0 + 6 + 2) = 3/4; PASSes 3, 0, 2: negative = (6 + 2) / (6 + 4)
        assertThat(a.get("kappa")).isEqualTo("not reported");
        assertThat((Double) a.get("positive_agreement")).isCloseTo(0.75, within(1e-12));
        assertThat((Double) a.get("negative_agreement")).isCloseTo(0.8, within(1e-12));
    }

    @Test
    void kappaIsReportedFromTenFlaggedItems() {
        // given ten items both reviewers fail and two both pass: kappa 1; then one flagged item fewer
        Map<String, String[]> reviews = new java.util.LinkedHashMap<>();
        for (int i = 1; i <= 12; i++) {
            reviews.put("i" + i, i <= 10 ? new String[] {review(F, P), review(F, N)} : new String[] {review(P, P), review(P, N)});
        }
        round(reviews);
        Map<String, Object> a = agreement(2);
        assertThat(((Number) a.get("items_flagged")).longValue()).isEqualTo(10L);
        assertThat((Double) a.get("kappa")).isCloseTo(1.0, within(1e-12));
        assertThat((Double) a.get("positive_agreement")).isEqualTo(1.0);
    }

    @Test
    void anUndefinedKappaIsPrintedWithTheRawAgreementAndEachRoundCarriesItsSeed() {
        // given both reviewers passing every item on every criterion: p_e = 1, kappa undefined
        Map<String, String[]> reviews = new java.util.LinkedHashMap<>();
        reviews.put("i1", new String[] {review(P, P), review(P, P)});
        reviews.put("i2", new String[] {review(P, P), review(P, P)});
        round(reviews);

        Map<String, Object> report = report(2);

        @SuppressWarnings("unchecked")
        Map<String, Object> run = (Map<String, Object>) report.get("run");
        @SuppressWarnings("unchecked")
        Map<String, Object> a = (Map<String, Object>) run.get("agreement");
        assertThat(a.get("kappa")).isEqualTo("not reported");
        assertThat((Double) a.get("raw_agreement")).isEqualTo(1.0);
        assertThat(RunReport.summary((Report) RunReport.of(report))).filteredOn(l -> l.startsWith("agreement:")).singleElement()
                .satisfies(l -> assertThat(l).startsWith("agreement: kappa not reported (only 0 item(s) flagged; kappa is"
                        + " reported from 10), positive agreement n/a, negative 100.0 %, "));
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> rounds = (List<Map<String, Object>>) report.get("rounds");
        assertThat(rounds.get(0).get("seed")).isEqualTo(7L);
    }

    @Test
    void issuesFlaggedBySomeButNotAllOfThreeReviewersAreInTheAgreementBlock() {
        // given three reviewers and four merged issues: by all three, by two, by two, by one
        Map<String, String[]> reviews = new java.util.LinkedHashMap<>();
        reviews.put("i1", new String[] {review(F, P), review(F, P), review(F, P)});
        round(reviews);
        loop.insertIssues(RUN, 1, List.of(new LoopStore.IssueRow("i1", 1, "x", "a", "B,C,D"),
                new LoopStore.IssueRow("i1", 2, "x", "b", "B,C"), new LoopStore.IssueRow("i1", 3, "x", "c", "C,D"),
                new LoopStore.IssueRow("i1", 4, "x", "d", "D")));

        Map<String, Object> report = report(3);

        @SuppressWarnings("unchecked")
        Map<String, Object> run = (Map<String, Object>) report.get("run");
        @SuppressWarnings("unchecked")
        Map<String, Object> a = (Map<String, Object>) run.get("agreement");
        assertThat(a).containsEntry("issues", 4L).containsEntry("flagged_by_all", 1L).containsEntry("flagged_by_some", 2L)
                .containsEntry("flagged_by_one", 1L);
        assertThat(RunReport.summary((Report) RunReport.of(report))).filteredOn(l -> l.startsWith("agreement:")).singleElement()
                .satisfies(l -> assertThat(l).contains("issues flagged by all 1, by some 2, by one 1"));
    }
}
