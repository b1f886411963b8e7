package dev.santabatch.prepass;

import dev.santabatch.job.JobDefinition;
import dev.santabatch.rules.RuleEngine;
import dev.santabatch.rules.RuleOutcome;
import dev.santabatch.rules.RuleResult;
import dev.santabatch.rules.Violation;
import dev.santabatch.store.FieldsCodec;
import dev.santabatch.store.Store;
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
 */
public final class PrePass implements ItemProcessor<Store.StoredItem, PrePass.Checked>, ItemWriter<PrePass.Checked> {

    /** Cause of a revision made by the rules. */
    public static final String CAUSE = "rules";

    private final RuleEngine engine;
    private final SourceFields source;
    private final Store store;
    private final long runPk;

    public PrePass(JobDefinition job, List<String> header, Store store, long runPk) {
        this.engine = new RuleEngine(job.ruleCriteria());
        this.source = new SourceFields(job, header);
        this.store = store;
        this.runPk = runPk;
    }

    /** An item after the rules. */
    public record Checked(Store.StoredItem item, RuleOutcome outcome) {}

    @Override
    public @Nullable Checked process(Store.StoredItem item) {
        if (!"ACTIVE".equals(item.state())) {
            return null;
        }
        List<String> fields = FieldsCodec.decode(item.fields());
        String content = item.content() != null ? item.content() : source.content(fields);
        return new Checked(item, engine.apply(content, source.of(fields)));
    }

    @Override
    public void write(Chunk<? extends Checked> chunk) {
        Map<String, long[]> counts = new LinkedHashMap<>();
        Map<String, String> criterionOf = new LinkedHashMap<>();
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
            if (o.mustEscalate()) {
                // the last text that passed the rules stays the current one; the failed attempt is kept
                store.escalate(runPk, id, 0, CAUSE, "UNFIXED_RULE_VIOLATION", null, o.changed() ? o.text() : null,
                        o.remaining().stream().map(Violation::message).toList());
            } else if (o.changed()) {
                store.addRevision(runPk, id, c.item().currentRev() + 1, 0, CAUSE, null, o.text());
            }
        }
        counts.forEach((rule, n) -> store.addRuleCounts(runPk, rule, criterionOf.get(rule), n[0], n[1], n[2]));
    }
}
