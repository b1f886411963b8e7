package dev.santabatch.plan;

import dev.santabatch.config.Criterion;
import dev.santabatch.config.JobDefinition;
import dev.santabatch.config.ModelSpec;
import dev.santabatch.config.ReviewerSpec;
import dev.santabatch.batchfix.MatchRequest;
import dev.santabatch.batchfix.PatternNarrowing;
import dev.santabatch.sampling.StratumStore;
import dev.santabatch.review.FixRequest;
import dev.santabatch.review.ReviewRequest;
import dev.santabatch.config.SamplingSettings;
import dev.santabatch.sampling.StratifiedSampler;
import dev.santabatch.sampling.StratumKey;
import dev.santabatch.stats.AcceptanceNumber;
import dev.santabatch.stats.StratumBound;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * A run's expected model calls, tokens and cost, before it runs (docs/plan.md): round 1's and a
 * whole run's against full verification, from a {@link Census} of what round 1 starts with and the
 * {@link PlanHistory} of the job's last runs. The model of a round:
 *
 * <ul>
 *   <li>round 1 samples the changed stratum (new, changed and judged-afresh items) at
 *       {@code sampling.rate}, by category, and the covered stratum (items carried over as covered)
 *       with its fixed size, as the sample step draws them; later rounds sample the changed stratum's
 *       items left, and the covered stratum's too as often as the job's last runs reopened theirs;
 *   <li>every sampled item is reviewed once by each model reviewer;
 *   <li>a share {@code 1 − p} of them is NAUGHTY (p the expected first-pass rate); each is fixed and
 *       reviewed again by each model reviewer, and a fixed text fails again at the same rate, up to
 *       {@code santa.max-iterations} fixes: {@code Σ_{i < max} (1 − p)^i} fixes per NAUGHTY item; a
 *       covered item, shipped before under a clean sample, fails at the panel's false-failure rate only;
 *   <li>the round's canaries ({@code santa.canary-share} of the sample, at least
 *       {@code santa.min-canaries}, no more than the items passed) are reviewed by each model reviewer;
 *   <li>with a model matcher, the failures form systematic patterns of {@code santa.systematic-min-items}
 *       items (the smallest, and the commonest), and each pattern's matcher calls are its candidate cap:
 *       the prevalence's 95 % upper limit × the eligible items left × 1.5, at most
 *       {@code matcher.max-candidate-share} of them (as the batch fix caps them);
 *   <li>a whole run takes the rounds the job's last runs took (their median), else two; its last round
 *       is clean: its failures are the panel's false failures (2 % per reviewer), with no batch fix.
 * </ul>
 *
 * Full verification is every eligible item reviewed by each model reviewer, with fixes at the same
 * first-pass rate. A call's tokens are those the call governor reserves for it (the prompt's
 * characters / 4, and the model's {@code max-output-tokens}), averaged over the prompts built for
 * {@value Census#PROMPT_ITEMS} real eligible items; its cost is at the job file's prices.
 */
public final class Plan {

    /**
     * What the plan is asked beyond the job and the store.
     *
     * @param canaries whether rounds draw canaries (the launcher's canary switch)
     * @param targetBound the bound whose clean sample size is stated ({@code --target-bound}, else
     *     {@code carry-over.target-bound})
     */
    public record Options(boolean canaries, double targetBound) {}

    /** Expected calls of one kind, per round or run: as counted by the call governor (no retries). */
    record Calls(double reviews, double fixes, double fixReviews, double canaryReviews, double matcher) {

        static final Calls NONE = new Calls(0, 0, 0, 0, 0);

        Calls plus(Calls o) {
            return new Calls(reviews + o.reviews, fixes + o.fixes, fixReviews + o.fixReviews,
                    canaryReviews + o.canaryReviews, matcher + o.matcher);
        }

        double total() {
            return reviews + fixes + fixReviews + canaryReviews + matcher;
        }
    }

    /** One round as planned: its eligible items, sample and calls. */
    record Round(int round, long eligible, int sample, boolean clean, Calls calls) {}

    private final JobDefinition job;
    private final String input;
    private final Census census;
    private final PlanHistory history;
    private final Options options;
    private final List<ModelSpec> reviewers;
    private final @Nullable ModelSpec fixer;
    private final @Nullable ModelSpec matcher;
    private final Sample roundOneSample;
    private final double fixIterations;
    private final List<Round> rounds;
    private final Calls fullVerification;
    private final PerCall perCall;

    private Plan(JobDefinition job, String input, Census census, PlanHistory history, Options options) {
        this.job = job;
        this.input = input;
        this.census = census;
        this.history = history;
        this.options = options;
        this.reviewers = job.reviewers().stream().filter(r -> "llm".equals(r.type())).map(ReviewerSpec::model).toList();
        this.fixer = "llm".equals(job.fixer().type()) ? job.fixer().model() : null;
        this.matcher = job.batchFixByModelMatcher() ? job.matcher().model() : null;
        this.roundOneSample = sample(job, census);
        double q = 1 - history.firstPassRate();
        this.fixIterations = fixIterations(q, job.santa().maxIterations());
        this.rounds = rounds(q);
        long e = census.eligibleTotal();
        double naughty = q * e;
        this.fullVerification = new Calls(e * reviewers.size(), fixer == null ? 0 : naughty * fixIterations,
                naughty * fixIterations * reviewers.size(), 0, 0);
        this.perCall = PerCall.of(job, census.promptItems(), reviewers, fixer, matcher);
    }

    /**
     * Round 1's sample: the changed stratum's Pattern C allocation and the covered stratum's fixed sample.
     *
     * @param covered the covered stratum's members N_v
     * @param coveredSample its fixed sample n_v (0 without members)
     * @param strata H, the strata round 1 samples
     * @param looks k, the looks at the covered stratum this would be
     */
    record Sample(StratifiedSampler.Allocation changed, long covered, int coveredSample, int strata, int looks) {

        long eligible() {
            return changed.eligible() + covered;
        }

        int size() {
            return changed.sampleSize() + coveredSample;
        }

        /** The changed stratum's bound if its sample is clean; 0 when reviewed in full beside a covered one. */
        @Nullable Double changedBound() {
            if (changed.eligible() == 0) {
                return null;
            }
            if (changed.fullReview()) {
                return covered > 0 ? 0.0 : null;
            }
            return StratumBound.upperBound(changed.sampleSize(), 0, 1, strata, StratumBound.ALPHA);
        }

        /** The covered stratum's bound if its sample is clean; 0 when every member is sampled. */
        @Nullable Double coveredBound() {
            if (covered == 0) {
                return null;
            }
            return coveredSample >= covered ? 0.0 : StratumBound.upperBound(coveredSample, 0, looks, strata, StratumBound.ALPHA);
        }

        /** Σ (N_h / N) · p_h over the strata with a bound; {@code null} without one. */
        @Nullable Double catalogBound() {
            List<StratumBound.Share> shares = new ArrayList<>();
            if (changedBound() != null) {
                shares.add(new StratumBound.Share(changed.eligible(), changedBound()));
            }
            if (coveredBound() != null) {
                shares.add(new StratumBound.Share(covered, coveredBound()));
            }
            return shares.isEmpty() ? null : StratumBound.catalog(shares);
        }
    }

    /** The plan of a run of {@code job} on {@code input} that starts as {@code census} says. */
    public static Plan of(JobDefinition job, String input, Census census, PlanHistory history, Options options) {
        return new Plan(job, input, census, history, options);
    }

    // ---------------------------------------------------------------- the model

    /**
     * Round 1's sample per stratum, as the sample step draws it: the one place a plan sizes a sample.
     * The changed stratum by category at {@code sampling.rate}; the covered stratum with the fixed size
     * a clean sample needs to bound it below {@code carry-over.target-bound} ({@link StratumStore#sampleSize}).
     */
    static Sample sample(JobDefinition job, Census census) {
        Map<StratumKey, Integer> counts = new TreeMap<>();
        census.changed().forEach((category, n) -> counts.put(new StratumKey(category, false), Math.toIntExact(n)));
        StratifiedSampler.Allocation changed = StratifiedSampler.allocate(counts, job.sampling().settings());
        long covered = census.coveredTotal();
        if (covered == 0) {
            return new Sample(changed, 0, 0, 1, census.coveredLooks());
        }
        return new Sample(changed, covered,
                StratumStore.sampleSize(job.carryOver().targetBound(), changed.eligible(), covered, census.coveredLooks()),
                StratumStore.strata(changed.eligible()), census.coveredLooks());
    }

    /** Fixes per NAUGHTY item: {@code Σ_{i < max} q^i}, each fixed text failing again at rate q. */
    static double fixIterations(double q, int maxIterations) {
        double sum = 0;
        double term = 1;
        for (int i = 0; i < maxIterations; i++) {
            sum += term;
            term *= q;
        }
        return sum;
    }

    private List<Round> rounds(double q) {
        SamplingSettings settings = job.sampling().settings();
        StratifiedSampler.Allocation changed = roundOneSample.changed();
        int planned = changed.fullReview() && roundOneSample.covered() == 0 ? 1
                : Math.min(job.santa().maxRounds(), history.rounds() != null ? Math.max(1, history.rounds()) : 2);
        List<Round> out = new ArrayList<>();
        long eligible = roundOneSample.eligible();
        if (eligible == 0) {
            return out;
        }
        int n = roundOneSample.size();
        out.add(new Round(1, eligible, n, planned == 1,
                round(changed.sampleSize(), roundOneSample.coveredSample(), planned == 1 ? 0 : eligible - n, q)));
        // the changed stratum's items left; the covered stratum's as often as the job's last runs reopened it
        double reopened = history.coveredReopened() == null ? 0 : history.coveredReopened();
        long left = changed.eligible() - changed.sampleSize()
                + Math.round(reopened * (roundOneSample.covered() - roundOneSample.coveredSample()));
        for (int k = 2; k <= planned && left > 0; k++) {
            n = StratifiedSampler.sampleSize(Math.toIntExact(left), settings);
            boolean clean = k == planned;
            out.add(new Round(k, left, n, clean, round(n, 0, clean ? 0 : left - n,
                    clean ? Math.min(q, AcceptanceNumber.PANEL_FALSE_FAILURE) : q)));
            left -= n;
        }
        return out;
    }

    /**
     * One round's calls: {@code changed} items of the changed stratum sampled, failing at rate {@code q},
     * and {@code covered} of the covered stratum, failing at the panel's false-failure rate; the batch
     * fix chooses from {@code left} eligible items (0: no batch fix).
     */
    private Calls round(int changed, int covered, long left, double q) {
        int r = reviewers.size();
        int n = changed + covered;
        double qCovered = Math.min(q, AcceptanceNumber.PANEL_FALSE_FAILURE);
        double naughty = q * changed + qCovered * covered;
        double fixes = q * changed * fixIterations(q, job.santa().maxIterations())
                + qCovered * covered * fixIterations(qCovered, job.santa().maxIterations());
        double canaries = options.canaries() && r > 0 ? Math.min(job.santa().fit().canaries(n), n - naughty) : 0;
        double matcherCalls = 0;
        if (matcher != null && left > 0) {
            if (history.matcherPerDefect() != null) {
                // as many per predicted defect among the items left as the job's last runs made
                matcherCalls = history.matcherPerDefect() * q * left;
            } else {
                // the failures in patterns of the fewest items that make one systematic, each pattern
                // given its candidate cap
                int k = job.santa().systematicMinItems();
                int perPattern = Math.min((int) Math.max(1, Math.floor(job.matcher().maxCandidateShare() * left)),
                        PatternNarrowing.predicted(k, n, Math.toIntExact(left)));
                matcherCalls = naughty / k * perPattern;
            }
        }
        return new Calls(n * r, fixer == null ? 0 : fixes, fixes * r, canaries * r, matcherCalls);
    }

    // ---------------------------------------------------------------- tokens and cost

    /** Tokens and cost of one call of each kind, from the prompts of the census's items. */
    record PerCall(int items, double reviewInput, List<Long> reviewOutput, List<Double> reviewCost, double fixInput,
            long fixOutput, double fixCost, double matchInput, long matchOutput, double matchCost) {

        static PerCall of(JobDefinition job, List<Census.PromptItem> items, List<ModelSpec> reviewers,
                @Nullable ModelSpec fixer, @Nullable ModelSpec matcher) {
            List<Criterion> criteria = job.santaCriteria();
            String issue = criteria.isEmpty() ? "" : criteria.get(0).id() + ": " + criteria.get(0).failSignal();
            double review = 0;
            double fix = 0;
            double match = 0;
            ModelSpec any = reviewers.isEmpty() ? null : reviewers.get(0);
            for (int i = 0; i < items.size(); i++) {
                Census.PromptItem it = items.get(i);
                if (any != null) {
                    review += CallEstimates.review(new ReviewRequest(job.taskSpec(), it.id(), it.source(), it.content(),
                            criteria), any).input();
                }
                if (fixer != null) {
                    fix += CallEstimates.fix(new FixRequest(it.content(), it.source(), List.of(issue), job.taskSpec(),
                            it.id()), fixer).input();
                }
                if (matcher != null && !criteria.isEmpty()) {
                    // the sample's fixes of the pattern as examples: two other items' texts stand for them
                    List<MatchRequest.Example> examples = new ArrayList<>();
                    for (int j = 1; j <= 2 && j < items.size(); j++) {
                        String other = items.get((i + j) % items.size()).content();
                        examples.add(new MatchRequest.Example(other, other));
                    }
                    match += CallEstimates.match(new MatchRequest(criteria.get(0).id(), issue, examples, job.taskSpec(),
                            it.source(), it.content()), matcher).input();
                }
            }
            int n = Math.max(1, items.size());
            double reviewIn = review / n;
            double fixIn = fix / n;
            double matchIn = match / n;
            return new PerCall(items.size(), reviewIn, reviewers.stream().map(m -> (long) m.maxOutputTokens()).toList(),
                    reviewers.stream().map(m -> cost(reviewIn, m)).toList(), fixIn,
                    fixer == null ? 0 : fixer.maxOutputTokens(), fixer == null ? 0 : cost(fixIn, fixer), matchIn,
                    matcher == null ? 0 : matcher.maxOutputTokens(), matcher == null ? 0 : cost(matchIn, matcher));
        }

        private static double cost(double input, ModelSpec model) {
            return CallEstimates.cost(new CallEstimates.Tokens(Math.round(input), model.maxOutputTokens()), model);
        }

        /** Tokens of {@code calls}; reviews are spread evenly over the model reviewers. */
        double tokens(Calls calls) {
            double t = 0;
            int r = reviewOutput.size();
            double perReviewer = r == 0 ? 0 : (calls.reviews() + calls.fixReviews() + calls.canaryReviews()) / r;
            for (long out : reviewOutput) {
                t += perReviewer * (reviewInput + out);
            }
            return t + calls.fixes() * (fixInput + fixOutput) + calls.matcher() * (matchInput + matchOutput);
        }

        double cost(Calls calls) {
            int r = reviewCost.size();
            double perReviewer = r == 0 ? 0 : (calls.reviews() + calls.fixReviews() + calls.canaryReviews()) / r;
            double c = 0;
            for (double each : reviewCost) {
                c += perReviewer * each;
            }
            return c + calls.fixes() * fixCost + calls.matcher() * matchCost;
        }
    }

    // ---------------------------------------------------------------- figures

    /** Round 1's expected calls. */
    public long roundOneCalls() {
        return rounds.isEmpty() ? 0 : Math.round(rounds.get(0).calls().total());
    }

    /** A whole run's expected calls. */
    public long wholeRunCalls() {
        return Math.round(whole().total());
    }

    public int roundOneSampleSize() {
        return roundOneSample.size();
    }

    private Calls whole() {
        Calls c = Calls.NONE;
        for (Round r : rounds) {
            c = c.plus(r.calls());
        }
        return c;
    }

    /** A stratum's clean sample for a bound below {@code --target-bound}, at its {@code looks}. */
    record Target(String stratum, int looks, int cleanSampleSize) {}

    /**
     * The clean sample each stratum round 1 samples needs for a bound below the target bound,
     * ⌈ln(α / (H · k)) / ln(1 − t)⌉: the changed stratum at its one look, the covered one at this look.
     */
    List<Target> targets() {
        List<Target> out = new ArrayList<>();
        if (roundOneSample.changed().eligible() > 0 || roundOneSample.covered() == 0) {
            out.add(target(StratumStore.CHANGED, 1));
        }
        if (roundOneSample.covered() > 0) {
            out.add(target(StratumStore.COVERED, roundOneSample.looks()));
        }
        return out;
    }

    private Target target(String stratum, int looks) {
        return new Target(stratum, looks,
                StratumBound.sampleSize(options.targetBound(), StratumBound.ALPHA, roundOneSample.strata(), looks));
    }

    private static final com.fasterxml.jackson.databind.ObjectMapper JSON = new com.fasterxml.jackson.databind.ObjectMapper()
            .enable(com.fasterxml.jackson.databind.SerializationFeature.INDENT_OUTPUT);

    /** {@link #toMap()} as JSON text. */
    public String json() {
        try {
            return JSON.writeValueAsString(toMap());
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("plan: cannot write JSON", e);
        }
    }

    /** A plan's JSON text back as a map. */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> parse(String json) {
        try {
            return JSON.readValue(json, LinkedHashMap.class);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("plan: cannot read JSON", e);
        }
    }

    /** The plan as one JSON object (a map in key order); the same figures as {@link #text()}. */
    public Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("job", job.name());
        m.put("input", input);
        m.put("model_calls", "none: a plan calls no model");
        m.put("items", census.items());
        m.put("rejects", census.rejects());
        Map<String, Object> carry = new LinkedHashMap<>();
        carry.put("enabled", job.carryOver().enabled());
        carry.put("looked_at", census.lookedAt());
        carry.put("carried", census.carriedTotal());
        carry.putAll(census.carried());
        carry.put("judged_afresh", census.judgedAfresh());
        carry.put("new", census.fresh());
        m.put("carry_over", carry);
        m.put("pre_pass", ordered("fixed_by_rules", census.rulesFixed(), "held_by_rules", census.rulesHeld()));
        m.put("strata", strata());
        Map<String, Object> sample = new LinkedHashMap<>();
        sample.put("eligible", roundOneSample.eligible());
        sample.put("size", roundOneSample.size());
        sample.put("full_review", roundOneSample.changed().fullReview() && roundOneSample.covered() == 0);
        Map<String, Object> byCategory = new LinkedHashMap<>();
        roundOneSample.changed().strata().forEach(s -> byCategory.put(s.key().category(),
                ordered("eligible", s.size(), "sample", s.quota())));
        sample.put("by_category", byCategory);
        sample.put("bound_if_clean", roundOneSample.catalogBound());
        m.put("round_1_sample", sample);
        m.put("target", ordered("bound", options.targetBound(), "strata", roundOneSample.strata(), "per_stratum",
                targets().stream().map(t -> ordered("stratum", t.stratum(), "looks", t.looks(), "clean_sample_size",
                        t.cleanSampleSize())).toList()));
        m.put("assumptions", assumptions());
        m.put("tokens_per_call", tokensPerCall());
        m.put("round_1", spend(rounds.isEmpty() ? Calls.NONE : rounds.get(0).calls()));
        Map<String, Object> whole = spend(whole());
        whole.put("rounds", rounds.size());
        whole.put("by_round", rounds.stream().map(r -> {
            Map<String, Object> one = ordered("round", r.round(), "eligible", r.eligible(), "sample", r.sample(),
                    "clean", r.clean());
            one.put("calls", Math.round(r.calls().total()));
            return one;
        }).toList());
        m.put("whole_run", whole);
        m.put("full_verification", spend(fullVerification));
        double full = fullVerification.total();
        m.put("share_of_full_verification", ordered("round_1", full == 0 ? null : roundOneCalls() / full,
                "whole_run", full == 0 ? null : whole().total() / full));
        return m;
    }

    private List<Map<String, Object>> strata() {
        StratifiedSampler.Allocation changed = roundOneSample.changed();
        List<Map<String, Object>> out = new ArrayList<>();
        Map<String, Object> c = ordered("stratum", StratumStore.CHANGED, "eligible", changed.eligible(), "sample",
                changed.sampleSize());
        c.put("sampling", changedSampling());
        c.put("bound_if_clean", roundOneSample.changedBound());
        out.add(c);
        if (roundOneSample.covered() > 0) {
            Map<String, Object> v = ordered("stratum", StratumStore.COVERED, "eligible", roundOneSample.covered(), "sample",
                    roundOneSample.coveredSample());
            v.put("sampling", "fixed, for a bound below " + job.carryOver().targetBound() + " (carry-over.target-bound)");
            v.put("looks", roundOneSample.looks());
            v.put("last_look", census.lastLook());
            v.put("bound_if_clean", roundOneSample.coveredBound());
            out.add(v);
        }
        return out;
    }

    private String changedSampling() {
        return roundOneSample.changed().fullReview() ? "every item (fewer than " + job.sampling().fullReviewBelow() + ")"
                : "rate " + job.sampling().rate() + ", at least " + job.sampling().minSize() + ", by category";
    }

    private Map<String, Object> assumptions() {
        Map<String, Object> a = new LinkedHashMap<>();
        a.put("first_pass_rate", history.firstPassRate());
        a.put("first_pass_rate_from", history.runs().isEmpty() ? "the Santa Method's target (no exported run of the job)"
                : "the median of the job's last " + history.runs().size() + " exported runs");
        a.put("runs", history.runs().stream().map(r -> ordered("run_id", r.runId(), "first_pass_rate", r.firstPassRate(),
                "rounds", r.rounds(), "matcher_calls_per_defect", matcher == null ? null : r.matcherPerDefect())).toList());
        a.put("fixes_per_naughty_item", fixIterations);
        a.put("rounds", rounds.size());
        a.put("covered_reopened", history.coveredReopened());
        a.put("rounds_from", rounds.size() == 1 && roundOneSample.covered() == 0 ? "a full review is one round"
                : history.rounds() != null ? "the median of the same runs" : "round 1 finds the patterns, round 2 is clean");
        a.put("model_reviewers", reviewers.size());
        a.put("fixer_is_model", fixer != null);
        a.put("model_matcher", matcher != null);
        a.put("matcher_calls_per_defect", matcher == null ? null : history.matcherPerDefect());
        a.put("matcher_calls_from", matcher == null ? null : history.matcherPerDefect() != null
                ? "the median of the same runs' round 1" : "the candidate caps of patterns of santa.systematic-min-items failures");
        a.put("canaries", options.canaries());
        return a;
    }

    private Map<String, Object> tokensPerCall() {
        Map<String, Object> t = new LinkedHashMap<>();
        t.put("prompts_of_items", perCall.items());
        t.put("review", ordered("input", Math.round(perCall.reviewInput()), "output", perCall.reviewOutput()));
        t.put("fix", fixer == null ? null : ordered("input", Math.round(perCall.fixInput()), "output", perCall.fixOutput()));
        t.put("matcher", matcher == null ? null
                : ordered("input", Math.round(perCall.matchInput()), "output", perCall.matchOutput()));
        return t;
    }

    private Map<String, Object> spend(Calls c) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("calls", Math.round(c.total()));
        m.put("by_kind", ordered("reviews", Math.round(c.reviews()), "fixes", Math.round(c.fixes()), "fix_reviews",
                Math.round(c.fixReviews()), "canary_reviews", Math.round(c.canaryReviews()), "matcher", Math.round(c.matcher())));
        m.put("tokens", Math.round(perCall.tokens(c)));
        m.put("estimated_cost", perCall.cost(c));
        return m;
    }

    private static Map<String, Object> ordered(Object... kv) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put((String) kv[i], kv[i + 1]);
        }
        return m;
    }

    // ---------------------------------------------------------------- text

    /** The plan for a person. */
    public List<String> text() {
        List<String> lines = new ArrayList<>();
        lines.add("plan of job '" + job.name() + "' on " + input + " (no model call)");
        lines.add("input:      " + census.items() + " items, " + census.rejects() + " rejects");
        if (!job.carryOver().enabled()) {
            lines.add("carry-over: off (carry-over.enabled: false)");
        } else if (census.lookedAt().isEmpty()) {
            lines.add("carry-over: none (no exported run of the job to carry from)");
        } else {
            Map<String, Long> c = census.carried();
            lines.add("carry-over: from " + String.join(", ", census.lookedAt().stream().map(id -> "'" + id + "'").toList())
                    + ": nice " + c.get("nice") + ", held " + c.get("held") + " (not reviewed again), covered "
                    + c.get("covered") + " (eligible)");
            List<String> afresh = new ArrayList<>();
            census.judgedAfresh().forEach((k, v) -> {
                if (v > 0) {
                    afresh.add(k.replace('_', ' ') + " " + v);
                }
            });
            lines.add("            judged afresh: " + (afresh.isEmpty() ? "none" : String.join(", ", afresh)) + "; new "
                    + census.fresh());
        }
        lines.add("pre-pass:   rules fix " + census.rulesFixed() + " items, hold " + census.rulesHeld());
        StratifiedSampler.Allocation changed = roundOneSample.changed();
        lines.add("eligible:   " + roundOneSample.eligible() + ": changed " + changed.eligible() + ", covered "
                + roundOneSample.covered());
        lines.add("round 1:    sample " + roundOneSample.size() + ": changed " + changed.sampleSize() + " ("
                + changedSampling() + ")" + (roundOneSample.covered() == 0 ? "" : ", covered "
                        + roundOneSample.coveredSample() + " (fixed for a bound below " + pct(job.carryOver().targetBound())
                        + ", look " + roundOneSample.looks() + ")"));
        Double bound = roundOneSample.catalogBound();
        if (bound != null) {
            lines.add("bound:      a clean round 1 would bound the defect rate below " + pct(bound) + " (95 %)"
                    + (roundOneSample.covered() == 0 ? "" : ": changed " + pct(roundOneSample.changedBound())
                            + ", covered " + pct(roundOneSample.coveredBound())));
        }
        List<Target> targets = targets();
        lines.add("target:     a bound below " + pct(options.targetBound()) + " needs a clean sample of "
                + (roundOneSample.covered() == 0 ? targets.get(0).cleanSampleSize() + " items"
                        : String.join(" and ", targets.stream().map(t -> t.cleanSampleSize()
                                + (t == targets.get(0) ? " items in the " + t.stratum() + " stratum" : " in the " + t.stratum()
                                        + " one") + " (look " + t.looks() + ")").toList())));
        lines.add("expected:   first-pass rate " + pct(history.firstPassRate()) + (history.runs().isEmpty()
                ? ", the Santa Method's target (no exported run of the job yet)"
                : ", the median of " + String.join(", ", history.runs().stream()
                        .map(r -> "'" + r.runId() + "' " + pct(r.firstPassRate())).toList()))
                + "; " + String.format(java.util.Locale.ROOT, "%.2f", fixIterations) + " fixes per NAUGHTY item; "
                + rounds.size() + (rounds.size() == 1 ? " round" : " rounds"));
        List<List<String>> table = new ArrayList<>();
        table.add(List.of("", "CALLS", "REVIEWS", "FIXES", "CANARIES", "MATCHER", "TOKENS", "COST"));
        table.add(row("round 1", rounds.isEmpty() ? Calls.NONE : rounds.get(0).calls()));
        table.add(row("whole run", whole()));
        table.add(row("full verification", fullVerification));
        lines.addAll(align(table));
        double full = fullVerification.total();
        if (full > 0) {
            lines.add("of full verification: round 1 " + pct(roundOneCalls() / full) + ", whole run "
                    + pct(whole().total() / full) + " of its calls");
        }
        if (reviewers.isEmpty()) {
            lines.add("note:       no model reviewer: reviews are offline checks, not model calls");
        }
        return lines;
    }

    private List<String> row(String label, Calls c) {
        return List.of(label, String.valueOf(Math.round(c.total())), String.valueOf(Math.round(c.reviews() + c.fixReviews())),
                String.valueOf(Math.round(c.fixes())), String.valueOf(Math.round(c.canaryReviews())),
                String.valueOf(Math.round(c.matcher())), String.valueOf(Math.round(perCall.tokens(c))),
                String.format(java.util.Locale.ROOT, "%.4f", perCall.cost(c)));
    }

    private static List<String> align(List<List<String>> table) {
        int[] width = new int[table.get(0).size()];
        table.forEach(r -> {
            for (int c = 0; c < r.size(); c++) {
                width[c] = Math.max(width[c], r.get(c).length());
            }
        });
        List<String> out = new ArrayList<>();
        for (List<String> r : table) {
            StringBuilder b = new StringBuilder();
            for (int c = 0; c < r.size(); c++) {
                String pad = " ".repeat(width[c] - r.get(c).length());
                b.append(c == 0 ? r.get(c) + pad : "  " + pad + r.get(c));
            }
            out.add(b.toString().stripTrailing());
        }
        return out;
    }

    private static String pct(@Nullable Double d) {
        if (d == null) {
            return "-";
        }
        return String.format(java.util.Locale.ROOT, "%.1f %%", d * 100);
    }
}
