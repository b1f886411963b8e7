package dev.santabatch.review;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Phases 2-4 for one item: review, gate, and fix until nice, counted explicitly.
 *
 * <pre>
 * review 0 (fresh panel) → gate (NAUGHTY whatever it says when the text is flagged: a FAIL
 *     seen outside this review stands, and its issues join review 0's)
 * for fix = 1 .. maxIterations while NAUGHTY:
 *     fix the merged critical issues (an empty, truncated or unchanged text is retried once
 *     as a fresh call; still unusable → ESCALATED; a fixer that has no fix → ESCALATED, NO_FIX;
 *     a text that is no real change of what the issues flag ({@link FixSubstance}) is not stored
 *     nor reviewed: the iteration ends and the next asks again, and when it was the last one →
 *     ESCALATED, FIX_UNCHANGED)
 *     re-check the fixed text with the rules (any violation → ESCALATED, the fix is rejected)
 *     review again with a fresh panel → gate
 * the gate of the review after the last fix decides: NICE, else ESCALATED
 * </pre>
 *
 * Unlike the seed's pseudo-code, the review after the last fix is always looked at. Reviews
 * stored earlier for the item's current text (the same revision) can be handed in: in review 0,
 * a reviewer with such a review is not called again and its review is reused; every review after
 * a fix is by fresh reviewers, called. A reviewer
 * that fails to review, in any iteration, or a fixer transport failure, ends the item UNREVIEWED
 * for this round (not fixed further, not escalated). {@link ConfigurationException} propagates.
 *
 * <p>Thread-safe when its collaborators are: the lead may process several items at once.
 */
public final class SantaProcessor {

    private final SantaSettings settings;
    private final ReviewerFactory reviewers;
    private final Fixer fixer;
    private final RevisionCheck revisionCheck;
    private final Panel panel;
    private final Gate gate;

    public SantaProcessor(
            SantaSettings settings,
            ReviewerFactory reviewers,
            Fixer fixer,
            RevisionCheck revisionCheck,
            Panel panel,
            Gate gate) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.reviewers = Objects.requireNonNull(reviewers, "reviewers");
        this.fixer = Objects.requireNonNull(fixer, "fixer");
        this.revisionCheck = Objects.requireNonNull(revisionCheck, "revisionCheck");
        this.panel = Objects.requireNonNull(panel, "panel");
        this.gate = Objects.requireNonNull(gate, "gate");
    }

    /**
     * @param itemId the item's id
     * @param content the item's current text (its latest revision)
     * @param source the item's source fields
     */
    public SantaResult process(String itemId, String content, Map<String, String> source) {
        return process(itemId, content, source, Map.of());
    }

    /**
     * As {@link #process(String, String, Map)}, reusing in review 0 the reviews stored earlier for
     * {@code content}: reviewer id to its stored (validated) review. A reused review is not paid
     * again; its {@link ReviewRecord#reused()} is true.
     */
    public SantaResult process(String itemId, String content, Map<String, String> source, Map<String, Review> stored) {
        return process(itemId, content, source, stored, List.of());
    }

    /**
     * As {@link #process(String, String, Map, Map)}, for a text that already carries FAILs seen
     * outside its own review ({@code standing}, each as {@code <reviewer>: <issue>}: the item is
     * flagged on its current revision). A FAIL stands on the text whatever review 0 says, so review 0
     * is NAUGHTY ({@link Gate#withStanding}): the fixer gets the standing issues, merged with review
     * 0's own without duplicates, and the fix is reviewed afresh by the whole panel, an iteration like
     * any other. Review 0's own issues stay its {@link SantaResult#firstIssues()}.
     */
    public SantaResult process(String itemId, String content, Map<String, String> source, Map<String, Review> stored,
            List<String> standing) {
        Run run = new Run(itemId, content, source, stored, standing);
        return run.go();
    }

    /** The state of one item's loop. */
    private final class Run {
        final String itemId;
        final Map<String, String> source;
        String text;
        int panelReviews;
        final List<ReviewRecord> records = new ArrayList<>();
        final List<FixRevision> revisions = new ArrayList<>();
        List<MergedIssue> firstIssues = List.of();
        final Map<String, Review> stored;
        final List<String> standing;

        Run(String itemId, String content, Map<String, String> source, Map<String, Review> stored, List<String> standing) {
            this.itemId = Objects.requireNonNull(itemId, "itemId");
            this.text = Objects.requireNonNull(content, "content");
            this.source = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(source));
            this.stored = Map.copyOf(stored);
            this.standing = List.copyOf(standing);
        }

        SantaResult go() {
            GateResult verdict = reviewRound(0);
            @Nullable Attempt missed = null; // the last iteration's fix, when it changed nothing its issues flag
            for (int fix = 1; ; fix++) {
                switch (verdict.verdict()) {
                    case UNREVIEWED -> {
                        return result(SantaOutcome.UNREVIEWED, SantaReason.REVIEWER_FAILED,
                                "failed to review: " + failures(revisions.size()), verdict, null, List.of());
                    }
                    case NICE -> {
                        return result(SantaOutcome.NICE, null, "", verdict, null, List.of());
                    }
                    case NAUGHTY -> {
                        // handled below
                    }
                }
                if (verdict.criticalIssues().isEmpty()) {
                    return result(SantaOutcome.ESCALATED, SantaReason.CRITERION_NOT_JUDGED,
                            "judged by no reviewer: " + verdict.unjudgedCriteria(), verdict, null, List.of());
                }
                if (fix > settings.maxIterations() && missed != null) {
                    return result(SantaOutcome.ESCALATED, SantaReason.FIX_UNCHANGED, "fix " + (fix - 1) + " of "
                            + settings.maxIterations() + ": " + missed.why, verdict, missed.text, List.of());
                }
                if (fix > settings.maxIterations()) {
                    return result(SantaOutcome.ESCALATED, SantaReason.STILL_NAUGHTY,
                            "still naughty after " + settings.maxIterations() + " fix(es); failed criteria "
                                    + verdict.failedCriteria(), verdict, null, List.of());
                }
                FixRequest request = new FixRequest(text, source, verdict.issueTexts(), settings.taskSpec(), itemId);
                Attempt attempt = fixOnce(request, verdict, revisions.size());
                int attempts = 1;
                if (attempt.unusable != null && !attempt.noRealChange) { // (nor is a fixer that has no fix)
                    fixer.retrying(request);
                    attempt = fixOnce(request, verdict, revisions.size()); // a fresh call
                    attempts = 2;
                }
                if (attempt.noRealChange) {
                    missed = attempt; // an iteration without a real change: not stored, the same issues again
                    continue;
                }
                missed = null;
                if (attempt.cannotFix != null) {
                    return result(SantaOutcome.ESCALATED, SantaReason.NO_FIX, "no fix: " + attempt.cannotFix, verdict,
                            null, List.of());
                }
                if (attempt.transportFailure != null) {
                    return result(SantaOutcome.UNREVIEWED, SantaReason.FIXER_FAILED,
                            "fixer failed: " + attempt.transportFailure, verdict, null, List.of());
                }
                if (attempt.unusable != null) {
                    return result(SantaOutcome.ESCALATED, attempt.unusable,
                            "fix " + fix + " unusable twice: " + attempt.why, verdict,
                            attempt.text, List.of());
                }
                List<String> violations = List.copyOf(revisionCheck.violations(attempt.text, source));
                if (!violations.isEmpty()) {
                    return result(SantaOutcome.ESCALATED, SantaReason.FIX_BREAKS_RULES,
                            "fix " + fix + " breaks rules: " + String.join("; ", violations), verdict,
                            attempt.text, violations);
                }
                revisions.add(new FixRevision(revisions.size() + 1, text, attempt.text, verdict.issueTexts(), attempts));
                text = attempt.text;
                verdict = reviewRound(revisions.size());
            }
        }

        GateResult reviewRound(int iteration) {
            ReviewRequest request =
                    new ReviewRequest(settings.taskSpec(), itemId, source, text, settings.santaCriteria());
            List<Reviewer> members = reviewers.newPanel();
            // review 0 is of the text the stored reviews are of: those reviewers are not called again
            Map<String, PanelReview> reused = new java.util.HashMap<>();
            if (iteration == 0) {
                for (Reviewer r : members) {
                    Review review = stored.get(r.id());
                    if (review != null) {
                        panel.stored(r, request, review).ifPresent(pr -> reused.put(r.id(), pr));
                    }
                }
            }
            List<Reviewer> toCall = members.stream().filter(r -> !reused.containsKey(r.id())).toList();
            java.util.Iterator<PanelReview> called =
                    toCall.isEmpty() ? java.util.Collections.emptyIterator() : panel.review(toCall, request).iterator();
            List<PanelReview> reviews = new ArrayList<>(members.size());
            for (Reviewer r : members) {
                PanelReview pr = reused.containsKey(r.id()) ? reused.get(r.id()) : called.next();
                reviews.add(pr);
                records.add(ReviewRecord.of(iteration, pr, reused.containsKey(r.id())));
            }
            panelReviews++;
            GateResult result = gate.decide(settings.criterionIds(), reviews);
            if (iteration == 0) {
                firstIssues = result.criticalIssues();
                // a FAIL seen outside this review stands on the same text: NAUGHTY whatever review 0 said
                return gate.withStanding(result, settings.criterionIds(), standing);
            }
            return result;
        }

        /**
         * Why each reviewer of review {@code iteration} failed, for people: the reviewer and its
         * failure message (for a model: model, endpoint, attempts and the last error's kind and HTTP
         * status), e.g. {@code B: model 'm' at http://host/v1 (reviewer:B): 4 attempt(s) failed; last: connection ...}.
         */
        String failures(int iteration) {
            List<String> out = new ArrayList<>();
            for (ReviewRecord r : records) {
                if (r.iteration() == iteration && r.outcome() != ReviewRecord.Kind.REVIEWED) {
                    out.add(r.reviewerId() + ": " + (r.failure() == null ? r.outcome().name() : r.failure()));
                }
            }
            return String.join("; ", out);
        }

        /**
         * One fixer call for the issues of {@code verdict}, the gate of review {@code reviewed}. A
         * text that is no {@link FixSubstance real change} of what the issues flag is unusable as an
         * unchanged one is.
         */
        Attempt fixOnce(FixRequest request, GateResult verdict, int reviewed) {
            FixOutcome outcome = fixer.fix(request);
            if (outcome instanceof FixOutcome.FailedToFix failed) {
                return new Attempt(null, null, null, false, failed.message(), null);
            }
            if (outcome instanceof FixOutcome.CannotFix no) {
                return new Attempt(null, null, null, false, null, no.why());
            }
            if (!(outcome instanceof FixOutcome.Fixed fixed)) {
                throw new IllegalStateException("fixer returned no outcome");
            }
            if (fixed.text().isBlank()) {
                return unusable(fixed.text(), SantaReason.FIX_EMPTY, "empty text");
            }
            if (fixed.truncated()) {
                return unusable(fixed.text(), SantaReason.FIX_TRUNCATED, "truncated text");
            }
            if (FixOutcome.unchanged(fixed.text(), request.content())) {
                return unusable(fixed.text(), SantaReason.FIX_UNCHANGED, "text unchanged");
            }
            List<ReviewRecord> reviews = records.stream().filter(r -> r.iteration() == reviewed).toList();
            return FixSubstance.noRealChange(request.content(), fixed.text(), verdict.criticalIssues(), reviews)
                    .map(why -> new Attempt(fixed.text(), SantaReason.FIX_UNCHANGED, "no real change: " + why, true, null, null))
                    .orElseGet(() -> new Attempt(fixed.text(), null, null, false, null, null));
        }

        private static Attempt unusable(String text, SantaReason reason, String why) {
            return new Attempt(text, reason, why, false, null, null);
        }

        SantaResult result(SantaOutcome outcome, @Nullable SantaReason reason, String detail, GateResult last,
                @Nullable String rejectedFix, List<String> violations) {
            List<MergedIssue> open = outcome == SantaOutcome.ESCALATED ? last.criticalIssues() : List.of();
            return new SantaResult(itemId, outcome, reason, detail, panelReviews, revisions.size(), records,
                    revisions, text, rejectedFix, violations, open, last.suggestions(), firstIssues);
        }
    }

    /**
     * @param unusable why the fixer's text cannot be used, {@code null} when it can
     * @param why that, for people (e.g. {@code no real change: the quoted evidence "..." is left in place})
     * @param noRealChange the text is usable as text but no real change of what the issues flag
     *     ({@link FixSubstance}): the iteration ends without a stored fix and the next one asks again
     */
    private record Attempt(@Nullable String text, @Nullable SantaReason unusable, @Nullable String why,
            boolean noRealChange, @Nullable String transportFailure, @Nullable String cannotFix) {}
}
