package dev.santabatch.patterns;

import dev.santabatch.rounds.UnreachablePatterns;
import dev.santabatch.execution.RunContext;
import dev.santabatch.execution.StopSignal;
import dev.santabatch.review.IssueSimilarity;
import dev.santabatch.rounds.LoopStore;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
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
 * Classifies the round's failures (the merged critical issues of each sampled item's first review)
 * into patterns; a pattern seen in at least {@code santa.systematic-min-items} sampled items is
 * systematic. The patterns that came back after the last round's batch fix fell short are marked
 * unreachable ({@link UnreachablePatterns}). Written once per round, in the step's transaction; a
 * restarted round keeps them (and the batch-fix counts made against them). A requested stop is seen
 * as the classifier embeds and clusters (a 100,000-item round's failures take minutes): the step
 * ends STOPPED with nothing written, and a restart classifies the round afresh.
 */
public final class ClassifyTasklet implements Tasklet {

    private static final Logger log = LoggerFactory.getLogger(ClassifyTasklet.class);

    private final LoopStore loop;
    private final RunContext run;
    private final FailureClassifier classifier;
    private final UnreachablePatterns unreachable;
    private final IssueSimilarity similarity;

    /** @param similarity whether two pattern labels are the same problem (the classifier's, at {@code santa.pattern-similarity}) */
    public ClassifyTasklet(LoopStore loop, RunContext run, FailureClassifier classifier, IssueSimilarity similarity) {
        this.loop = loop;
        this.run = run;
        this.classifier = classifier;
        this.unreachable = new UnreachablePatterns(loop);
        this.similarity = similarity;
    }

    @Override
    public RepeatStatus execute(StepContribution contribution, ChunkContext chunkContext) {
        Optional<LoopStore.Round> current = loop.currentRound(run.runPk());
        if (current.isEmpty()) {
            return RepeatStatus.FINISHED;
        }
        int round = current.get().round();
        if (!loop.patterns(run.runPk(), round).isEmpty()) {
            // classified before a restart: keep the patterns and the batch-fix counts made against them
            log.info("classify: round {} was classified before; keeping its patterns", round);
            return RepeatStatus.FINISHED;
        }
        List<FailureClassifier.Failure> failures = new ArrayList<>();
        for (LoopStore.IssueRow i : loop.issues(run.runPk(), round)) {
            if (i.criterion() != null) {
                failures.add(new FailureClassifier.Failure(i.itemId(), i.criterion(), i.text()));
            }
        }
        int sampled = loop.sample(run.runPk(), round).size();
        List<LoopStore.PatternRow> rows = new ArrayList<>();
        int no = 0;
        for (FailureClassifier.Pattern p : classifier.classify(failures, sampled, StopSignal::requested)) {
            List<String> items = new ArrayList<>(new LinkedHashSet<>(p.itemIds()));
            boolean systematic = items.size() >= run.job().santa().systematicMinItems();
            rows.add(new LoopStore.PatternRow(++no, p.criterion(), p.label(), items, p.share(), systematic, 0, 0, 0));
        }
        loop.replacePatterns(run.runPk(), round, rows);
        Set<Integer> unreachableNos = new HashSet<>();
        for (UnreachablePatterns.Unreachable u : unreachable.mark(run.runPk(), round, rows, similarity)) {
            unreachableNos.add(u.patternNo());
            log.info("classify: round {}: pattern {} came back after the batch fix of round {} reached {} of the {} items"
                    + " its sample predicted: unreachable, no more matcher calls for it", round, u.patternNo(), u.shortRound(),
                    u.reached(), Math.round(u.predicted()));
        }
        long systematic = rows.stream().filter(LoopStore.PatternRow::systematic).count();
        log.info("classify: round {}: {} failure(s) in {} pattern(s), {} systematic", round, failures.size(), rows.size(), systematic);
        for (LoopStore.PatternRow p : rows) {
            log.info("  pattern {} [{}] {} item(s){}{}: {}", p.patternNo(), p.criterion(), p.items().size(),
                    p.systematic() ? " SYSTEMATIC" : "", unreachableNos.contains(p.patternNo()) ? " UNREACHABLE" : "", p.label());
        }
        return RepeatStatus.FINISHED;
    }
}
