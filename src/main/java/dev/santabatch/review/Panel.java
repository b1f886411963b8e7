package dev.santabatch.review;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * Phase 2, "check it twice": runs every reviewer of one round in parallel on the same immutable
 * {@link ReviewRequest} instance. Reviewers share nothing and none sees another's review: each
 * task gets only the request. A reviewer's review is validated again here (the gate relies on one
 * check per criterion); an invalid one counts as {@code FailedToReview(INVALID_ANSWER)}.
 *
 * <p>A {@link ConfigurationException} (or any other exception, a reached budget among them) from a
 * reviewer propagates, after the other reviewers' tasks not yet started are cancelled and those
 * already asking have answered: their reviews are handed to the caller first (a FAIL among them is
 * a FAIL on the text, whatever stopped the panel).
 */
public final class Panel {

    private final ExecutorService executor;
    private final ReviewValidator validator;

    /**
     * @param executor runs the reviewers; needs at least as many threads as there are reviewers
     *     per item times the items reviewed at once, or reviews of one item run one after the other
     */
    public Panel(ExecutorService executor, ReviewValidator validator) {
        this.executor = Objects.requireNonNull(executor, "executor");
        this.validator = Objects.requireNonNull(validator, "validator");
    }

    /** The reviews of one round, in the order of {@code reviewers}. */
    public List<PanelReview> review(List<Reviewer> reviewers, ReviewRequest request) {
        return review(reviewers, request, received -> {});
    }

    /**
     * The reviews of one round, in the order of {@code reviewers}; when a reviewer's exception ends the
     * panel, {@code received} is first given the reviews the others completed (not called when none did).
     */
    public List<PanelReview> review(List<Reviewer> reviewers, ReviewRequest request,
            Consumer<List<PanelReview>> received) {
        if (reviewers.isEmpty()) {
            throw new IllegalArgumentException("a panel needs at least one reviewer");
        }
        Set<String> ids = new HashSet<>();
        for (Reviewer r : reviewers) {
            if (!ids.add(r.id())) {
                throw new IllegalArgumentException("two reviewers named '" + r.id() + "' in one panel");
            }
        }
        List<Future<PanelReview>> futures = new ArrayList<>(reviewers.size());
        List<AtomicBoolean> claimed = new ArrayList<>(reviewers.size());
        for (Reviewer reviewer : reviewers) {
            AtomicBoolean claim = new AtomicBoolean();
            claimed.add(claim);
            // a task starts only if the panel has not given it up first (see answered)
            futures.add(executor.submit(() -> claim.compareAndSet(false, true) ? reviewOne(reviewer, request) : null));
        }
        List<PanelReview> out = new ArrayList<>(reviewers.size());
        try {
            for (Future<PanelReview> f : futures) {
                out.add(f.get());
            }
        } catch (InterruptedException e) {
            CancellationException stopped = new CancellationException("interrupted while waiting for reviewers");
            handOver(out, futures, claimed, out.size(), received, stopped); // waits for started reviewers
            Thread.currentThread().interrupt();
            throw stopped;
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof Error err) {
                for (int i = out.size() + 1; i < futures.size(); i++) {
                    if (claimed.get(i).compareAndSet(false, true)) {
                        futures.get(i).cancel(false); // never started: never called
                    }
                }
                throw err;
            }
            RuntimeException thrown = cause instanceof RuntimeException re ? re
                    : new IllegalStateException("reviewer failed unexpectedly", cause);
            handOver(out, futures, claimed, out.size() + 1, received, thrown);
            throw thrown;
        }
        return List.copyOf(out);
    }

    /**
     * Gives {@code received} the reviews completed before {@code thrown} ended the panel: those in
     * {@code out} and those of the tasks from {@code from} on that had started. A hold that could not be
     * stored fails the caller: the callback's exception is thrown, {@code thrown} suppressed in it.
     */
    private static void handOver(List<PanelReview> out, List<Future<PanelReview>> futures, List<AtomicBoolean> claimed,
            int from, Consumer<List<PanelReview>> received, RuntimeException thrown) {
        List<PanelReview> completed = new ArrayList<>(out);
        for (int i = from; i < futures.size(); i++) {
            answered(futures.get(i), claimed.get(i)).ifPresent(completed::add);
        }
        if (completed.isEmpty()) {
            return;
        }
        try {
            received.accept(List.copyOf(completed));
        } catch (RuntimeException e) {
            e.addSuppressed(thrown);
            throw e;
        }
    }

    /**
     * The review of a reviewer task after another ended the panel: empty when it had not started (it
     * never will; no interrupt of one that has, a reviewer may be inside the store) or ended without one.
     */
    private static Optional<PanelReview> answered(Future<PanelReview> f, AtomicBoolean claim) {
        if (claim.compareAndSet(false, true)) {
            f.cancel(false);
            return Optional.empty();
        }
        try {
            return Optional.ofNullable(f.get());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        } catch (ExecutionException | CancellationException e) {
            return Optional.empty();
        }
    }

    /**
     * A review stored earlier by {@code reviewer} for the same revision of the same item, checked
     * again as a fresh answer would be; empty when it no longer validates (the reviewer is then
     * called instead). The reviewer is not called.
     */
    public Optional<PanelReview> stored(Reviewer reviewer, ReviewRequest request, Review review) {
        ReviewValidation v = validator.validate(review, request.criterionIds(), reviewer.criteria());
        if (v instanceof ReviewValidation.Valid valid) {
            return Optional.of(new PanelReview(reviewer.id(), reviewer.criteria(),
                    new ReviewOutcome.Reviewed(valid.review(), Duration.ZERO, valid.reattributedIssues(), valid.derivedIssues()),
                    Duration.ZERO));
        }
        return Optional.empty();
    }

    private PanelReview reviewOne(Reviewer reviewer, ReviewRequest request) {
        long start = System.nanoTime();
        ReviewOutcome outcome = reviewer.review(request);
        Duration elapsed = Duration.ofNanos(System.nanoTime() - start);
        if (outcome == null) {
            outcome = new ReviewOutcome.FailedToReview(
                    ReviewOutcome.FailureKind.INVALID_ANSWER, "reviewer returned no outcome");
        } else if (outcome instanceof ReviewOutcome.Reviewed reviewed) {
            ReviewValidation v = validator.validate(reviewed.review(), request.criterionIds(), reviewer.criteria());
            if (v instanceof ReviewValidation.Invalid bad) {
                outcome = new ReviewOutcome.FailedToReview(
                        ReviewOutcome.FailureKind.INVALID_ANSWER, bad.message(), bad.kind());
            } else if (v instanceof ReviewValidation.Valid valid && valid.attributed()) {
                // a reviewer that does not validate its own answers (an offline one): counted here
                outcome = new ReviewOutcome.Reviewed(valid.review(), reviewed.duration(),
                        reviewed.reattributedIssues() + valid.reattributedIssues(),
                        reviewed.derivedIssues() + valid.derivedIssues());
            }
        }
        return new PanelReview(reviewer.id(), reviewer.criteria(), outcome, elapsed);
    }
}
