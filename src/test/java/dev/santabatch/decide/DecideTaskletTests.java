package dev.santabatch.decide;

import dev.santabatch.sampling.StratumStore;
import static org.assertj.core.api.Assertions.assertThat;

import dev.santabatch.execution.RunContext;
import dev.santabatch.config.JobDefinition;
import dev.santabatch.config.JobFileLoader;
import dev.santabatch.rounds.Decision;
import dev.santabatch.rounds.LoopStore;
import dev.santabatch.stats.AcceptanceNumber;
import dev.santabatch.persistence.FieldsCodec;
import dev.santabatch.persistence.Store;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

/** A round's decision under its acceptance number: isolated failures up to c are clean. */
class DecideTaskletTests {

    static final int SAMPLED = 100;
    /** The default acceptance number of a sample of 100 (docs/acceptance-number.md). */
    static final int C = 7;

    Store store;
    LoopStore loop;
    RunContext run;

    @BeforeEach
    void aRunWithASecondRoundOf100SampledItems() throws Exception {
        JobDefinition job = JobFileLoader.load(Path.of("jobs/product-descriptions.yml"));
        JdbcDataSource ds = new JdbcDataSource();
        ds.setURL("jdbc:h2:mem:decide-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
        store = new Store(ds);
        dev.santabatch.persistence.StoreSchema.migrate(ds);
        loop = new LoopStore(new JdbcTemplate(ds));
        long runPk = store.createRunIfAbsent(new Store.RunRow(0, job.name(), "decide", "job.yml", "in.csv", "out", 1,
                Instant.now(), null, null)).runPk();
        List<Store.NewItem> items = new ArrayList<>();
        List<LoopStore.SampleRow> sample = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
            items.add(new Store.NewItem(id(i), i + 1, i + 2, "kitchen", FieldsCodec.encode(List.of(id(i), "text"))));
            if (i < SAMPLED) {
                sample.add(new LoopStore.SampleRow(id(i), 1, "kitchen", i));
            }
        }
        store.insertItems(runPk, items);
        loop.insertRound(runPk, new LoopStore.Round(2, 7, 500, SAMPLED, false, "", null));
        loop.insertSample(runPk, 2, sample);
        run = new RunContext(job, "decide", runPk, Path.of("in.csv"), Path.of("out"), 7, List.of("id", "description"),
                List.of());
    }

    private static String id(int i) {
        return String.format("P%05d", i);
    }

    /** The first {@code failures} sampled items failed their first review and were fixed; the rest were NICE. */
    private void reviewed(int failures) {
        for (int i = 0; i < SAMPLED; i++) {
            loop.sampleOutcome(run.runPk(), 2, id(i), "NICE", null, i < failures ? 2 : 1, i < failures ? 1 : 0);
        }
    }

    /** One pattern per failed item, or, when {@code shared}, the first two failed items in one systematic pattern. */
    private void patterns(int failures, boolean shared) {
        List<LoopStore.PatternRow> rows = new ArrayList<>();
        int first = 0;
        if (shared) {
            rows.add(new LoopStore.PatternRow(1, "factual-accuracy", "wrong warranty", List.of(id(0), id(1)), 0.02, true,
                    0, 0, 0));
            first = 2;
        }
        for (int i = first; i < failures; i++) {
            rows.add(new LoopStore.PatternRow(rows.size() + 1, "tone", "issue " + i, List.of(id(i)), 0.01, false, 0, 0, 0));
        }
        loop.replacePatterns(run.runPk(), 2, rows);
    }

    private String decide() {
        new DecideTasklet(store, loop, run).execute(null, null);
        return loop.lastRound(run.runPk()).orElseThrow().decision();
    }

    @Test
    void theDefaultAcceptanceNumberOfTheSampleIsUsed() {
        assertThat(AcceptanceNumber.forSampleSize(SAMPLED)).isEqualTo(C);
        assertThat(run.job().santa().acceptanceNumber()).isNull();
    }

    @Test
    void aConfiguredAcceptanceNumberReplacesTheTable() {
        reviewed(1);
        List<LoopStore.SampleOutcome> sample = loop.sample(run.runPk(), 2);

        assertThat(SampleAcceptance.of(sample, List.of(), 0)).isEqualTo(new SampleAcceptance(SAMPLED, 1, 0, false))
                .extracting(SampleAcceptance::clean).isEqualTo(false);
        assertThat(SampleAcceptance.of(sample, List.of(), 1).clean()).isTrue();
        assertThat(SampleAcceptance.of(sample, List.of(), null).acceptanceNumber()).isEqualTo(C);
    }

    @Test
    void aSampledItemAReviewerFailedOutsideItsOwnReviewIsAFailureOfTheSample() {
        // given a sample whose every item passed its own review, one of them failed by a clean canary's
        // review of its sampled text (a flag), and a job that accepts no failure
        reviewed(0);
        loop.flag(run.runPk(), id(3), 1, 2, List.of("B: on-specification: fails its clean copy"));
        List<LoopStore.SampleOutcome> sample = loop.sample(run.runPk(), 2);

        // then that item is not NICE on first review, and the sample is not clean at c = 0
        assertThat(sample).filteredOn(LoopStore.SampleOutcome::flagged).extracting(LoopStore.SampleOutcome::itemId)
                .containsExactly(id(3));
        assertThat(SampleAcceptance.of(sample, List.of(), 0)).isEqualTo(new SampleAcceptance(SAMPLED, 1, 0, false))
                .extracting(SampleAcceptance::clean).isEqualTo(false);
    }

    @Test
    void isolatedFailuresUpToTheAcceptanceNumberAreClean() {
        reviewed(C);
        patterns(C, false);

        assertThat(decide()).isEqualTo(Decision.CLEAN);
        assertThat(loop.acceptance(run.runPk(), 2)).contains(new LoopStore.Acceptance(C, C));
    }

    @Test
    void aSampleWithNoFailureIsClean() {
        reviewed(0);

        assertThat(decide()).isEqualTo(Decision.CLEAN);
        assertThat(loop.acceptance(run.runPk(), 2)).contains(new LoopStore.Acceptance(C, 0));
    }

    @Test
    void failuresInASystematicPatternAreNotClean() {
        reviewed(3);
        patterns(3, true);

        assertThat(decide()).isEqualTo(Decision.CONTINUE);
        assertThat(loop.acceptance(run.runPk(), 2)).contains(new LoopStore.Acceptance(C, 3));
    }

    @Test
    void moreIsolatedFailuresThanTheAcceptanceNumberContinue() {
        reviewed(C + 1);
        patterns(C + 1, false);

        assertThat(decide()).isEqualTo(Decision.CONTINUE);
        assertThat(loop.acceptance(run.runPk(), 2)).contains(new LoopStore.Acceptance(C, C + 1));
    }

    // ---------------------------------------------------------------- a round with the covered stratum's sample

    /** Items 400-499 of a new run carried over as covered; its round 1 drew 100 changed items and 72 covered ones. */
    private long coveredRound(boolean changedFullReview) {
        long pk = store.createRunIfAbsent(new Store.RunRow(0, run.job().name(), "covered", "job.yml", "in.csv", "out", 1,
                Instant.now(), null, null)).runPk();
        List<Store.NewItem> items = new ArrayList<>();
        List<LoopStore.SampleRow> sample = new ArrayList<>();
        java.util.Set<String> covered = new java.util.HashSet<>();
        for (int i = 0; i < 500; i++) {
            items.add(new Store.NewItem(id(i), i + 1, i + 2, "kitchen", FieldsCodec.encode(List.of(id(i), "text"))));
            if (i < SAMPLED || (i >= 400 && i < 472)) {
                sample.add(new LoopStore.SampleRow(id(i), 0, i < SAMPLED ? "kitchen" : "(covered)", sample.size() + 1));
            }
            if (i >= 400 && i < 472) {
                covered.add(id(i));
            }
        }
        store.insertItems(pk, items);
        store.jdbc().update("UPDATE sb_item SET carry = 'covered' WHERE run_pk = ? AND record_index > 400", pk);
        loop.insertRound(pk, new LoopStore.Round(1, 7, 500, SAMPLED + 72, false, "", null));
        loop.insertSample(pk, 1, sample, covered);
        new StratumStore(loop.jdbc()).insert(new StratumStore.Draw(pk, 1, 2, 0.05, 100, 72, 1, null, null, 400, SAMPLED,
                changedFullReview, null, null, null, null));
        run = new RunContext(run.job(), "covered", pk, Path.of("in.csv"), Path.of("out"), 7, List.of("id", "description"),
                List.of());
        return pk;
    }

    /** Every sampled item NICE on first review, but those given. */
    private void reviewedRound1(long pk, List<String> failed) {
        for (LoopStore.SampleOutcome s : loop.sample(pk, 1)) {
            boolean f = failed.contains(s.itemId());
            loop.sampleOutcome(pk, 1, s.itemId(), "NICE", null, f ? 2 : 1, f ? 1 : 0);
            store.setState(pk, s.itemId(), "NICE");
        }
    }

    private StratumStore.Draw draw(long pk) {
        return new StratumStore(loop.jdbc()).covered(pk).orElseThrow();
    }

    @Test
    void aCleanCoveredSampleBesideACleanChangedSampleIsClean() {
        long pk = coveredRound(false);
        reviewedRound1(pk, List.of(id(5)));

        assertThat(decide()).isEqualTo(Decision.CLEAN);
        assertThat(draw(pk)).extracting(StratumStore.Draw::failures, StratumStore.Draw::reopenedRound,
                StratumStore.Draw::accepted).containsExactly(0, null, true);
        // the changed stratum's sample alone is judged by its acceptance number: 1 failure in 100
        assertThat(loop.acceptance(pk, 1)).contains(new LoopStore.Acceptance(C, 1));
    }

    @Test
    void oneFailureInTheCoveredSampleReopensItAndTheRoundContinues() {
        // given a clean changed sample and one covered item fixed in its review (within any acceptance number)
        long pk = coveredRound(false);
        reviewedRound1(pk, List.of(id(450)));

        assertThat(decide()).isEqualTo(Decision.CONTINUE);
        assertThat(draw(pk)).extracting(StratumStore.Draw::failures, StratumStore.Draw::reopenedRound)
                .containsExactly(1, 1);
        assertThat(draw(pk).changedOutcome()).isEqualTo(Decision.CLEAN);
    }

    @Test
    void aCoveredItemFailedOutsideItsOwnReviewReopensIt() {
        long pk = coveredRound(false);
        reviewedRound1(pk, List.of());
        loop.flag(pk, id(401), 0, 1, List.of("B: on-specification: fails its clean copy"));

        assertThat(decide()).isEqualTo(Decision.CONTINUE);
        assertThat(draw(pk).reopenedRound()).isEqualTo(1);
    }

    @Test
    void aChangedStratumReviewedInFullWithACleanCoveredSampleIsClean() {
        // given the changed stratum taken whole and every changed item verified; covered ones left unsampled
        long pk = coveredRound(true);
        reviewedRound1(pk, List.of());
        store.jdbc().update("UPDATE sb_item SET state = 'NICE' WHERE run_pk = ? AND carry IS NULL", pk);

        // then not fully reviewed: the covered items ship under their clean sample
        assertThat(decide()).isEqualTo(Decision.CLEAN);
        assertThat(draw(pk).changedOutcome()).isEqualTo(Decision.FULLY_REVIEWED);
    }
}
