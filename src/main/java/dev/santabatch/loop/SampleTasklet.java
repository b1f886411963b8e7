package dev.santabatch.loop;

import dev.santabatch.run.RunContext;
import dev.santabatch.sampling.SamplingSettings;
import dev.santabatch.sampling.StratifiedSampler;
import dev.santabatch.sampling.StratumKey;
import dev.santabatch.store.Store;
import java.util.ArrayList;
import java.util.List;
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
 */
final class SampleTasklet implements Tasklet {

    private static final Logger log = LoggerFactory.getLogger(SampleTasklet.class);

    private final Store store;
    private final LoopStore loop;
    private final RunContext run;

    SampleTasklet(Store store, LoopStore loop, RunContext run) {
        this.store = store;
        this.loop = loop;
        this.run = run;
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
        Map<StratumKey, Integer> counts = new TreeMap<>();
        Eligible.forEach(store, run.runPk(), round - 1, (item, key) -> counts.merge(key, 1, Integer::sum));
        SamplingSettings settings = new SamplingSettings(run.job().sampling().rate(),
                run.job().sampling().allowRateOutsideRange(), run.job().sampling().minSize(),
                run.job().sampling().fullReviewBelow());
        StratifiedSampler.Allocation allocation = StratifiedSampler.allocate(counts, settings);
        StratifiedSampler.Picker picker = StratifiedSampler.picker(allocation, run.seed(), round);
        List<LoopStore.SampleRow> rows = new ArrayList<>();
        Eligible.forEach(store, run.runPk(), round - 1, (item, key) -> {
            if (picker.accept(key)) {
                rows.add(new LoopStore.SampleRow(item.id(), item.currentRev(), Eligible.label(key), rows.size() + 1));
            }
        });
        picker.finish();
        StringBuilder strata = new StringBuilder();
        for (StratifiedSampler.StratumAllocation s : allocation.strata()) {
            strata.append(Eligible.label(s.key())).append('=').append(s.quota()).append('/').append(s.size()).append(';');
        }
        loop.insertRound(run.runPk(), new LoopStore.Round(round, run.seed(), allocation.eligible(),
                allocation.sampleSize(), allocation.fullReview(), strata.toString(), null));
        loop.insertSample(run.runPk(), round, rows);
        log.info("sample: round {}: {} of {} eligible items{} (seed {})", round, rows.size(), allocation.eligible(),
                allocation.fullReview() ? ", all of them (fewer than " + settings.fullReviewBelow() + ")" : "", run.seed());
        return RepeatStatus.FINISHED;
    }
}
