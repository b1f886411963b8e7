package dev.santabatch.canary;

import dev.santabatch.config.JobDefinition;
import dev.santabatch.config.ReviewerSpec;
import dev.santabatch.rounds.LoopStore;
import java.util.ArrayList;
import java.util.List;

/** The run's canary estimates and the panel's fit, from the store (the decide step and the report read the same). */
public final class PanelFitCheck {

    private PanelFitCheck() {}

    public static CanaryEstimates estimates(CanaryStore canaries, long runPk, JobDefinition job) {
        return CanaryEstimates.of(canaries.all(runPk), canaries.verdicts(runPk),
                job.reviewers().stream().map(ReviewerSpec::id).toList());
    }

    /** Every round's first-review failures among its reviewed sample (rounds not wholly reviewed are left out). */
    public static List<PanelFit.RoundFailures> roundFailures(LoopStore loop, long runPk) {
        List<PanelFit.RoundFailures> out = new ArrayList<>();
        for (LoopStore.Round r : loop.rounds(runPk)) {
            List<LoopStore.SampleOutcome> sample = loop.sample(runPk, r.round());
            if (sample.isEmpty() || sample.stream().anyMatch(s -> s.outcome() == null || "UNREVIEWED".equals(s.outcome()))) {
                continue;
            }
            long failures = sample.stream().filter(s -> !s.niceOnFirstReview()).count();
            out.add(new PanelFit.RoundFailures(r.round(), failures, sample.size()));
        }
        return out;
    }

    public static PanelFit judge(LoopStore loop, CanaryStore canaries, long runPk, JobDefinition job) {
        return PanelFit.judge(estimates(canaries, runPk, job), roundFailures(loop, runPk), job.santa().fit());
    }
}
