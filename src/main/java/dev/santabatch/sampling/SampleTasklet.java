package dev.santabatch.sampling;

import dev.santabatch.config.SamplingSettings;
import dev.santabatch.execution.RunContext;
import dev.santabatch.rounds.Decision;
import dev.santabatch.rounds.LoopStore;
import dev.santabatch.persistence.Store;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.batch.core.scope.context.ChunkContext;
import org.springframework.batch.core.step.StepContribution;
import org.springframework.batch.core.step.tasklet.Tasklet;
import org.springframework.batch.infrastructure.repeat.RepeatStatus;

/**
 * Draws the next round's stratified sample from the eligible items (current revision not yet
 * verified NICE and not escalated), by category and by changed-in-the-last-batch-fix, with the
 * run's recorded seed. The round row and its sample are written in the step's one transaction; a
 * round whose sample exists and that is not decided yet is reused on restart, never redrawn.
 *
 * <p>With items carried over as covered, round 1 also draws the covered stratum's fixed-size sample
 * ({@link StratumStore}; docs/carry-over.md, "Strata") apart from Pattern C's, in the same
 * transaction; later rounds leave its members out of Pattern C's population unless it was reopened.
 */
public final class SampleTasklet implements Tasklet {

    private static final Logger log = LoggerFactory.getLogger(SampleTasklet.class);

    private final Store store;
    private final LoopStore loop;
    private final RunContext run;
    private final StratumStore strata;

    public SampleTasklet(Store store, LoopStore loop, RunContext run) {
        this.store = store;
        this.loop = loop;
        this.run = run;
        this.strata = new StratumStore(loop.jdbc());
    }

    /** The covered stratum's label in {@code sb_sample} and the round's strata. */
    static final String COVERED_LABEL = "(" + StratumStore.COVERED + ")";

    /**
     * The covered stratum's draw: H strata sampled (the changed one too when it has items), k looks
     * (one more than the job's last look when no item entered the stratum since, else 1) and
     * n = min(N, ⌈ln(α / (H · k)) / ln(1 − t)⌉).
     */
    private StratumStore.Draw draw(StratifiedSampler.Allocation changed, int members) {
        int h = StratumStore.strata(changed.eligible());
        Optional<StratumStore.Draw> lastLook = strata.lastLook(run.job().name(), run.runPk());
        Long entered = lastLook.map(l -> strata.entered(run.runPk(), l.runPk())).orElse(null);
        int k = StratumStore.looks(lastLook, entered);
        double t = run.job().carryOver().targetBound();
        int n = StratumStore.sampleSize(t, changed.eligible(), members, k);
        return new StratumStore.Draw(run.runPk(), 1, h, t, members, n, k, lastLook.map(StratumStore.Draw::runPk).orElse(null),
                entered, changed.eligible(), changed.sampleSize(), changed.fullReview(), null, null, null, null);
    }

    @Override
    public RepeatStatus execute(StepContribution contribution, ChunkContext chunkContext) {
        Optional<LoopStore.Round> last = loop.lastRound(run.runPk());
        if (last.isPresent() && last.get().decision() == null) {
            log.info("sample: round {} was drawn before ({} of {} eligible); reusing it", last.get().round(),
                    last.get().sampleSize(), last.get().eligible());
            return RepeatStatus.FINISHED;
        }
        if (last.isPresent() && !Decision.CONTINUE.equals(last.get().decision())
                && !(Decision.resumable(last.get().decision()) && last.get().round() < run.job().santa().maxRounds())) {
            log.info("sample: round {} was decided '{}'; nothing to draw", last.get().round(), last.get().decision());
            return RepeatStatus.FINISHED;
        }
        if (last.isPresent() && Decision.resumable(last.get().decision())) {
            // a run stopped not clean, resumed after santa.max-rounds was raised, or after a stop for
            // unreachable patterns (the operator raised the matcher's cap or wrote a rule): that round
            // did not end the loop after all (rewritten in this step's transaction, with the new round)
            loop.decide(run.runPk(), last.get().round(), Decision.UNREACHABLE_PATTERN.equals(last.get().decision())
                    ? Decision.CONTINUE_AFTER_UNREACHABLE_PATTERN : Decision.CONTINUE_AFTER_MAX_ROUNDS_RAISED);
        }
        int round = last.map(r -> r.round() + 1).orElse(1);
        // the covered stratum: drawn apart in round 1, with a fixed size; held apart from Pattern C's
        // population in every later round until its sample's failure reopens it
        Optional<StratumStore.Draw> drawn = strata.covered(run.runPk());
        boolean drawNow = round == 1 && drawn.isEmpty() && strata.countMembers(run.runPk()) > 0;
        boolean apart = drawNow || drawn.map(d -> !d.reopened()).orElse(false);
        Map<StratumKey, Integer> counts = new TreeMap<>();
        int[] members = {0};
        Eligible.forEach(store, apart ? strata : null, run.runPk(), round - 1, "sample, round " + round + ": counting",
                (item, key, covered) -> {
            if (covered) {
                members[0]++;
            } else {
                counts.merge(key, 1, Integer::sum);
            }
        });
        SamplingSettings settings = run.job().sampling().settings();
        StratifiedSampler.Allocation allocation = StratifiedSampler.allocate(counts, settings);
        StratifiedSampler.Picker picker = StratifiedSampler.picker(allocation, run.seed(), round);
        StratumStore.Draw draw = drawNow ? draw(allocation, members[0]) : null;
        BitSet chosen = new BitSet();
        if (draw != null) {
            for (int p : StratifiedSampler.positions(run.seed(), round, StratumStore.COVERED, members[0], draw.sampleSize())) {
                chosen.set(p);
            }
        }
        List<LoopStore.SampleRow> rows = new ArrayList<>();
        Set<String> coveredRows = new HashSet<>();
        int[] member = {0};
        Eligible.forEach(store, apart ? strata : null, run.runPk(), round - 1, "sample, round " + round + ": drawing",
                (item, key, covered) -> {
            if (covered) {
                // a member: in the covered sample if drawn now; never in Pattern C's while held apart
                if (chosen.get(member[0]++)) {
                    rows.add(new LoopStore.SampleRow(item.id(), item.currentRev(), COVERED_LABEL, rows.size() + 1));
                    coveredRows.add(item.id());
                }
            } else if (picker.accept(key)) {
                rows.add(new LoopStore.SampleRow(item.id(), item.currentRev(), Eligible.label(key), rows.size() + 1));
            }
        });
        picker.finish();
        if (member[0] != members[0]) {
            throw new IllegalStateException("the covered stratum was offered " + member[0] + " items, " + members[0]
                    + " were counted in the first pass");
        }
        StringBuilder labels = new StringBuilder();
        for (StratifiedSampler.StratumAllocation s : allocation.strata()) {
            labels.append(Eligible.label(s.key())).append('=').append(s.quota()).append('/').append(s.size()).append(';');
        }
        long eligible = allocation.eligible();
        boolean fullReview = allocation.fullReview();
        if (draw != null) {
            labels.append(COVERED_LABEL).append('=').append(draw.sampleSize()).append('/').append(draw.items()).append(';');
            eligible += draw.items();
            fullReview = fullReview && draw.sampleSize() == draw.items();
            strata.insert(draw);
        }
        loop.insertRound(run.runPk(), new LoopStore.Round(round, run.seed(), eligible, rows.size(), fullReview,
                labels.toString(), null));
        loop.insertSample(run.runPk(), round, rows, coveredRows);
        log.info("sample: round {}: {} of {} eligible items{} (seed {})", round, rows.size(), eligible,
                fullReview ? ", all of them (fewer than " + settings.fullReviewBelow() + ")" : "", run.seed());
        if (draw != null) {
            log.info("sample: round {}: covered stratum: {} of {} items (fixed size for a bound below {} over {} strata,"
                    + " look {} at it)", round, draw.sampleSize(), draw.items(), draw.targetBound(), draw.strata(),
                    draw.looks());
        } else if (apart) {
            log.info("sample: round {}: the covered stratum's {} items are held apart (its round-{} sample was clean)",
                    round, members[0], drawn.map(StratumStore.Draw::round).orElse(1));
        }
        return RepeatStatus.FINISHED;
    }
}
