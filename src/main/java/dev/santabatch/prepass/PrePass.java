package dev.santabatch.prepass;

import dev.santabatch.persistence.Cause;
import dev.santabatch.persistence.ItemState;
import dev.santabatch.config.SourceFields;
import dev.santabatch.carry.Carried;
import dev.santabatch.carry.CarryKind;
import dev.santabatch.carry.CarryMiss;
import dev.santabatch.carry.CarryOver;
import dev.santabatch.carry.CarryStore;
import dev.santabatch.config.JobDefinition;
import dev.santabatch.prepass.rules.RuleEngine;
import dev.santabatch.prepass.rules.RuleOutcome;
import dev.santabatch.prepass.rules.RuleResult;
import dev.santabatch.prepass.rules.Violation;
import dev.santabatch.persistence.FieldsCodec;
import dev.santabatch.persistence.Store;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.batch.infrastructure.item.Chunk;
import org.springframework.batch.infrastructure.item.ItemProcessor;
import org.springframework.batch.infrastructure.item.ItemWriter;

/**
 * The verification pre-pass (the seed's "verification loop first"): the rubric's deterministic
 * rules on every item, with their fixes. A fixed item gets a new revision (cause {@code rules});
 * a violation without a fix, or whose fix does not clear it, escalates the item. Counts per rule
 * are added in the chunk's transaction.
 *
 * <p>With carry-over ({@link CarryOver}), an item an earlier run of the job verified, unchanged
 * since, inherits that run's outcome here, in the same chunk transaction: its text there (a revision
 * of cause {@code carry-over} when it differs from the input), and NICE, held or covered. The
 * rules run on the carried text first: an item they would change, or hold, loses its carry-over and
 * is checked from its input as any item.
 */
public final class PrePass implements ItemProcessor<PrePass.Input, PrePass.Checked>, ItemWriter<PrePass.Checked> {

    private final RuleEngine engine;
    private final SourceFields source;
    private final Store store;
    private final long runPk;
    private final @Nullable CarryOver carryOver;
    private final CarryStore carryStore;

    public PrePass(JobDefinition job, List<String> header, Store store, long runPk) {
        this(job, header, store, runPk, null);
    }

    /** @param carryOver the run's carry-over; {@code null}: none (every item checked from its input) */
    public PrePass(JobDefinition job, List<String> header, Store store, long runPk, @Nullable CarryOver carryOver) {
        this.engine = new RuleEngine(job.ruleCriteria());
        this.source = new SourceFields(job, header);
        this.store = store;
        this.runPk = runPk;
        this.carryOver = carryOver;
        this.carryStore = new CarryStore(store.jdbc());
    }

    /** An item to check, with what earlier runs of the job left of it. */
    public record Input(Store.StoredItem item, CarryOver.Candidate candidate) {}

    /**
     * An item after the rules.
     *
     * @param outcome the rules on the item's input, or, for a carried item, on its carried text
     * @param carried the outcome it inherits; {@code null}: checked as any item
     * @param miss why an item an earlier run judged is judged afresh; {@code null}: carried, or new
     * @param overruled as {@link CarryOver.Candidate#overruled()}, when it still applies (an item a
     *     person approved that a rule now changes is not carried)
     */
    public record Checked(Store.StoredItem item, RuleOutcome outcome, @Nullable Carried carried, @Nullable CarryMiss miss,
            @Nullable CarryKind overruled) {}

    /** A page of items as the step processes them: each with what earlier runs left of it (one lookup a page). */
    public List<Input> page(List<Store.StoredItem> items) {
        if (carryOver == null) {
            return items.stream().map(it -> new Input(it, CarryOver.Candidate.NEW)).toList();
        }
        Map<String, CarryOver.Candidate> found = carryOver.lookup(items.stream().filter(it -> ItemState.ACTIVE.equals(it.state())).toList());
        return items.stream()
                .map(it -> new Input(it, found.getOrDefault(it.id(), CarryOver.Candidate.NEW)))
                .toList();
    }

    @Override
    public @Nullable Checked process(Input input) {
        Store.StoredItem item = input.item();
        if (!ItemState.ACTIVE.equals(item.state())) {
            return null;
        }
        List<String> fields = FieldsCodec.decode(item.fields());
        String content = item.content() != null ? item.content() : source.content(fields);
        Carried carried = input.candidate().carried();
        CarryMiss miss = input.candidate().miss();
        CarryKind overruled = input.candidate().overruled();
        if (carried != null) {
            RuleOutcome check = engine.apply(carried.text() != null ? carried.text() : content, source.of(fields));
            if (!check.changed() && !check.mustEscalate()) {
                return new Checked(item, check, carried, null, overruled);
            }
            // a rule changes or holds the carried text: checked from its input, as any item
            miss = CarryMiss.RULES;
            overruled = null;
        }
        return new Checked(item, engine.apply(content, source.of(fields)), null, miss, overruled);
    }

    @Override
    public void write(Chunk<? extends Checked> chunk) {
        Map<String, long[]> counts = new LinkedHashMap<>();
        Map<String, String> criterionOf = new LinkedHashMap<>();
        List<CarryStore.Mark> marks = new ArrayList<>();
        Map<CarryMiss, Long> misses = new EnumMap<>(CarryMiss.class);
        long approved = 0;
        long coveredDefective = 0;
        for (Checked c : chunk) {
            RuleOutcome o = c.outcome();
            for (RuleResult r : o.rules()) {
                long[] n = counts.computeIfAbsent(r.ruleId(), k -> new long[3]);
                criterionOf.put(r.ruleId(), r.criterionId());
                n[0] += r.found();
                n[1] += r.fixed();
                n[2] += r.unfixable();
            }
            String id = c.item().id();
            if (c.miss() != null) {
                misses.merge(c.miss(), 1L, Long::sum);
            }
            if (c.overruled() == CarryKind.HELD) {
                approved++;
            } else if (c.overruled() == CarryKind.COVERED) {
                coveredDefective++;
            }
            Carried carried = c.carried();
            if (carried != null) {
                if (!o.original().equals(content(c.item()))) {
                    // its text there, which the rules just passed
                    store.addRevision(runPk, id, c.item().currentRev() + 1, 0, Cause.CARRY_OVER, null, o.original());
                }
                Carried.Held h = carried.held();
                if (carried.kind() == CarryKind.HELD && h != null) {
                    store.escalate(runPk, id, 0, Cause.CARRY_OVER, h.reason(), h.pattern(), h.lastAttempt(), h.issues());
                }
                marks.add(new CarryStore.Mark(id, carried.kind(), carried.fromRunPk(), carried.runs(), o.original()));
            } else if (o.mustEscalate()) {
                // the last text that passed the rules stays the current one; the failed attempt is kept
                store.escalate(runPk, id, 0, Cause.RULES, "UNFIXED_RULE_VIOLATION", null, o.changed() ? o.text() : null,
                        o.remaining().stream().map(Violation::message).toList());
            } else if (o.changed()) {
                store.addRevision(runPk, id, c.item().currentRev() + 1, 0, Cause.RULES, null, o.text());
            }
        }
        counts.forEach((rule, n) -> store.addRuleCounts(runPk, rule, criterionOf.get(rule), n[0], n[1], n[2]));
        carryStore.mark(runPk, marks);
        carryStore.addMisses(runPk, misses);
        carryStore.addDecided(runPk, approved, coveredDefective);
    }

    private String content(Store.StoredItem item) {
        return item.content() != null ? item.content() : source.content(FieldsCodec.decode(item.fields()));
    }
}
