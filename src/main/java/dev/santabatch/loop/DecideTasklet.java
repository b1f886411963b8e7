package dev.santabatch.loop;

import dev.santabatch.run.RunContext;
import dev.santabatch.store.Store;
import java.util.List;
import java.util.Optional;
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
 */
final class DecideTasklet implements Tasklet {

    private static final Logger log = LoggerFactory.getLogger(DecideTasklet.class);

    private final Store store;
    private final LoopStore loop;
    private final RunContext run;
    private final UnreachablePatterns unreachable;

    private final boolean judgeFit;

    DecideTasklet(Store store, LoopStore loop, RunContext run) {
        this(store, loop, run, true);
    }

    /** @param judgeFit whether the panel's fit is judged (off with canaries off by the launcher property) */
    DecideTasklet(Store store, LoopStore loop, RunContext run, boolean judgeFit) {
        this.judgeFit = judgeFit;
        this.store = store;
        this.loop = loop;
        this.run = run;
        this.unreachable = new UnreachablePatterns(loop);
    }

    @Override
    public RepeatStatus execute(StepContribution contribution, ChunkContext chunkContext) {
        Optional<LoopStore.Round> current = loop.currentRound(run.runPk());
        if (current.isEmpty()) {
            return RepeatStatus.FINISHED;
        }
        LoopStore.Round round = current.get();
        List<LoopStore.SampleOutcome> sample = loop.sample(run.runPk(), round.round());
        boolean allReviewed = sample.stream().noneMatch(s -> s.outcome() == null || "UNREVIEWED".equals(s.outcome()));
        SampleAcceptance acceptance = SampleAcceptance.of(sample, loop.patterns(run.runPk(), round.round()),
                run.job().santa().acceptanceNumber());
        long stillEligible = store.countEligible(run.runPk());
        String decision;
        if (round.eligible() == 0 || (round.fullReview() && allReviewed && stillEligible == 0)) {
            decision = Decision.FULLY_REVIEWED;
        } else if (!round.fullReview() && allReviewed && acceptance.clean()) {
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
