package dev.santabatch.batchfix;

import dev.santabatch.persistence.Cause;
import dev.santabatch.persistence.ItemState;
import dev.santabatch.rounds.LearnedRuleStore;
import dev.santabatch.review.step.Panels;
import dev.santabatch.rounds.FailOnCurrentText;
import dev.santabatch.sampling.Eligible;
import dev.santabatch.execution.RunContext;
import dev.santabatch.batchfix.induction.AcceptedFix;
import dev.santabatch.batchfix.induction.LearnedRule;
import dev.santabatch.batchfix.induction.PassedItem;
import dev.santabatch.batchfix.induction.PatternEvidence;
import dev.santabatch.batchfix.induction.RuleFragment;
import dev.santabatch.batchfix.induction.RuleInducer;
import dev.santabatch.batchfix.induction.RuleValidator;
import dev.santabatch.config.SourceFields;
import dev.santabatch.review.GateResult;
import dev.santabatch.review.GateVerdict;
import dev.santabatch.review.PanelReview;
import dev.santabatch.review.ReviewRequest;
import dev.santabatch.review.SantaSettings;
import dev.santabatch.rounds.LoopStore;
import dev.santabatch.prepass.rules.RuleEngine;
import dev.santabatch.prepass.rules.RuleOutcome;
import dev.santabatch.persistence.FieldsCodec;
import dev.santabatch.persistence.Store;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The batch fix's first stage: for each systematic pattern of the round, a rule learned from the
 * sample's accepted fixes ({@link RuleInducer}) that earns its way in ({@link RuleValidator})
 * finds and fixes the pattern's eligible items without a matcher call. What the stage pays for are
 * panel reviews: fresh reviews of passed sampled items the rule flags with checkable evidence, and
 * the review check of up to {@value RuleValidator#REVIEW_CHECK_SIZE} items it fixed; each is stored
 * as it is made, so a restart reuses it. The rule's fixes are {@code batch-fix} revisions whose
 * pattern names the rule; an item whose rule fix does not leave it within the job's rules (or that
 * the review check failed) is left to the matcher.
 *
 * <p>Candidate rules of earlier rounds are re-validated on every later round's sample: items it
 * flags that the reviewers passed count against its precision, and it is retired when that falls
 * below {@value #RETIRE_BELOW}. Candidates of the job's earlier runs are carried into round 1 and
 * re-validated on its sample the same way before they fix anything ({@link RememberedRules}).
 */
public final class LearnedRules {

    private static final Logger log = LoggerFactory.getLogger(LearnedRules.class);

    /** Precision on later samples below which a candidate rule is retired (the inducer's shape share). */
    static final double RETIRE_BELOW = RuleInducer.MIN_SHARE;

    /**
     * What the stage did for the round.
     *
     * @param ruled the pattern numbers a valid learned rule handles: no narrowing for them
     * @param leftovers per ruled pattern, the items the rule flagged but could not fix: matcher candidates
     */
    record Result(Set<Integer> ruled, Map<Integer, List<String>> leftovers) {
        static final Result NONE = new Result(Set.of(), Map.of());
    }

    private final Store store;
    private final LoopStore loop;
    private final LearnedRuleStore rules;
    private final RunContext run;
    private final Panels panels;
    private final SourceFields source;
    private final org.springframework.transaction.support.TransactionTemplate tx;

    public LearnedRules(Store store, LoopStore loop, LearnedRuleStore rules, RunContext run, Panels panels, SourceFields source) {
        this.store = store;
        this.loop = loop;
        this.rules = rules;
        this.run = run;
        this.panels = panels;
        this.source = source;
        this.tx = new org.springframework.transaction.support.TransactionTemplate(
                new org.springframework.jdbc.datasource.DataSourceTransactionManager(
                        java.util.Objects.requireNonNull(store.jdbc().getDataSource(), "dataSource")));
    }

    /** The rule id of a round's pattern. */
    static String ruleId(int round, int patternNo) {
        return "learned-" + LoopStore.PatternRow.id(round, patternNo);
    }

    /**
     * The round's learned rules: in round 1, first the rules carried in from the job's earlier runs
     * and re-validated on its sample ({@link RememberedRules}); then, for every systematic pattern no
     * remembered rule handles, a rule learned from the sample's fixes.
     */
    Result handle(int round, Collection<LoopStore.PatternRow> systematic) {
        revalidate(round);
        List<Recalled> remembered = round == 1 ? carryIn(round) : List.of();
        if (systematic.isEmpty() && remembered.isEmpty()) {
            return Result.NONE;
        }
        // every pattern's rule first (from the sample alone), then one pass over the catalog for all
        List<Induced> induced = new ArrayList<>();
        for (LoopStore.PatternRow p : systematic) {
            induce(round, p).ifPresent(induced::add);
        }
        if (induced.isEmpty() && remembered.isEmpty()) {
            return Result.NONE;
        }
        Map<String, RuleEngine> engines = new LinkedHashMap<>();
        remembered.forEach(m -> engines.put(m.id(), m.engine()));
        induced.forEach(i -> engines.put(i.id(), i.engine()));
        Set<String> sampled = new HashSet<>();
        loop.sample(run.runPk(), round).forEach(s -> sampled.add(s.itemId()));
        Flagged flagged = flag(after -> store.eligibleAfter(run.runPk(), after, 0, PAGE), sampled, engines, this::asOf,
                dev.santabatch.execution.StopSignal::requested, "learned rules, round " + round);
        Set<Integer> ruled = new HashSet<>();
        Map<Integer, List<String>> leftovers = new LinkedHashMap<>();
        for (Recalled m : remembered) {
            List<String> left = handle(round, m, flagged);
            if (left != null) {
                ruled.add(m.pattern().patternNo());
                leftovers.computeIfAbsent(m.pattern().patternNo(), k -> new ArrayList<>()).addAll(left);
            }
        }
        for (Induced i : induced) {
            if (ruled.contains(i.pattern().patternNo())) {
                continue; // a remembered rule handles the pattern
            }
            List<String> left = handle(round, i, flagged);
            if (left != null) {
                ruled.add(i.pattern().patternNo());
                leftovers.put(i.pattern().patternNo(), left);
            }
        }
        return new Result(ruled, leftovers);
    }

    /** Eligible items read per page of the screening pass; the stop flag is checked before each page. */
    static final int PAGE = 1000;

    /**
     * What one pass over the eligible items outside the sample found.
     *
     * @param eligible how many there are
     * @param byRule per rule id, the items the rule flags (catalog order), with their current text
     */
    record Flagged(int eligible, Map<String, List<PassedItem>> byRule) {}

    /**
     * The screening pass: the eligible items outside the sample, a page at a time ({@code pageAfter}
     * gives the page after a record index), each checked by every rule's engine (compiled once per
     * rule); only the flagged items are kept. A requested stop is seen before each page: the pass ends
     * within one page of it ({@link dev.santabatch.execution.PreparationStoppedException}: the step
     * ends STOPPED; nothing was written, and a restart screens again).
     */
    static Flagged flag(java.util.function.LongFunction<List<Store.EligibleItem>> pageAfter, Set<String> sampled,
            Map<String, RuleEngine> engines, java.util.function.Function<Store.StoredItem, PassedItem> asOf,
            java.util.function.BooleanSupplier stopRequested, String what) {
        Map<String, List<PassedItem>> byRule = new LinkedHashMap<>();
        engines.keySet().forEach(id -> byRule.put(id, new ArrayList<>()));
        int eligible = 0;
        long after = -1;
        while (true) {
            if (stopRequested.getAsBoolean()) {
                throw new dev.santabatch.execution.PreparationStoppedException(what + ": screened " + eligible + " eligible items");
            }
            List<Store.EligibleItem> next = pageAfter.apply(after);
            if (next.isEmpty()) {
                return new Flagged(eligible, byRule);
            }
            after = next.get(next.size() - 1).item().recordIndex();
            for (Store.EligibleItem e : next) {
                if (sampled.contains(e.item().id())) {
                    continue;
                }
                eligible++;
                PassedItem item = asOf.apply(e.item());
                engines.forEach((id, engine) -> {
                    if (!engine.check(item.text(), item.facts()).isEmpty()) {
                        byRule.get(id).add(item);
                    }
                });
            }
        }
    }

    /** A pattern's rule, induced from the sample's fixes; not yet screened on the catalog. */
    private record Induced(String id, LoopStore.PatternRow pattern, Optional<LearnedRuleStore.Row> stored,
            PatternEvidence evidence, LearnedRule rule, RuleEngine engine) {}

    /** The pattern's rule, when one is learned and not already rejected or retired. */
    private Optional<Induced> induce(int round, LoopStore.PatternRow p) {
        String id = ruleId(round, p.patternNo());
        Optional<LearnedRuleStore.Row> stored = rules.rule(run.runPk(), id);
        if (stored.isPresent() && !LearnedRuleStore.CANDIDATE.equals(stored.get().status())) {
            return Optional.empty();
        }
        PatternEvidence evidence = evidence(round, p);
        int minItems = run.job().santa().systematicMinItems();
        Optional<LearnedRule> induced = RuleInducer.induce(id, evidence, minItems);
        if (induced.isEmpty()) {
            log.info("batch-fix: round {}: pattern {}: no rule learned from {} accepted fix(es)", round, p.patternNo(),
                    evidence.fixes().size());
            return Optional.empty();
        }
        return Optional.of(new Induced(id, p, stored, evidence, induced.get(), induced.get().engine()));
    }

    /** A rule carried in from an earlier run and re-validated on round 1's sample, with the pattern it handles. */
    private record Recalled(String id, LoopStore.PatternRow pattern, LearnedRuleStore.Remembered memory, LearnedRule rule,
            RuleEngine engine) {}

    /**
     * A remembered rule re-validated on round 1's sample: its catalog share against its prevalence in
     * that sample (the confirmed items), then the review check and its fixes, as a rule learned tonight.
     */
    private @Nullable List<String> handle(int round, Recalled m, Flagged flagged) {
        Optional<LearnedRuleStore.Row> stored = rules.rule(run.runPk(), m.id());
        if (stored.isPresent() && !LearnedRuleStore.CANDIDATE.equals(stored.get().status())) {
            return null;
        }
        Map<String, PassedItem> byId = new LinkedHashMap<>();
        flagged.byRule().get(m.id()).forEach(e -> byId.put(e.itemId(), e));
        int sampleSize = loop.sample(run.runPk(), round).size();
        double cap = RuleValidator.cap(m.memory().confirmed(), sampleSize, flagged.eligible());
        String rejection = byId.size() <= cap ? null : String.format(java.util.Locale.ROOT,
                "flags %d of %d eligible items, more than the cap %.1f (confirmed in round 1's sample %d/%d)", byId.size(),
                flagged.eligible(), cap, m.memory().confirmed(), sampleSize);
        RuleValidator.Screening s = new RuleValidator.Screening(rejection, m.memory().support(), m.memory().looRecall(),
                List.of(), List.copyOf(byId.keySet()), flagged.eligible(), cap);
        Draft d = new Draft(m.id(), round, m.pattern(), m.rule(), s);
        if (stored.isPresent() && stored.get().applied()) {
            return leftovers(m.id(), m.engine(), s, byId);
        }
        if (!s.passed()) {
            return reject(d, rejection);
        }
        return checkAndFix(d, m.engine(), byId, Map.of());
    }

    /**
     * Round 1: the learned rules of the job's earlier runs carried in ({@link RememberedRules#select})
     * and re-validated on the round's sample, each with its verdict, stored in one transaction with
     * the rows of those that fix nothing tonight (retired, or remembered without enough evidence); a
     * restart reads them back. The re-validated ones, which may fix tonight's items.
     */
    private List<Recalled> carryIn(int round) {
        List<LearnedRuleStore.Remembered> memory = rules.remembered(run.runPk());
        if (memory.isEmpty()) {
            memory = recall(round);
        }
        Map<Integer, LoopStore.PatternRow> patterns = new LinkedHashMap<>();
        loop.patterns(run.runPk(), round).forEach(p -> patterns.put(p.patternNo(), p));
        List<Recalled> out = new ArrayList<>();
        for (LearnedRuleStore.Remembered m : memory) {
            LoopStore.PatternRow p = patterns.get(m.patternNo());
            Optional<dev.santabatch.config.RuleSpec> spec = RuleFragment.parse(m.fragment());
            if (RememberedRules.REVALIDATED.equals(m.verdict()) && p != null && spec.isPresent()) {
                LearnedRule rule = new LearnedRule(m.criterion(), dev.santabatch.batchfix.induction.Shape.valueOf(m.shape()),
                        spec.get(), List.of(), 0);
                out.add(new Recalled(m.ruleId(), p, m, rule, rule.engine()));
            }
        }
        return out;
    }

    /** Selects and re-validates the earlier runs' rules, and stores what it found (nothing when none is carried in). */
    private List<LearnedRuleStore.Remembered> recall(int round) {
        List<dev.santabatch.config.RuleSpec> jobRules = run.job().rubric().stream().flatMap(c -> c.rules().stream()).toList();
        Set<String> criteria = new HashSet<>();
        run.job().santaCriteria().forEach(c -> criteria.add(c.id()));
        List<RememberedRules.Carried> carried = RememberedRules.select(
                rules.earlierRules(run.job().name(), run.runPk()), jobRules, criteria, source.names());
        if (carried.isEmpty()) {
            return List.of();
        }
        SampleView view = sampleView(round);
        List<LearnedRuleStore.Remembered> memory = new ArrayList<>();
        for (RememberedRules.Carried c : carried) {
            String id = "learned-r" + round + "-m" + (memory.size() + 1);
            dev.santabatch.config.RuleSpec spec = RuleFragment.withId(c.spec(), id);
            LearnedRuleStore.EarlierRule e = c.from();
            Precision pr = precision(new LearnedRule(e.criterion(), dev.santabatch.batchfix.induction.Shape.valueOf(e.shape()), spec,
                    List.of(), 0).engine(), e.criterion(), view);
            memory.add(new LearnedRuleStore.Remembered(id, e.runId(), e.ruleId(), e.learnedRunId(), e.learnedRuleId(),
                    e.criterion(), e.shape(), RuleFragment.yaml(spec), e.support(), e.looRecall(), pr.flagged(),
                    pr.confirmed(), pr.pattern(), RememberedRules.verdict(pr.flagged(), pr.confirmed())));
        }
        tx.executeWithoutResult(status -> {
            for (int i = 0; i < memory.size(); i++) {
                LearnedRuleStore.Remembered m = memory.get(i);
                rules.saveRemembered(run.runPk(), i + 1, m);
                if (!RememberedRules.REVALIDATED.equals(m.verdict())) {
                    // no pattern: it handles none tonight
                    rules.save(run.runPk(), new LearnedRuleStore.Row(m.ruleId(), round, 0, m.criterion(),
                            m.shape(), m.fragment(), RememberedRules.RETIRED.equals(m.verdict())
                                    ? LearnedRuleStore.RETIRED : LearnedRuleStore.CANDIDATE,
                            RememberedRules.reason(m), m.support(), m.looRecall(), 0, 0, 0, 0, 0, 0, 0, false, 0, 0));
                }
            }
        });
        memory.forEach(m -> log.info("batch-fix: round {}: learned rule {} of run '{}' carried in as {}: round 1's sample"
                + " flags {}, confirmed {}: {}", round, m.fromRuleId(), m.fromRunId(), m.ruleId(), m.flagged(), m.confirmed(),
                m.verdict()));
        return memory;
    }

    /** The items left to the matcher when a valid rule handles the pattern; null when no rule does. */
    private @Nullable List<String> handle(int round, Induced induced, Flagged flagged) {
        String id = induced.id();
        LoopStore.PatternRow p = induced.pattern();
        Optional<LearnedRuleStore.Row> stored = induced.stored();
        PatternEvidence evidence = induced.evidence();
        int minItems = run.job().santa().systematicMinItems();
        LearnedRule rule = induced.rule();
        RuleEngine engine = induced.engine();
        int sampleSize = loop.sample(run.runPk(), round).size();
        Map<String, PassedItem> byId = new LinkedHashMap<>();
        flagged.byRule().get(id).forEach(e -> byId.put(e.itemId(), e));
        RuleValidator.Screening s = RuleValidator.screen(rule, engine, evidence, minItems, sampleSize, flagged.eligible(),
                List.copyOf(byId.keySet()));
        Draft d = new Draft(id, round, p, rule, s);
        if (stored.isPresent() && stored.get().applied()) {
            return leftovers(id, engine, s, byId);
        }
        if (!s.passed()) {
            return reject(d, s.rejection());
        }
        // a passed sampled item it flags, with evidence checkable against its source: reviewed again
        Map<String, Boolean> fresh = reviews(id, round, LearnedRuleStore.ReviewKind.FRESH, s.freshReview(), p.criterion(),
                itemId -> store.item(run.runPk(), itemId).map(this::asOf));
        d.freshReviews = fresh.size();
        if (fresh.size() < s.freshReview().size()) {
            // fail closed: a rule is validated by reviews that were made, never by reviews skipped
            return reject(d, "fresh review incomplete: " + fresh.size() + " of " + s.freshReview().size()
                    + " passed items reviewed (a reviewer could not review)");
        }
        List<String> passedAgain = fresh.entrySet().stream().filter(e -> !e.getValue()).map(Map.Entry::getKey).toList();
        Optional<String> freshRejection = RuleValidator.afterFreshReview(passedAgain);
        if (freshRejection.isPresent()) {
            return reject(d, freshRejection.get());
        }
        return checkAndFix(d, engine, byId, fresh);
    }

    /**
     * Whether a flag line ({@code <reviewer>: <criterion>: <issue>}) is a FAIL on {@code criterion}.
     */
    static boolean onCriterion(String criterion, String line) {
        int colon = line.indexOf(": ");
        return colon >= 0 && line.startsWith(criterion + ":", colon + 2);
    }

    /**
     * A rule that passed validation so far: the review check of its fixes, then its fixes of the
     * flagged eligible items and of the passed sampled items the fresh review failed ({@code fresh});
     * its row saved. The items left to the matcher, or null when the review check rejects it.
     */
    private @Nullable List<String> checkAndFix(Draft d, RuleEngine engine, Map<String, PassedItem> byId,
            Map<String, Boolean> fresh) {
        String id = d.id;
        int round = d.round;
        LoopStore.PatternRow p = d.pattern;
        LearnedRule rule = d.rule;
        RuleValidator.Screening s = d.screening;
        // the review check: both reviewers review items it fixed before it fixes the rest
        List<String> fixable = s.flagged().stream().filter(i -> fixed(engine, byId.get(i)) != null).toList();
        List<String> sample = fixable.subList(0, Math.min(RuleValidator.REVIEW_CHECK_SIZE, fixable.size()));
        Map<String, Boolean> check = reviews(id, round, LearnedRuleStore.ReviewKind.CHECK, sample, p.criterion(),
                itemId -> Optional.ofNullable(fixed(engine, byId.get(itemId))).map(RuleOutcome::text)
                        .map(text -> new PassedItem(itemId, text, byId.get(itemId).facts())));
        d.checked = check.size();
        if (check.size() < sample.size()) {
            return reject(d, "review check incomplete: " + check.size() + " of " + sample.size()
                    + " fixed items reviewed (a reviewer could not review)");
        }
        d.checkFailed = (int) check.values().stream().filter(Boolean::booleanValue).count();
        Optional<String> checkRejection = RuleValidator.afterReviewCheck(d.checked, d.checkFailed);
        if (checkRejection.isPresent()) {
            return reject(d, checkRejection.get());
        }
        // valid: it fixes the flagged eligible items and the passed sampled items the fresh review failed
        String label = LoopStore.PatternRow.describe(round, List.of(p)) + " (learned rule " + id + ")";
        long fixedCount = 0;
        Map<String, List<String>> freshFails = rules.failIssues(run.runPk(), id, LearnedRuleStore.ReviewKind.FRESH);
        for (Map.Entry<String, Boolean> f : fresh.entrySet()) {
            if (!f.getValue()) {
                continue; // passed again: NICE, as it was
            }
            String itemId = f.getKey();
            // NICE as sampled; ACTIVE when a killed execution had moved it and not yet stored its fix
            Optional<Store.StoredItem> item = store.item(run.runPk(), itemId)
                    .filter(it -> ItemState.NICE.equals(it.state()) || ItemState.ACTIVE.equals(it.state()));
            if (item.isPresent()) {
                PassedItem current = asOf(item.get());
                RuleOutcome o = fixed(engine, current);
                store.setState(run.runPk(), itemId, ItemState.ACTIVE);
                if (o == null) {
                    // a FAIL on its current revision that the rule cannot fix within the rules: held
                    if (store.escalateIfAt(run.runPk(), itemId, item.get().currentRev(), round, Cause.BATCH_FIX,
                            BatchFixReason.LEARNED_RULE_CANNOT_FIX.name(), label, null,
                            List.of(p.criterion() + ": the fresh review failed it"))) {
                        loop.addPatternCounts(run.runPk(), round, p.patternNo(), 1, 0, 1);
                    }
                } else if (Boolean.TRUE.equals(tx.execute(status -> {
                    if (!store.addRevisionIfAt(run.runPk(), itemId, item.get().currentRev(), round, Cause.BATCH_FIX,
                            label, o.text())) {
                        return false;
                    }
                    // the fresh review's FAIL on the rule's criterion is what the rule fixed; any other
                    // (on another criterion, or not this fresh review's) stands on the fixed revision
                    List<String> fixedByRule = freshFails.getOrDefault(itemId, List.of()).stream()
                            .filter(line -> onCriterion(p.criterion(), line)).toList();
                    loop.flagRevised(run.runPk(), itemId, item.get().currentRev(), round,
                            line -> ModelBatchFix.resolves(p, line) || fixedByRule.contains(line), List.of());
                    return true;
                }))) {
                    loop.addPatternCounts(run.runPk(), round, p.patternNo(), 1, 1, 0);
                    fixedCount++;
                }
            }
        }
        // a fix the review check failed on another criterion is written flagged with that FAIL: held
        Map<String, List<String>> checkFails = rules.failIssues(run.runPk(), id, LearnedRuleStore.ReviewKind.CHECK);
        List<String> left = new ArrayList<>();
        for (String itemId : s.flagged()) {
            RuleOutcome o = fixed(engine, byId.get(itemId));
            if (o == null || Boolean.TRUE.equals(check.get(itemId))) {
                left.add(itemId);
                continue;
            }
            Optional<Store.StoredItem> item = store.item(run.runPk(), itemId);
            if (item.isPresent() && writeFix(id, p, round, itemId, item.get().currentRev(), label, o.text(),
                    checkFails.getOrDefault(itemId, List.of()))) {
                loop.addPatternCounts(run.runPk(), round, p.patternNo(), 1, 1, 0);
                fixedCount++;
            }
        }
        d.fixed = fixedCount;
        save(d, LearnedRuleStore.CANDIDATE, null, true);
        log.info("batch-fix: round {}: pattern {}: learned rule {} ({}) fixed {} item(s) without a matcher call;"
                + " {} left to the matcher", round, p.patternNo(), id, rule.shape(), fixedCount, left.size());
        return left;
    }

    /**
     * Writes a rule's fix of an unsampled item as a {@code batch-fix} revision. When the review check
     * failed that fixed text on another criterion ({@code checkFails}), the new revision is flagged
     * with that FAIL in the same transaction ({@link FailOnCurrentText}): it is never a clean revision,
     * and the item is held {@code FAIL_UNRESOLVED} unless a later fix resolves it. A FAIL the read
     * revision was flagged with stands on the new one too, unless it is the matcher's word that the
     * item shows this rule's pattern.
     *
     * @return whether the revision was written
     */
    boolean writeFix(String ruleId, LoopStore.PatternRow pattern, int round, String itemId, int baseRev, String label,
            String text, List<String> checkFails) {
        return Boolean.TRUE.equals(tx.execute(status -> {
            if (!store.addRevisionIfAt(run.runPk(), itemId, baseRev, round, Cause.BATCH_FIX, label, text)) {
                return false;
            }
            loop.flagRevised(run.runPk(), itemId, baseRev, round, line -> ModelBatchFix.resolves(pattern, line), List.of());
            FailOnCurrentText.hold(store, loop, run.runPk(), round, itemId, text, checkFails, it -> asOf(it).text(),
                    "learned rule " + ruleId + ", review check of its fix");
            return true;
        }));
    }

    /**
     * The items a rule applied before a restart left to the matcher: those it still flags (its fix of
     * every other one was written) whose fix it cannot make or the review check failed.
     */
    private List<String> leftovers(String id, RuleEngine engine, RuleValidator.Screening s, Map<String, PassedItem> byId) {
        Map<String, Boolean> check = rules.reviews(run.runPk(), id, LearnedRuleStore.ReviewKind.CHECK);
        return s.flagged().stream()
                .filter(i -> fixed(engine, byId.get(i)) == null || Boolean.TRUE.equals(check.get(i))).toList();
    }

    /** The rule's fix of an item, when it changes only its span and leaves the item within the job's rules. */
    private @Nullable RuleOutcome fixed(RuleEngine engine, PassedItem item) {
        RuleOutcome o = engine.apply(item.text(), item.facts());
        if (!o.changed() || o.mustEscalate() || !panels.revisionCheck().violations(o.text(), item.facts()).isEmpty()) {
            return null;
        }
        return o;
    }

    private @Nullable List<String> reject(Draft d, String why) {
        save(d, LearnedRuleStore.REJECTED, why, false);
        log.info("batch-fix: round {}: pattern {}: learned rule {} rejected: {}", d.round, d.pattern.patternNo(), d.id, why);
        return null;
    }

    /** A rule's row as the stage fills it in. */
    private static final class Draft {
        final String id;
        final int round;
        final LoopStore.PatternRow pattern;
        final LearnedRule rule;
        final RuleValidator.Screening screening;
        int freshReviews;
        int checked;
        int checkFailed;
        long fixed;

        Draft(String id, int round, LoopStore.PatternRow pattern, LearnedRule rule, RuleValidator.Screening screening) {
            this.id = id;
            this.round = round;
            this.pattern = pattern;
            this.rule = rule;
            this.screening = screening;
        }
    }

    private void save(Draft d, String status, @Nullable String reason, boolean applied) {
        RuleValidator.Screening s = d.screening;
        rules.save(run.runPk(), new LearnedRuleStore.Row(d.id, d.round, d.pattern.patternNo(), d.pattern.criterion(),
                d.rule.shape().name(), RuleFragment.yaml(d.rule.spec()), status, reason, s.support(), s.looRecall(),
                s.flagged().size(), s.eligible(), s.cap(), d.freshReviews, d.checked, d.checkFailed, d.fixed, applied, 0, 0));
    }

    // ------------------------------------------------------------------ reviews

    /**
     * Panel reviews of the given items (the text {@code text} gives), stored as they are made and
     * reused: item id to whether the panel failed it on the criterion. An item the panel could not
     * review now is left out. A fresh review is of the item's current text: a FAIL from any reviewer,
     * on any criterion, holds the item whatever becomes of the rule ({@link FailOnCurrentText}).
     */
    private Map<String, Boolean> reviews(String ruleId, int round, LearnedRuleStore.ReviewKind kind, List<String> items,
            String criterion, java.util.function.Function<String, Optional<PassedItem>> text) {
        Map<String, Boolean> stored = rules.reviews(run.runPk(), ruleId, kind);
        Map<String, Boolean> out = new LinkedHashMap<>();
        SantaSettings settings = panels.settings();
        for (String itemId : items) {
            Boolean known = stored.get(itemId);
            if (known != null) {
                out.put(itemId, known);
                continue;
            }
            Optional<PassedItem> item = text.apply(itemId);
            if (item.isEmpty()) {
                continue;
            }
            if (dev.santabatch.execution.StopSignal.requested()) {
                // each review made is stored: a restart goes on with the next
                throw new dev.santabatch.execution.PreparationStoppedException("learned rule " + ruleId + ": " + out.size()
                        + " of " + items.size() + " " + kind.name().toLowerCase(java.util.Locale.ROOT) + " reviews");
            }
            ReviewRequest request = new ReviewRequest(settings.taskSpec(), itemId, item.get().facts(), item.get().text(),
                    settings.santaCriteria());
            // a FAIL received before another reviewer's exception (a reached budget, an open breaker) ended
            // the panel decides the review as a FAIL would: stored with its hold, so a restart reads the
            // same evidence; otherwise nothing is stored and a restart asks again
            List<PanelReview> reviews = panels.panel().review(panels.newPanel(), request, received -> {
                // a fresh review's FAIL holds the item on any criterion; a review check of the rule's fix
                // is decided only by a FAIL on the rule's criterion (the reviewer missing may be the one
                // judging it)
                if (kind == LearnedRuleStore.ReviewKind.FRESH ? !FailOnCurrentText.issues(received).isEmpty()
                        : panels.gate().decide(settings.criterionIds(), received).criticalIssues().stream()
                                .anyMatch(i -> criterion.equals(i.criterion()))) {
                    save(ruleId, round, kind, itemId, item.get(), criterion, received);
                }
            });
            Boolean failed = save(ruleId, round, kind, itemId, item.get(), criterion, reviews);
            if (failed != null) {
                out.put(itemId, failed);
            }
        }
        return out;
    }

    /**
     * Stores one review and, for a fresh one, holds the item on its FAILs: whether the panel failed it on
     * {@code criterion}, or {@code null} when the panel could not review it now (nothing stored).
     */
    private @Nullable Boolean save(String ruleId, int round, LearnedRuleStore.ReviewKind kind, String itemId,
            PassedItem item, String criterion, List<PanelReview> reviews) {
        List<String> fails = FailOnCurrentText.issues(reviews);
        GateResult gate = panels.gate().decide(panels.settings().criterionIds(), reviews);
        if (gate.verdict() == GateVerdict.UNREVIEWED) {
            // no FAIL (a FAIL makes the gate NAUGHTY) and not stored (a restart asks again): the
            // issues its answers attributed are counted here
            loop.addIssueAttribution(run.runPk(), round, "learned-rule", LoopStore.attributed(reviews));
            return null;
        }
        boolean failed = gate.criticalIssues().stream().anyMatch(i -> criterion.equals(i.criterion()));
        // the flag and the review that made it in one transaction: a restart finds both or neither,
        // so it reads the same evidence ({@link #evidence}: the items the round's fresh reviews failed)
        tx.executeWithoutResult(status -> {
            if (kind == LearnedRuleStore.ReviewKind.FRESH) {
                FailOnCurrentText.hold(store, loop, run.runPk(), round, itemId, item.text(), fails, it -> asOf(it).text(),
                        "learned rule " + ruleId + ", fresh review");
            }
            rules.saveReview(run.runPk(), ruleId, itemId, kind, failed, fails, LoopStore.attributed(reviews));
        });
        return failed;
    }

    // ------------------------------------------------------------------ re-validation

    /**
     * Re-validates every candidate rule of an earlier round on this round's sample: a sampled item
     * it flags counts as confirmed when the reviewers failed the item on the rule's criterion.
     */
    private void revalidate(int round) {
        List<LearnedRuleStore.Row> candidates = rules.rules(run.runPk()).stream()
                .filter(r -> r.round() < round && LearnedRuleStore.CANDIDATE.equals(r.status()))
                .filter(r -> !rules.checked(run.runPk(), r.ruleId(), round)).toList();
        if (candidates.isEmpty()) {
            return;
        }
        SampleView view = sampleView(round);
        for (LearnedRuleStore.Row r : candidates) {
            // the rule as stored: a remembered rule was learned on another run
            Optional<dev.santabatch.config.RuleSpec> spec = RuleFragment.parse(r.fragment());
            if (spec.isEmpty()) {
                continue;
            }
            Precision pr = precision(new LearnedRule(r.criterion(), dev.santabatch.batchfix.induction.Shape.valueOf(r.shape()),
                    spec.get(), List.of(), 0).engine(), r.criterion(), view);
            int flagged = pr.flagged();
            int confirmed = pr.confirmed();
            rules.saveCheck(run.runPk(), r.ruleId(), round, flagged, confirmed);
            int allFlagged = r.laterFlagged() + flagged;
            int allConfirmed = r.laterConfirmed() + confirmed;
            if (allFlagged > 0 && allConfirmed < RETIRE_BELOW * allFlagged) {
                String why = String.format(java.util.Locale.ROOT,
                        "precision %d/%d on later samples, below %.2f", allConfirmed, allFlagged, RETIRE_BELOW);
                rules.retire(run.runPk(), r.ruleId(), why);
                log.info("batch-fix: round {}: learned rule {} retired: {}", round, r.ruleId(), why);
            }
        }
    }

    /**
     * A round's sample as its reviewers judged it: each sampled item as sampled, and for each item
     * failed on a criterion ({@code <criterion>\n<item>}) the pattern that holds it.
     */
    private record SampleView(List<PassedItem> items, Map<String, Integer> failedOn) {}

    private SampleView sampleView(int round) {
        Map<String, Integer> failedOn = new HashMap<>();
        for (LoopStore.PatternRow p : loop.patterns(run.runPk(), round)) {
            p.items().forEach(i -> failedOn.putIfAbsent(p.criterion() + "\n" + i, p.patternNo()));
        }
        List<PassedItem> sampled = new ArrayList<>();
        for (LoopStore.SampleOutcome s : loop.sample(run.runPk(), round)) {
            store.itemAsOfRound(run.runPk(), s.itemId(), round).ifPresent(it -> sampled.add(asOf(it)));
        }
        return new SampleView(sampled, failedOn);
    }

    /**
     * A rule on a sample: the sampled items it flags, those the reviewers failed on its criterion
     * (confirmed), and the pattern holding most of the confirmed ones (the first on a tie; 0: none).
     */
    private record Precision(int flagged, int confirmed, int pattern) {}

    private static Precision precision(RuleEngine engine, String criterion, SampleView view) {
        int flagged = 0;
        int confirmed = 0;
        Map<Integer, Integer> byPattern = new java.util.TreeMap<>();
        for (PassedItem s : view.items()) {
            if (!engine.check(s.text(), s.facts()).isEmpty()) {
                flagged++;
                Integer p = view.failedOn().get(criterion + "\n" + s.itemId());
                if (p != null) {
                    confirmed++;
                    byPattern.merge(p, 1, Integer::sum);
                }
            }
        }
        int pattern = byPattern.entrySet().stream().max(Map.Entry.<Integer, Integer>comparingByValue()
                .thenComparing(Map.Entry.comparingByKey(java.util.Comparator.reverseOrder()))).map(Map.Entry::getKey).orElse(0);
        return new Precision(flagged, confirmed, pattern);
    }

    // ------------------------------------------------------------------ evidence

    /**
     * The sample's evidence of a pattern: its accepted fixes, and the items both reviewers passed on
     * first review and no reviewer failed outside it. A flagged item ({@link LoopStore#flag}: a clean
     * canary's review failed it, say) is not passed. Except when the flag is this stage's own doing: an
     * item the round's fresh reviews failed was passed evidence when those reviews were asked for, and
     * stays so, so that a restarted round re-induces the same rule from the same evidence.
     */
    PatternEvidence evidence(int round, LoopStore.PatternRow p) {
        Map<String, LoopStore.SampleOutcome> sample = new LinkedHashMap<>();
        loop.sample(run.runPk(), round).forEach(s -> sample.put(s.itemId(), s));
        List<AcceptedFix> fixes = new ArrayList<>();
        for (String itemId : p.items()) {
            LoopStore.SampleOutcome s = sample.get(itemId);
            if (s == null || !"NICE".equals(s.outcome())) {
                continue;
            }
            Optional<Store.StoredItem> before = store.itemAsOfRound(run.runPk(), itemId, round);
            Optional<String> after = acceptedText(itemId, round);
            if (before.isPresent() && after.isPresent()) {
                PassedItem b = asOf(before.get());
                fixes.add(new AcceptedFix(itemId, b.text(), after.get(), b.facts()));
            }
        }
        List<PassedItem> passed = new ArrayList<>();
        Set<String> freshFailed = rules.freshFailed(run.runPk(), round);
        for (LoopStore.SampleOutcome s : sample.values()) {
            if (s.niceOnFirstReview() || ("NICE".equals(s.outcome()) && Integer.valueOf(0).equals(s.fixes())
                    && freshFailed.contains(s.itemId()))) {
                store.itemAsOfRound(run.runPk(), s.itemId(), round).ifPresent(it -> passed.add(asOf(it)));
            }
        }
        Set<String> items = new HashSet<>(p.items());
        List<String> issues = loop.issues(run.runPk(), round).stream()
                .filter(i -> items.contains(i.itemId()) && p.criterion().equals(i.criterion()))
                .map(LoopStore.IssueRow::text).toList();
        return new PatternEvidence(p.criterion(), p.label(), issues, fixes, passed);
    }

    /** The text the round's Santa loop accepted for an item: its last {@code santa-fix} revision of the round. */
    private Optional<String> acceptedText(String itemId, int round) {
        return store.jdbc().query("SELECT content FROM sb_revision WHERE run_pk = ? AND item_id = ? AND round_no = ?"
                        + " AND cause = '" + Cause.SANTA_FIX.value() + "' ORDER BY rev DESC LIMIT 1",
                (rs, n) -> rs.getString(1), run.runPk(), itemId, round).stream().findFirst();
    }

    private PassedItem asOf(Store.StoredItem item) {
        List<String> fields = FieldsCodec.decode(item.fields());
        return new PassedItem(item.id(), item.content() != null ? item.content() : source.content(fields), source.of(fields));
    }
}
