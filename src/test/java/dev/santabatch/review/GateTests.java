package dev.santabatch.review;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

class GateTests {

    /** Two Santa criteria, so a row can have one criterion judged and the other not. */
    static final List<String> CRITERIA = List.of("accuracy", "compliance");

    private final Gate gate = new Gate();
    private final ReviewValidator validator = new ReviewValidator();

    /**
     * What one reviewer did in a row: failed to review, or one result per criterion
     * (NOT_EVALUATED meaning the reviewer does not judge that criterion).
     */
    record Cell(boolean failedToReview, List<CheckResult> results) {
        static final Cell FAILED = new Cell(true, List.of());

        @Override
        public String toString() {
            if (failedToReview) {
                return "failed-to-review";
            }
            return results.stream().map(r -> r == CheckResult.NOT_EVALUATED ? "N/E" : r.name())
                    .collect(Collectors.joining("/"));
        }
    }

    /** Every outcome one reviewer can have: 3 results for each of 2 criteria, or failed to review. */
    static List<Cell> everyCell() {
        List<Cell> cells = new ArrayList<>();
        for (CheckResult a : CheckResult.values()) {
            for (CheckResult c : CheckResult.values()) {
                cells.add(new Cell(false, List.of(a, c)));
            }
        }
        cells.add(Cell.FAILED);
        return cells;
    }

    /** The documented rule, read directly off the table. */
    static GateVerdict expected(List<Cell> row) {
        boolean someoneFailedSomething = row.stream().anyMatch(cell -> cell.results().contains(CheckResult.FAIL));
        if (someoneFailedSomething) {
            return GateVerdict.NAUGHTY; // no partial credit, and a reviewer that failed to review cannot outvote a FAIL
        }
        if (row.stream().anyMatch(Cell::failedToReview)) {
            return GateVerdict.UNREVIEWED; // a pass needs every reviewer's review
        }
        for (int criterion = 0; criterion < CRITERIA.size(); criterion++) {
            int i = criterion;
            boolean judgedBySomeone = row.stream().anyMatch(cell -> cell.results().get(i) != CheckResult.NOT_EVALUATED);
            if (!judgedBySomeone) {
                return GateVerdict.NAUGHTY; // a criterion judged by nobody is not verified
            }
        }
        return GateVerdict.NICE;
    }

    /** 10 x 10 rows for two reviewers and 10 x 10 x 10 for three: every combination. */
    static Stream<Arguments> everyCombination() {
        List<Cell> cells = everyCell();
        Stream<List<Cell>> two = cells.stream().flatMap(b -> cells.stream().map(c -> List.of(b, c)));
        Stream<List<Cell>> three = cells.stream()
                .flatMap(b -> cells.stream().flatMap(c -> cells.stream().map(d -> List.of(b, c, d))));
        return Stream.concat(two, three).map(row -> Arguments.of(row, expected(row)));
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @MethodSource("everyCombination")
    void gateOverEveryCombinationOfTwoAndThreeReviewers(List<Cell> row, GateVerdict expected) {
        // given
        List<PanelReview> reviews = panelReviews(row);

        // when
        GateResult result = gate.decide(CRITERIA, reviews);

        // then
        assertThat(result.verdict()).isEqualTo(expected);
        if (expected == GateVerdict.NICE) {
            assertThat(result.criticalIssues()).isEmpty();
        }
        if (expected == GateVerdict.UNREVIEWED) {
            assertThat(result.failedReviewers()).isNotEmpty();
        }
    }

    @ParameterizedTest(name = "B={0} C={1} D={2} -> {3}")
    @CsvSource(delimiter = '|', value = {
        // B              | C              | third          | expected
        "PASS PASS        | PASS PASS      | -              | NICE",
        "PASS FAIL        | PASS PASS      | -              | NAUGHTY",
        "PASS PASS        | FAIL PASS      | -              | NAUGHTY",
        "FAIL FAIL        | FAIL FAIL      | -              | NAUGHTY",
        "FAILED           | PASS PASS      | -              | UNREVIEWED",
        "FAILED           | FAIL FAIL      | -              | NAUGHTY",
        "PASS FAIL        | FAILED         | -              | NAUGHTY",
        "FAILED           | FAILED         | -              | UNREVIEWED",
        // offline reviewers splitting the criteria: each judged once, still nice
        "PASS N/E         | N/E PASS       | -              | NICE",
        // a criterion judged by nobody -> not nice
        "PASS N/E         | PASS N/E       | -              | NAUGHTY",
        "N/E N/E          | N/E N/E        | -              | NAUGHTY",
        "N/E N/E          | PASS PASS      | -              | NICE",
        // the third reviewer (agreement bias) counts like the others
        "PASS PASS        | PASS PASS      | PASS PASS      | NICE",
        "PASS PASS        | PASS PASS      | PASS FAIL      | NAUGHTY",
        "PASS PASS        | PASS PASS      | FAILED         | UNREVIEWED",
        "PASS PASS        | FAILED         | FAIL PASS      | NAUGHTY",
        "PASS N/E         | PASS N/E       | N/E PASS       | NICE",
        "PASS N/E         | PASS N/E       | PASS N/E       | NAUGHTY",
        "N/E FAIL         | PASS N/E       | PASS PASS      | NAUGHTY",
    })
    void handWrittenRows(String b, String c, String third, GateVerdict expected) {
        // given
        List<Cell> row = new ArrayList<>(List.of(parse(b), parse(c)));
        if (!third.equals("-")) {
            row.add(parse(third));
        }

        // when
        GateResult result = gate.decide(CRITERIA, panelReviews(row));

        // then
        assertThat(result.verdict()).isEqualTo(expected);
        assertThat(expected(row)).as("the table's rule agrees").isEqualTo(expected);
    }

    @Test
    void aCriterionJudgedByNobodyIsNamedAndNotNice() {
        // given both offline reviewers judge only accuracy
        List<Cell> row = List.of(parse("PASS N/E"), parse("PASS N/E"));

        // when
        GateResult result = gate.decide(CRITERIA, panelReviews(row));

        // then
        assertThat(result.verdict()).isEqualTo(GateVerdict.NAUGHTY);
        assertThat(result.unjudgedCriteria()).containsExactly("compliance");
        assertThat(result.criticalIssues()).isEmpty();
    }

    @Test
    void aFailFromOneReviewerIsNaughtyWhateverHappenedToTheOther() {
        // given B failed to review and C failed accuracy
        List<Cell> row = List.of(Cell.FAILED, parse("FAIL PASS"));

        // when
        GateResult result = gate.decide(CRITERIA, panelReviews(row));

        // then the item is fixed for C's issue (and reviewed afresh by both)
        assertThat(result.verdict()).isEqualTo(GateVerdict.NAUGHTY);
        assertThat(result.failedReviewers()).containsExactly("B");
        assertThat(result.failedCriteria()).containsExactly("accuracy");
        assertThat(result.criticalIssues()).extracting(MergedIssue::criterion).containsExactly("accuracy");
        assertThat(result.criticalIssues()).allSatisfy(i -> assertThat(i.flaggedBy()).containsExactly("C"));
    }

    private static Cell parse(String text) {
        String t = text.strip();
        if (t.equals("FAILED")) {
            return Cell.FAILED;
        }
        List<CheckResult> results = Stream.of(t.split("\\s+"))
                .map(s -> s.equals("N/E") ? CheckResult.NOT_EVALUATED : CheckResult.valueOf(s))
                .toList();
        return new Cell(false, results);
    }

    /** Reviewers B, C, D with valid reviews matching the cells (checked against the validator). */
    private List<PanelReview> panelReviews(List<Cell> row) {
        List<PanelReview> reviews = new ArrayList<>();
        String[] ids = {"B", "C", "D"};
        for (int i = 0; i < row.size(); i++) {
            Cell cell = row.get(i);
            if (cell.failedToReview()) {
                reviews.add(new PanelReview(ids[i], Set.copyOf(CRITERIA), ReviewFixtures.transportFailure(), Duration.ZERO));
                continue;
            }
            Map<String, CheckResult> results = new LinkedHashMap<>();
            Set<String> judged = new LinkedHashSet<>();
            for (int k = 0; k < CRITERIA.size(); k++) {
                results.put(CRITERIA.get(k), cell.results().get(k));
                if (cell.results().get(k).judged()) {
                    judged.add(CRITERIA.get(k));
                }
            }
            Review review = ReviewFixtures.review(results);
            assertThat(validator.validate(review, CRITERIA, judged)).isInstanceOf(ReviewValidation.Valid.class);
            reviews.add(new PanelReview(ids[i], judged, ReviewFixtures.reviewed(review), Duration.ZERO));
        }
        return reviews;
    }
}
