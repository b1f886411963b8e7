package dev.santabatch.rounds;

import static org.assertj.core.api.Assertions.assertThat;

import dev.santabatch.review.IssueSimilarity;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/**
 * When a pattern that comes back is unreachable: round 1 samples 100 of 1,000 eligible items and
 * finds pattern 1 in 10 of them, so its batch fix should reach 20 % of the 90 unsampled items it
 * predicts (18). The end-to-end stop, report and resume are in {@code UnreachablePatternFunctionalTests}.
 */
class UnreachablePatternsTests {

    private static final long RUN = 1;
    private static final String LABEL = "accuracy: the rating contradicts the rating column";

    private LoopStore loop;
    private UnreachablePatterns unreachable;
    private final IssueSimilarity similarity = IssueSimilarity.exactNormalised();

    @BeforeEach
    void store() {
        DriverManagerDataSource ds = new DriverManagerDataSource("jdbc:h2:mem:unreachable-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
        loop = new LoopStore(new JdbcTemplate(ds));
        dev.santabatch.persistence.StoreSchema.migrate(ds);
        unreachable = new UnreachablePatterns(loop);
    }

    /** Round {@code round}: 100 sampled of 1,000 eligible, decided; pattern 1 systematic over {@code items} sampled items. */
    private void round(int round, String decision, String label, int items, long matched) {
        loop.insertRound(RUN, new LoopStore.Round(round, 7, 1000, 100, false, "", null));
        loop.replacePatterns(RUN, round, List.of(pattern(label, items)));
        loop.addPatternCounts(RUN, round, 1, matched, matched, 0);
        if (decision != null) {
            loop.decide(RUN, round, decision);
        }
    }

    private static LoopStore.PatternRow pattern(String label, int items) {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < items; i++) {
            ids.add("I" + i);
        }
        return new LoopStore.PatternRow(1, "accuracy", label, ids, items / 100.0, items >= 3, 0, 0, 0);
    }

    @Test
    void aPatternThatComesBackAfterABatchFixThatReachedUnderAFifthOfItsPredictionIsUnreachable() {
        round(1, Decision.CONTINUE, LABEL, 10, 17);
        loop.insertRound(RUN, new LoopStore.Round(2, 7, 900, 100, false, "", null));

        List<UnreachablePatterns.Unreachable> marked = unreachable.mark(RUN, 2, List.of(pattern(LABEL, 6)), similarity);

        assertThat(marked).containsExactly(new UnreachablePatterns.Unreachable(2, 1, 1, 1, 90.0, 17));
        assertThat(unreachable.numbers(RUN, 2)).containsExactly(1);
    }

    @Test
    void aBatchFixThatLeftAMatcherCandidateUnansweredMarksNothing() {
        round(1, Decision.CONTINUE, LABEL, 10, 17);
        loop.jdbc().update("INSERT INTO sb_match_candidate (run_pk, round_no, item_id, record_index, patterns, state)"
                + " VALUES (?, 1, 'X1', 1, '1', 'transport')", RUN);
        loop.insertRound(RUN, new LoopStore.Round(2, 7, 900, 100, false, "", null));

        // the matcher was down: what the batch fix reached says nothing of the pattern
        assertThat(unreachable.mark(RUN, 2, List.of(pattern(LABEL, 6)), similarity)).isEmpty();
    }

    @Test
    void aPatternWhoseBatchFixReachedAFifthIsNot() {
        round(1, Decision.CONTINUE, LABEL, 10, 18);
        loop.insertRound(RUN, new LoopStore.Round(2, 7, 900, 100, false, "", null));

        assertThat(unreachable.mark(RUN, 2, List.of(pattern(LABEL, 6)), similarity)).isEmpty();
    }

    @Test
    void anotherProblemOfTheSameCriterionIsNotThePatternThatCameBack() {
        round(1, Decision.CONTINUE, LABEL, 10, 0);
        loop.insertRound(RUN, new LoopStore.Round(2, 7, 900, 100, false, "", null));

        assertThat(unreachable.mark(RUN, 2, List.of(pattern("accuracy: the price is missing", 6)), similarity)).isEmpty();
    }

    @Test
    void anUnreachablePatternStaysSoWithTheBatchFixThatFellShortUntilTheRunIsResumed() {
        round(1, Decision.CONTINUE, LABEL, 10, 2);
        round(2, null, LABEL, 8, 0);
        unreachable.mark(RUN, 2, List.of(pattern(LABEL, 8)), similarity);
        loop.decide(RUN, 2, Decision.CONTINUE);
        loop.insertRound(RUN, new LoopStore.Round(3, 7, 800, 100, false, "", null));

        // round 2 made no matcher calls for it; the evidence is still round 1's batch fix
        assertThat(unreachable.mark(RUN, 3, List.of(pattern(LABEL, 7)), similarity))
                .containsExactly(new UnreachablePatterns.Unreachable(3, 1, 1, 1, 90.0, 2));

        // resumed after the stop: the next round's patterns get a fresh batch fix
        loop.decide(RUN, 3, Decision.CONTINUE_AFTER_UNREACHABLE_PATTERN);
        loop.insertRound(RUN, new LoopStore.Round(4, 7, 700, 100, false, "", null));
        assertThat(unreachable.mark(RUN, 4, List.of(pattern(LABEL, 7)), similarity)).isEmpty();
    }

    @Test
    void theRunEndsOnlyWhenEveryFailureOfTheSampleIsOfAnUnreachablePattern() {
        round(1, Decision.CONTINUE, LABEL, 10, 0);
        round(2, null, LABEL, 3, 0);
        unreachable.mark(RUN, 2, List.of(pattern(LABEL, 3)), similarity);
        List<LoopStore.SampleOutcome> sample = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            sample.add(new LoopStore.SampleOutcome("I" + i, "s", "NICE", null, 2, 1, 0, false));
        }
        sample.add(new LoopStore.SampleOutcome("clean", "s", "NICE", null, 1, 0, 0, false));

        assertThat(unreachable.onlyUnreachableFailures(RUN, 2, sample)).isTrue();

        sample.add(new LoopStore.SampleOutcome("other", "s", "ESCALATED", "MAX_ITERATIONS", 3, 2, 0, false));
        assertThat(unreachable.onlyUnreachableFailures(RUN, 2, sample)).isFalse();
    }

    @Test
    void anItemThatAlsoFailsAReachableSystematicPatternKeepsTheLoopGoing() {
        round(1, Decision.CONTINUE, LABEL, 10, 0);
        loop.insertRound(RUN, new LoopStore.Round(2, 7, 900, 100, false, "", null));
        // pattern 1 comes back (unreachable); I0 and I1 also fail pattern 2, which has had no batch fix yet
        LoopStore.PatternRow other = new LoopStore.PatternRow(2, "accuracy", "accuracy: the price is missing",
                List.of("I0", "I1"), 0.02, true, 0, 0, 0);
        loop.replacePatterns(RUN, 2, List.of(pattern(LABEL, 3), other));
        unreachable.mark(RUN, 2, List.of(pattern(LABEL, 3)), similarity);
        List<LoopStore.SampleOutcome> sample = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            sample.add(new LoopStore.SampleOutcome("I" + i, "s", "NICE", null, 2, 1, 0, false));
        }

        assertThat(unreachable.numbers(RUN, 2)).containsExactly(1);
        assertThat(unreachable.onlyUnreachableFailures(RUN, 2, sample)).isFalse();
    }
}
