package dev.santabatch.decide;

import dev.santabatch.canary.PanelFitCheck;
import dev.santabatch.rounds.UnreachablePatterns;
import dev.santabatch.sampling.StratumStore;
import dev.santabatch.execution.RunContext;
import dev.santabatch.rounds.Decision;
import dev.santabatch.rounds.LoopStore;
import dev.santabatch.persistence.Store;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.batch.core.scope.context.ChunkContext;
import org.springframework.batch.core.step.StepContribution;
import org.springframework.batch.core.step.tasklet.Tasklet;
import org.springframework.batch.infrastructure.repeat.RepeatStatus;

/**
 * Decides the round and stores the decision with it: a sample whose items were all reviewed and
 * whose failures are few and isolated ({@link SampleAcceptance}: at most the acceptance number,
 * no systematic pattern) is {@code clean}; nothing left eligible after a full review is
 * {@code fully-reviewed}; a sample whose every failure is of a pattern the batch fix cannot reach
 * ends the run {@code unreachable-pattern} at once ({@link UnreachablePatterns}); otherwise
 * {@code continue} while rounds remain, else {@code not-clean}. Before any of that is final, the
 * panel's fit ({@link PanelFitCheck}): a panel whose canaries or fail share fall outside the job's
 * limits ends the run {@code panel-does-not-fit}, whatever the round's verdict.
 *
 * <p>A round that drew the covered stratum's sample ({@link StratumStore}) judges it apart: clean at
 * zero failures, every item reviewed (a covered item a person found defective where it shipped,
 * {@code santa-batch audit}, is a failure too); otherwise it is reopened, and the round cannot end
 * the loop clean (its members get Pattern C in the next rounds). The rest of the sample, the changed
 * stratum's, is judged as above. While the covered stratum's clean sample holds, its members are not
 * eligible, and a changed stratum reviewed in full makes the round {@code clean}: the covered items
 * ship under their sample.
 */
public final class DecideTasklet implements Tasklet {

    private static final Logger log = LoggerFactory.getLogger(DecideTasklet.class);

    private final Store store;
    private final LoopStore loop;
    private final RunContext run;
    private final UnreachablePatterns unreachable;
    private final StratumStore strata;

    private final boolean judgeFit;

    public DecideTasklet(Store store, LoopStore loop, RunContext run) {
        this(store, loop, run, true);
    }

    /** @param judgeFit whether the panel's fit is judged (off with canaries off by the launcher property) */
    public DecideTasklet(Store store, LoopStore loop, RunContext run, boolean judgeFit) {
        this.judgeFit = judgeFit;
        this.store = store;
        this.loop = loop;
        this.run = run;
        this.unreachable = new UnreachablePatterns(loop);
        this.strata = new StratumStore(loop.jdbc());
    }

    private static boolean unreviewed(LoopStore.SampleOutcome s) {
        return s.outcome() == null || "UNREVIEWED".equals(s.outcome());
    }

    @Override
    public RepeatStatus execute(StepContribution contribution, ChunkContext chunkContext) {
        Optional<LoopStore.Round> current = loop.currentRound(run.runPk());
        if (current.isEmpty()) {
            return RepeatStatus.FINISHED;
        }
        LoopStore.Round round = current.get();
        List<LoopStore.SampleOutcome> sample = loop.sample(run.runPk(), round.round());
        boolean allReviewed = sample.stream().noneMatch(DecideTasklet::unreviewed);
        // the covered stratum's sample, drawn this round: judged apart, at zero failures
        Optional<StratumStore.Draw> drawn = strata.covered(run.runPk());
        Optional<StratumStore.Draw> drawnNow = drawn.filter(d -> d.round() == round.round());
        Set<String> coveredIds = drawnNow.isPresent() ? loop.coveredSample(run.runPk(), round.round()) : Set.of();
        List<LoopStore.SampleOutcome> changed = sample.stream().filter(s -> !coveredIds.contains(s.itemId())).toList();
        boolean reopen = false;
        if (drawnNow.isPresent()) {
            List<LoopStore.SampleOutcome> covered = sample.stream().filter(s -> coveredIds.contains(s.itemId())).toList();
            int unreviewed = (int) covered.stream().filter(DecideTasklet::unreviewed).count();
            // and the items of the covered kind a person found defective where they shipped (not carried)
            int byPerson = (int) new dev.santabatch.carry.CarryStore(loop.jdbc()).coveredDefective(run.runPk());
            int failures = (int) covered.stream().filter(s -> !unreviewed(s) && !s.niceOnFirstReview()).count() + byPerson;
            reopen = failures > 0 || unreviewed > 0;
            strata.decide(run.runPk(), failures, unreviewed, reopen ? round.round() : null);
            log.info("decide: round {}: covered stratum: {} sampled, {} failures ({} found by a person's audit), {}"
                    + " unreviewed: {}", round.round(), covered.size(), failures, byPerson, unreviewed,
                    reopen ? "reopened, its other items join the changed stratum" : "clean (zero failures)");
        }
        // the covered stratum's members held apart by its clean sample are no longer eligible for Pattern C
        boolean held = drawn.isPresent() && !reopen && !drawn.get().reopened();
        long stillEligible = store.countEligible(run.runPk()) - (held ? strata.countMembers(run.runPk()) : 0);
        long changedEligible = drawnNow.map(StratumStore.Draw::changedItems).orElse(round.eligible());
        boolean changedFullReview = drawnNow.map(StratumStore.Draw::changedFullReview).orElse(round.fullReview());
        SampleAcceptance acceptance = SampleAcceptance.of(changed, loop.patterns(run.runPk(), round.round()),
                run.job().santa().acceptanceNumber());
        String decision;
        if (changedEligible == 0 || (changedFullReview && allReviewed && stillEligible == 0)) {
            decision = Decision.FULLY_REVIEWED;
        } else if (!changedFullReview && allReviewed && acceptance.clean()) {
            decision = Decision.CLEAN;
        } else if (stillEligible == 0 && allReviewed) {
            decision = Decision.FULLY_REVIEWED;
        } else if (allReviewed && unreachable.onlyUnreachableFailures(run.runPk(), round.round(), sample)) {
            decision = Decision.UNREACHABLE_PATTERN;
        } else if (round.round() < run.job().santa().maxRounds()) {
            decision = Decision.CONTINUE;
        } else {
            decision = Decision.NOT_CLEAN;
        }
        if (drawn.isPresent()) {
            strata.changedOutcome(run.runPk(), decision);
            if (reopen && (Decision.CLEAN.equals(decision) || Decision.FULLY_REVIEWED.equals(decision))) {
                // the changed stratum is done, the reopened one is not: its items get Pattern C next
                decision = round.round() < run.job().santa().maxRounds() ? Decision.CONTINUE : Decision.NOT_CLEAN;
            } else if (held && Decision.FULLY_REVIEWED.equals(decision)) {
                // every changed item reviewed, the covered ones shipped under their clean sample
                decision = Decision.CLEAN;
            }
        }
        dev.santabatch.canary.PanelFit fit = allReviewed && judgeFit
                ? PanelFitCheck.judge(loop, new dev.santabatch.canary.CanaryStore(loop.jdbc()), run.runPk(), run.job())
                : null;
        if (fit != null && !fit.fits()) {
            fit.failureLines().forEach(l -> log.warn("decide: round {}: the panel does not fit: {}", round.round(), l));
            decision = Decision.PANEL_DOES_NOT_FIT;
        }
        loop.decide(run.runPk(), round.round(), decision);
        loop.recordAcceptance(run.runPk(), round.round(), acceptance.stored());
        long nice = sample.stream().filter(s -> "NICE".equals(s.outcome())).count();
        long first = sample.stream().filter(LoopStore.SampleOutcome::niceOnFirstReview).count();
        log.info("decide: round {}: {} sampled, {} nice ({} on first review; {} failures, acceptance number {}{}),"
                + " {} eligible left: {}", round.round(), sample.size(), nice, first, acceptance.failures(),
                acceptance.acceptanceNumber(), acceptance.systematic() ? ", systematic" : "", stillEligible, decision);
        return RepeatStatus.FINISHED;
    }
}
