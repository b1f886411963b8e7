package dev.santabatch.review.step;

import dev.santabatch.model.ModelCalls;
import dev.santabatch.patterns.FailureClassifier;
import dev.santabatch.config.JobDefinition;
import dev.santabatch.config.ReviewerSpec;
import dev.santabatch.review.offline.CatalogSnapshot;
import dev.santabatch.review.Fixer;
import dev.santabatch.review.Gate;
import dev.santabatch.review.IssueSimilarity;
import dev.santabatch.review.Panel;
import dev.santabatch.review.Reviewer;
import dev.santabatch.review.ReviewValidator;
import dev.santabatch.review.RevisionCheck;
import dev.santabatch.review.SantaProcessor;
import dev.santabatch.review.SantaSettings;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * The run's Santa panel: its reviewer types (prepared once per round), fresh reviewers for every
 * panel review, the gate, the fixer and the processor that runs the convergence loop per item.
 */
public final class Panels implements AutoCloseable {

    private final JobDefinition job;
    private final Map<String, ReviewerType> types;
    private final ExecutorService executor;
    private final Gate gate;
    private final Panel panel;
    private final SantaProcessor processor;
    private final Fixer fixer;
    private final RevisionCheck revisionCheck;
    private final IssueSimilarity similarity;
    private final FailureClassifier classifier;
    private final ModelCalls modelCalls;
    private final SantaSettings settings;
    private volatile AnswerListener answers = AnswerListener.NONE;

    public Panels(JobDefinition job, Map<String, ReviewerType> types, RevisionCheck revisionCheck,
            IssueSimilarity similarity, FailureClassifier classifier, Function<Panels, Fixer> fixerFactory,
            ModelCalls modelCalls) {
        this.job = job;
        this.modelCalls = modelCalls;
        this.similarity = similarity;
        this.classifier = classifier;
        this.types = Map.copyOf(types);
        for (ReviewerSpec spec : job.reviewers()) {
            if (!types.containsKey(spec.type())) {
                throw new IllegalArgumentException("reviewer '" + spec.id() + "': type '" + spec.type()
                        + "' is not available in this build (available: " + types.keySet() + ")");
            }
        }
        int threads = Math.max(2, job.run().concurrency() * job.reviewers().size());
        AtomicInteger n = new AtomicInteger();
        this.executor = Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, "santa-reviewer-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        this.gate = new Gate(similarity);
        this.panel = new Panel(executor, new ReviewValidator());
        this.revisionCheck = revisionCheck;
        this.fixer = fixerFactory.apply(this);
        this.settings = SantaSettings.of(job);
        this.processor = new SantaProcessor(settings, this::listenedPanel, fixer, revisionCheck, panel, gate);
    }

    /** Prepares every reviewer type the panel uses for a round (idempotent). */
    public void prepare(CatalogSnapshot snapshot) {
        Set<String> used = new LinkedHashSet<>();
        job.reviewers().forEach(r -> used.add(r.type()));
        used.forEach(t -> types.get(t).prepare(snapshot));
    }

    /** Fresh reviewer instances, one per panel member, in job-file order. */
    public List<Reviewer> newPanel() {
        List<Reviewer> reviewers = new ArrayList<>();
        for (ReviewerSpec spec : job.reviewers()) {
            reviewers.add(types.get(spec.type()).create(spec));
        }
        return reviewers;
    }

    /** The processor's panels: fresh reviewers whose answers the {@link #listen listener} is told of. */
    private List<Reviewer> listenedPanel() {
        AnswerListener l = answers;
        return l == AnswerListener.NONE ? newPanel() : newPanel().stream().map(l::listening).toList();
    }

    /** Tells {@code listener} of every answer of the {@link #processor()}'s reviewers. Defaults to none. */
    public void listen(AnswerListener listener) {
        this.answers = listener;
    }

    public ReviewerType type(String name) {
        return types.get(name);
    }

    public JobDefinition job() {
        return job;
    }

    /** The job's Santa settings (built once: the batch-fix steps read them for every item). */
    public SantaSettings settings() {
        return settings;
    }

    public Gate gate() {
        return gate;
    }

    public Panel panel() {
        return panel;
    }

    public Fixer fixer() {
        return fixer;
    }

    public IssueSimilarity similarity() {
        return similarity;
    }

    /**
     * Whether an item's issue is a pattern's problem (the batch-fix matcher): issues of different
     * items compared by what they say, not by the evidence the gate compares within one item (other
     * items' issues quote other sentences and name other neighbours).
     */
    public IssueSimilarity patternSimilarity() {
        return similarity instanceof EvidenceIssueSimilarity e ? e.wording() : similarity;
    }

    public FailureClassifier classifier() {
        return classifier;
    }

    /** The run's model calls: governor, spend, budget stop, model matcher. */
    public ModelCalls modelCalls() {
        return modelCalls;
    }

    public RevisionCheck revisionCheck() {
        return revisionCheck;
    }

    public SantaProcessor processor() {
        return processor;
    }

    @Override
    public void close() {
        // no interrupts: a reviewer thread may be inside the store, and an interrupted H2 file
        // channel closes the database; the job has finished with the pool by now
        executor.shutdown();
    }
}
