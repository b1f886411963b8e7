package dev.santabatch.batchfix;

import dev.santabatch.persistence.Cause;
import dev.santabatch.persistence.ItemState;
import dev.santabatch.model.SpendStore;
import dev.santabatch.review.offline.StoreSnapshot;
import dev.santabatch.review.step.Panels;
import dev.santabatch.rounds.UnreachablePatterns;
import dev.santabatch.execution.RunContext;
import dev.santabatch.config.SourceFields;
import dev.santabatch.review.FixExample;
import dev.santabatch.review.SantaSettings;
import dev.santabatch.rounds.LoopStore;
import dev.santabatch.persistence.FieldsCodec;
import dev.santabatch.persistence.Store;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.batch.infrastructure.item.Chunk;
import org.springframework.batch.infrastructure.item.ExecutionContext;
import org.springframework.batch.infrastructure.item.ItemProcessor;
import org.springframework.batch.infrastructure.item.ItemStreamReader;
import org.springframework.batch.infrastructure.item.ItemWriter;

/**
 * The batch-fix step for a model panel: the round's systematic patterns are matched by the model
 * matcher, not by re-running the panel on every eligible item. When the step first opens in a
 * round, {@link PatternNarrowing} picks candidates per pattern without a model call; they are
 * stored in one transaction that writes a completion row last (so a restart continues the same
 * complete list and never pays twice for a finished candidate, and a list whose write was
 * interrupted is narrowed again, never reused).
 * Each candidate gets one fresh {@link LlmMatcher} call per pattern it may show, with the sample's
 * before/after fixes of the pattern as examples; a match's corrected text feeds the next pattern's
 * call. A correction that does not change the pattern's evidence as the sample's fixes did
 * ({@link SampleFixShape}) is dropped, not stored (the item stays eligible, its candidate state
 * {@code unlike-sample}). Matched text that passes the rules is stored as a {@code batch-fix} revision; a match the
 * rules reject, or two answers that say the item shows the pattern but give no usable corrected
 * text, escalate the item with the pattern; a correction unlike the sample's leaves the item eligible
 * and flagged (never shipped under a clean sample); a transport failure, or two answers that never say
 * whether it shows the pattern (malformed JSON, cut before {@code shows_pattern}), leave the item
 * as it was (eligible, not escalated; the errors are counted by kind).
 */
public final class ModelBatchFix {

    private static final Logger log = LoggerFactory.getLogger(ModelBatchFix.class);

    /** The narrowing method of a pattern a learned rule handled: its candidates are the items the rule could not fix. */
    static final String LEARNED_RULE_METHOD = "learned-rule";

    public record Task(SpendStore.Candidate candidate, Store.StoredItem item, int round) {}

    /**
     * @param undecided why the matcher gave no usable answer that says anything about the item
     *     ({@code TRANSPORT} or {@code UNKNOWN}): the item stays as it was, eligible, not escalated;
     *     {@code null}: the matcher decided
     * @param reason why the item is escalated ({@link BatchFixReason} or {@code FIX_BREAKS_RULES});
     *     {@code null} when it is not
     * @param unresolved the patterns the matcher said the item shows whose correction was unlike the
     *     sample's (not stored), each as {@code matcher: <pattern> (<why>)}: kept as a flag on the
     *     revision the item is left at (the read one, or the fixed one), so that it is never shipped
     *     under a clean sample (as {@link BatchFixStep} keeps a FAIL no pattern covers)
     */
    public record Outcome(Task task, List<LoopStore.PatternRow> matched, List<LoopStore.PatternRow> failed,
            @Nullable String fixed, @Nullable String attempt, List<String> issues, Map<Integer, Integer> calls,
            MatchOutcome.@Nullable Kind undecided, @Nullable String reason, List<String> unresolved) {

        Outcome(Task task, List<LoopStore.PatternRow> matched, List<LoopStore.PatternRow> failed,
                @Nullable String fixed, @Nullable String attempt, List<String> issues, Map<Integer, Integer> calls,
                MatchOutcome.@Nullable Kind undecided, @Nullable String reason) {
            this(task, matched, failed, fixed, attempt, issues, calls, undecided, reason, List.of());
        }

        /** The patterns as {@code changes.csv} and {@code escalations.csv} name them. */
        String label(List<LoopStore.PatternRow> ps) {
            return LoopStore.PatternRow.describe(task.round(), ps);
        }
    }

    /**
     * The standing FAIL of an item the matcher said shows pattern {@code p} but whose correction was
     * unlike the sample's fixes ({@code unlike}: how): {@code matcher: <criterion>: <label> (...)}.
     * The item is flagged with it, and a later review gives it to the fixer; held, it is the
     * escalation's open issue. No pattern id: it would mean nothing to the fixer.
     */
    static String unresolvedIssue(LoopStore.PatternRow p, String unlike) {
        return "matcher: " + p.issue() + " (shows the pattern; its correction " + unlike + ", not stored)";
    }

    /** Whether a flag line is the matcher's {@link #unresolvedIssue} for {@code p}, which a fix of {@code p} resolves. */
    static boolean resolves(LoopStore.PatternRow p, String flagLine) {
        return flagLine.startsWith("matcher: " + p.issue() + " (shows the pattern; ");
    }

    /** The round's patterns and their examples, loaded when the step opens. */
    public static final class State {
        int round = -1;
        Map<Integer, LoopStore.PatternRow> systematic = new LinkedHashMap<>();
        Map<Integer, List<FixExample>> examples = new HashMap<>();
    }

    private ModelBatchFix() {}

    public static final class Reader implements ItemStreamReader<Task> {
        private final Store store;
        private final LoopStore loop;
        private final SpendStore spend;
        private final RunContext run;
        private final State state;
        private final double maxShare;
        private final PatternNarrowing narrowing;
        private final @Nullable OfflineNarrowingChecks offline;
        private final SourceFields source;
        private final @Nullable LearnedRules learned;
        private final Deque<Task> page = new ArrayDeque<>();
        private long fetched = -1;
        private boolean exhausted;

        /**
         * @param learned the learned-rule stage, asked first for every systematic pattern; {@code null}
         *     when learned rules are off ({@code --no-learned-rules})
         */
        public Reader(Store store, LoopStore loop, SpendStore spend, RunContext run, State state, double maxShare,
                PatternNarrowing narrowing, @Nullable OfflineNarrowingChecks offline, SourceFields source,
                @Nullable LearnedRules learned) {
            this.store = store;
            this.loop = loop;
            this.spend = spend;
            this.run = run;
            this.state = state;
            this.maxShare = maxShare;
            this.narrowing = narrowing;
            this.offline = offline;
            this.source = source;
            this.learned = learned;
        }

        @Override
        public void open(ExecutionContext ctx) {
            page.clear();
            exhausted = false;
            fetched = -1;
            state.round = loop.currentRound(run.runPk()).map(LoopStore.Round::round).orElse(-1);
            state.systematic = new LinkedHashMap<>();
            state.examples = new HashMap<>();
            if (state.round < 0) {
                return;
            }
            // an unreachable pattern gets no more matcher calls
            Set<Integer> unreachable = new UnreachablePatterns(loop).numbers(run.runPk(), state.round);
            loop.patterns(run.runPk(), state.round).stream()
                    .filter(p -> p.systematic() && !unreachable.contains(p.patternNo()))
                    .forEach(p -> state.systematic.put(p.patternNo(), p));
            int contentIndex = run.column(run.job().input().contentColumn());
            for (LoopStore.PatternRow p : state.systematic.values()) {
                state.examples.put(p.patternNo(), store.santaFixExamples(run.runPk(), state.round, p.items(), contentIndex, 3));
            }
            // a pattern a valid learned rule handles gets no narrowing: only the items its rule
            // could not fix go to the matcher (asked in every round: earlier rounds' and earlier
            // runs' rules are re-validated on the round's sample even when no pattern is systematic)
            LearnedRules.Result ruled = learned == null ? LearnedRules.Result.NONE
                    : learned.handle(state.round, state.systematic.values());
            if (state.systematic.isEmpty()) {
                return;
            }
            if (!spend.narrowed(run.runPk(), state.round)) {
                narrow(contentIndex, ruled);
            }
        }

        private void narrow(int contentIndex, LearnedRules.Result ruled) {
            Set<String> sampled = new HashSet<>();
            Set<String> fixedNice = new HashSet<>();
            for (LoopStore.SampleOutcome s : loop.sample(run.runPk(), state.round)) {
                sampled.add(s.itemId());
                if ("NICE".equals(s.outcome()) && s.fixes() != null && s.fixes() > 0) {
                    fixedNice.add(s.itemId());
                }
            }
            List<PatternNarrowing.Item> eligible = new ArrayList<>();
            List<dev.santabatch.review.offline.SnapshotItem> asSnapshot = new ArrayList<>();
            StoreSnapshot snapshot = new StoreSnapshot(store, run.runPk(), state.round, source, run.categoryIndex());
            Map<String, Long> index = new HashMap<>();
            long started = System.nanoTime();
            long after = -1;
            while (true) {
                snapshot.checkStop("the batch fix's narrowing: " + eligible.size() + " unsampled eligible items read");
                List<Store.EligibleItem> next = store.eligibleAfter(run.runPk(), after, 0, 1000);
                if (next.isEmpty()) {
                    break;
                }
                after = next.get(next.size() - 1).item().recordIndex();
                for (Store.EligibleItem e : next) {
                    if (!sampled.contains(e.item().id())) {
                        eligible.add(new PatternNarrowing.Item(e.item().id(), e.item().currentRev(), content(e.item(), contentIndex)));
                        asSnapshot.add(snapshot.toSnapshot(e.item()));
                        index.put(e.item().id(), e.item().recordIndex());
                    }
                }
            }
            List<LoopStore.IssueRow> issues = loop.issues(run.runPk(), state.round);
            List<PatternNarrowing.Evidence> evidence = new ArrayList<>();
            for (LoopStore.PatternRow p : state.systematic.values()) {
                if (ruled.ruled().contains(p.patternNo())) {
                    continue;
                }
                List<PatternNarrowing.Sampled> items = new ArrayList<>();
                for (String id : p.items()) {
                    List<String> texts = issues.stream()
                            .filter(i -> id.equals(i.itemId()) && p.criterion().equals(i.criterion()))
                            .map(LoopStore.IssueRow::text).toList();
                    // the text as sampled, and the accepted fix of an item the Santa loop fixed to NICE
                    String before = store.itemAsOfRound(run.runPk(), id, state.round).map(it -> content(it, contentIndex)).orElse(null);
                    String fixed = fixedNice.contains(id)
                            ? store.item(run.runPk(), id).map(it -> content(it, contentIndex)).orElse(null) : null;
                    if (before != null) {
                        items.add(new PatternNarrowing.Sampled(before, fixed, texts));
                    }
                }
                evidence.add(new PatternNarrowing.Evidence(p.patternNo(), p.criterion(), items));
            }
            // the offline reviewers' checks for the patterns of criteria they judge (no model call)
            Set<String> criteria = new HashSet<>();
            evidence.forEach(p -> criteria.add(p.criterion()));
            long scanned = System.nanoTime();
            PatternNarrowing.Offline checks = offline == null || eligible.isEmpty() || criteria.isEmpty()
                    ? PatternNarrowing.Offline.NONE : offline.check(snapshot, asSnapshot, criteria);
            long checked = System.nanoTime();
            Map<Integer, PatternNarrowing.Narrowed> picked = new LinkedHashMap<>(narrowing.narrow(run.runPk(), evidence,
                    eligible, sampled.size(), maxShare, checks, () -> snapshot.checkStop("the batch fix's narrowing by meaning")));
            long done = System.nanoTime();
            log.info("batch-fix: round {}: narrowing of {} eligible items took {} s (reading items and evidence {} s, offline checks {} s, by meaning {} s)",
                    state.round, eligible.size(), seconds(done - started), seconds(scanned - started), seconds(checked - scanned),
                    seconds(done - checked));
            // (a remembered rule may handle a pattern that is not systematic: the matcher is not asked about it)
            ruled.leftovers().forEach((p, ids) -> {
                if (state.systematic.containsKey(p)) {
                    picked.put(p, new PatternNarrowing.Narrowed(ids, ids.size(), LEARNED_RULE_METHOD, 0));
                }
            });
            Map<String, List<Integer>> byItem = new LinkedHashMap<>();
            picked.forEach((p, n) -> n.ids().forEach(id -> byItem.computeIfAbsent(id, k -> new ArrayList<>()).add(p)));
            List<SpendStore.Candidate> candidates = new ArrayList<>();
            byItem.forEach((id, ps) -> candidates.add(new SpendStore.Candidate(id, index.get(id), ps.stream().sorted().toList())));
            Map<Integer, SpendStore.NarrowingStat> stats = new LinkedHashMap<>();
            picked.forEach((p, n) -> stats.put(p, new SpendStore.NarrowingStat(eligible.size(), n.ids().size(), n.found(),
                    n.method(), n.offlineChecks())));
            spend.saveNarrowing(run.runPk(), state.round, candidates, stats);
            picked.forEach((p, n) -> {
                log.info("batch-fix: round {}: pattern {} ({}): {} of {} eligible items are candidates for the model matcher"
                        + " (found {}, {} offline checks){}", state.round, p, n.method(), n.ids().size(), eligible.size(),
                        n.found(), n.offlineChecks(), n.found() > n.ids().size() ? "; the max-candidate-share cap cut "
                                + (n.found() - n.ids().size()) : "");
            });
        }

        private static String seconds(long nanos) {
            return String.format(java.util.Locale.ROOT, "%.1f", nanos / 1e9);
        }

        private static String content(Store.StoredItem it, int contentIndex) {
            return it.content() != null ? it.content() : FieldsCodec.decode(it.fields()).get(contentIndex);
        }

        @Override
        public @Nullable Task read() {
            if (state.systematic.isEmpty()) {
                return null;
            }
            if (page.isEmpty() && !exhausted) {
                List<SpendStore.Candidate> next = spend.pendingCandidates(run.runPk(), state.round, fetched, 200);
                if (next.isEmpty()) {
                    exhausted = true;
                } else {
                    fetched = next.get(next.size() - 1).recordIndex();
                    for (SpendStore.Candidate c : next) {
                        store.item(run.runPk(), c.itemId())
                                .filter(it -> !ItemState.ESCALATED.equals(it.state()) && !ItemState.NICE.equals(it.state()))
                                .ifPresent(it -> page.add(new Task(c, it, state.round)));
                    }
                }
            }
            return page.poll();
        }
    }

    public static final class Processor implements ItemProcessor<Task, Outcome> {
        private final Panels panels;
        private final LlmMatcher matcher;
        private final State state;
        private final SourceFields source;

        public Processor(Panels panels, LlmMatcher matcher, State state, SourceFields source) {
            this.panels = panels;
            this.matcher = matcher;
            this.state = state;
            this.source = source;
        }

        @Override
        public Outcome process(Task task) {
            List<String> fields = FieldsCodec.decode(task.item().fields());
            String original = task.item().content() != null ? task.item().content() : source.content(fields);
            Map<String, String> facts = source.of(fields);
            SantaSettings settings = panels.settings();
            String text = original;
            List<LoopStore.PatternRow> matched = new ArrayList<>();
            List<LoopStore.PatternRow> failed = new ArrayList<>();
            List<String> issues = new ArrayList<>();
            List<LoopStore.PatternRow> unlikeSample = new ArrayList<>();
            List<String> unresolved = new ArrayList<>();
            Map<Integer, Integer> calls = new HashMap<>();
            String reason = null; // the first unusable correction's
            for (int pNo : task.candidate().patterns()) {
                LoopStore.PatternRow p = state.systematic.get(pNo);
                if (p == null) {
                    continue;
                }
                List<MatchRequest.Example> examples = state.examples.getOrDefault(pNo, List.of()).stream()
                        .map(e -> new MatchRequest.Example(e.before(), e.after())).toList();
                calls.merge(pNo, 1, Integer::sum);
                MatchOutcome outcome = matcher.match(new MatchRequest(p.criterion(), p.label(), examples,
                        settings.taskSpec(), facts, text));
                if (outcome instanceof MatchOutcome.Matched m) {
                    java.util.Optional<String> unlike = SampleFixShape.of(state.examples.getOrDefault(pNo, List.of()))
                            .unlike(text, m.corrected());
                    if (unlike.isPresent()) { // not a fix of the pattern: the correction is dropped
                        unlikeSample.add(p);
                        unresolved.add(unresolvedIssue(p, unlike.get()));
                        log.info("batch-fix: {}: the correction for pattern {} {}; not stored", task.item().id(),
                                p.patternNo(), unlike.get());
                        continue;
                    }
                    matched.add(p);
                    issues.add(p.label());
                    text = m.corrected();
                } else if (outcome instanceof MatchOutcome.FailedToMatch f) {
                    if (f.kind() != MatchOutcome.Kind.UNUSABLE_CORRECTION) {
                        // a transport failure, or answers that never said whether the item shows the
                        // pattern: nothing says it carries the pattern, so it stays eligible, not
                        // escalated, and keeps its text (the errors are counted by kind)
                        // (a pattern the matcher already said it shows, with a correction unlike the
                        // sample's, is kept in unresolved: the writer flags it so no clean sample covers it)
                        // and so is one whose correction was usable: it is not stored without the others
                        for (LoopStore.PatternRow shown : matched) {
                            unresolved.add(unresolvedIssue(shown, "was not stored, as pattern " + p.patternNo()
                                    + "'s matcher gave no usable answer"));
                        }
                        return new Outcome(task, List.of(), List.of(), null, null, List.of(f.message()), calls, f.kind(), null,
                                unresolved);
                    }
                    failed.add(p);
                    issues.add(p.label() + " (matcher: " + f.message() + ")");
                    if (reason == null) {
                        reason = BatchFixReason.of(f).name();
                    }
                }
            }
            if (!failed.isEmpty()) {
                return new Outcome(task, matched, failed, null, matched.isEmpty() ? null : text, issues, calls, null, reason);
            }
            if (matched.isEmpty()) {
                return new Outcome(task, unlikeSample, List.of(), null, null, List.of(), calls, null,
                        unlikeSample.isEmpty() ? null : BatchFixReason.MATCH_FIX_UNLIKE_SAMPLE.name(), unresolved);
            }
            List<String> broken = panels.revisionCheck().violations(text, facts);
            if (broken.isEmpty()) {
                return new Outcome(task, matched, List.of(), text, null, issues, calls, null, null, unresolved);
            }
            List<String> all = new ArrayList<>(issues);
            all.addAll(broken);
            return new Outcome(task, matched, List.of(), null, text, all, calls, null,
                    dev.santabatch.review.SantaReason.FIX_BREAKS_RULES.name());
        }
    }

    public static final class Writer implements ItemWriter<Outcome> {
        private final Store store;
        private final LoopStore loop;
        private final SpendStore spend;
        private final RunContext run;

        public Writer(Store store, LoopStore loop, SpendStore spend, RunContext run) {
            this.store = store;
            this.loop = loop;
            this.spend = spend;
            this.run = run;
        }

        @Override
        public void write(Chunk<? extends Outcome> chunk) {
            for (Outcome o : chunk) {
                long runPk = run.runPk();
                int round = o.task().round();
                String id = o.task().item().id();
                o.calls().forEach((p, n) -> spend.addMatchCalls(runPk, round, p, n));
                String state;
                if (o.undecided() != null && !o.unresolved().isEmpty()) {
                    // an earlier pattern's matcher said it shows that pattern (correction not stored)
                    loop.flag(runPk, id, o.task().item().currentRev(), round, o.unresolved());
                }
                if (o.undecided() == MatchOutcome.Kind.TRANSPORT) {
                    state = "transport";
                    log.warn("batch-fix: {} not matched (transport failure; it stays eligible): {}", id, o.issues());
                } else if (o.undecided() != null) {
                    state = "unanswered";
                    log.warn("batch-fix: {} not matched (no usable answer on whether it shows the pattern; it stays"
                            + " eligible): {}", id, o.issues());
                } else if (BatchFixReason.MATCH_FIX_UNLIKE_SAMPLE.name().equals(o.reason())) {
                    // matched, but the correction does not fix the pattern as the sample did: stays
                    // eligible (a later round may fix it), flagged so that no clean sample covers it
                    o.matched().forEach(p -> loop.addPatternCounts(runPk, round, p.patternNo(), 1, 0, 0));
                    loop.flag(runPk, id, o.task().item().currentRev(), round, o.unresolved());
                    state = "unlike-sample";
                } else if (o.fixed() != null) {
                    // as in BatchFixStep: written only while the item is still as it was read
                    if (store.addRevisionIfAt(runPk, id, o.task().item().currentRev(), round, Cause.BATCH_FIX,
                            o.label(o.matched()), o.fixed())) {
                        o.matched().forEach(p -> loop.addPatternCounts(runPk, round, p.patternNo(), 1, 1, 0));
                        // another pattern it shows was not fixed, or an earlier FAIL on the read text
                        // that the fixed patterns do not cover: the fixed revision carries it
                        loop.flagRevised(runPk, id, o.task().item().currentRev(), round,
                                line -> o.matched().stream().anyMatch(p -> resolves(p, line)), o.unresolved());
                    }
                    state = "fixed";
                } else if (!o.failed().isEmpty() || !o.matched().isEmpty()) {
                    List<LoopStore.PatternRow> all = new ArrayList<>(o.matched());
                    all.addAll(o.failed());
                    if (store.escalateIfAt(runPk, id, o.task().item().currentRev(), round, Cause.BATCH_FIX, o.reason(),
                            o.label(all), o.attempt(), o.issues())) {
                        all.forEach(p -> loop.addPatternCounts(runPk, round, p.patternNo(), 1, 0, 1));
                    }
                    state = "escalated";
                } else {
                    state = "no-match";
                }
                spend.candidateDone(runPk, round, id, state);
            }
        }
    }
}
