package dev.santabatch.plan;

import dev.santabatch.persistence.Cause;
import dev.santabatch.persistence.ItemState;
import dev.santabatch.carry.CarryOver;
import dev.santabatch.carry.CarryStore;
import dev.santabatch.config.JobDefinition;
import dev.santabatch.sampling.StratumStore;
import dev.santabatch.config.SourceFields;
import dev.santabatch.persistence.FieldsCodec;
import dev.santabatch.persistence.Store;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * A run's plan in the store ({@code sb_plan}: the estimate the run made of itself after its pre-pass,
 * as JSON, one row per run, written once) and the {@link Census} of a run read from its own store.
 * Portable between H2 and PostgreSQL.
 */
public final class PlanStore {

    private final Store store;

    public PlanStore(Store store) {
        this.store = store;
    }

    /** The run's plan, as {@link #save} wrote it; empty when it has none. */
    public Optional<String> load(long runPk) {
        return store.jdbc().queryForList("SELECT estimate FROM sb_plan WHERE run_pk = ?", String.class, runPk).stream()
                .findFirst();
    }

    /** Records the run's plan unless it has one. */
    public void save(long runPk, String estimate) {
        if (load(runPk).isEmpty()) {
            store.jdbc().update("INSERT INTO sb_plan (run_pk, estimate) VALUES (?, ?)", runPk, estimate);
        }
    }

    /**
     * {@code report.json}'s {@code plan}: the estimate the run made of itself before round 1 beside
     * what it spent (round 1's calls, tokens and cost, and the run's); {@code null} when the run has
     * no plan (started by an earlier version, or the estimate failed).
     */
    public @org.jspecify.annotations.Nullable Map<String, Object> report(long runPk,
            dev.santabatch.model.SpendSnapshot spent) {
        String stored = load(runPk).orElse(null);
        if (stored == null) {
            return null;
        }
        Map<String, Object> estimate = Plan.parse(stored);
        estimate.remove("job");
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("estimate", estimate);
        Map<String, Object> actual = new LinkedHashMap<>();
        actual.put("round_1", spent(spent.rounds().getOrDefault(1, dev.santabatch.model.Tally.EMPTY).total()));
        Map<String, Object> run = spent(spent.run().total());
        run.put("rounds", spent.rounds().size());
        actual.put("run", run);
        m.put("spent", actual);
        Object planned = estimate.get("round_1") instanceof Map<?, ?> r ? r.get("calls") : null;
        long made = spent.rounds().getOrDefault(1, dev.santabatch.model.Tally.EMPTY).total().calls();
        m.put("round_1_calls_spent_per_estimated", planned instanceof Number n && n.longValue() > 0
                ? made / n.doubleValue() : null);
        m.put("note", "estimated after the pre-pass, before round 1, with no model call (docs/plan.md); spent calls are"
                + " HTTP attempts, retries included, as run.model_calls counts them");
        return m;
    }

    private static Map<String, Object> spent(dev.santabatch.model.CallCounts c) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("calls", c.calls());
        m.put("tokens", c.tokens());
        m.put("estimated_cost", c.cost());
        return m;
    }

    /**
     * The census of run {@code runPk} after its pre-pass (before its first round): what {@link
     * CatalogCensus} counts for a run started on its catalog, read from what the ingest and the
     * pre-pass stored.
     */
    public Census census(long runPk, JobDefinition job, List<String> header) {
        JdbcTemplate jdbc = store.jdbc();
        CarryStore carry = new CarryStore(jdbc);
        CarryOver over = CarryOver.of(store, runPk, job.carryOver());
        Map<String, Long> carried = new LinkedHashMap<>();
        carry.carried(runPk).values().forEach(kinds -> kinds.forEach((k, n) -> carried.merge(k, n, Long::sum)));
        Map<String, Long> eligible = new HashMap<>();
        Map<String, Long> covered = new HashMap<>();
        jdbc.query("SELECT category, carry, COUNT(*) FROM sb_item WHERE run_pk = ? AND state = '" + ItemState.ACTIVE + "'"
                + " GROUP BY category, carry", rs -> {
                    String category = rs.getString(1) == null ? "" : rs.getString(1);
                    eligible.merge(category, rs.getLong(3), Long::sum);
                    if (dev.santabatch.carry.CarryKind.COVERED.key().equals(rs.getString(2))) {
                        covered.merge(category, rs.getLong(3), Long::sum);
                    }
                }, runPk);
        SourceFields source = new SourceFields(job, header);
        Census.PromptDraw prompts = new Census.PromptDraw();
        long after = -1;
        for (List<Store.EligibleItem> page = store.eligibleAfter(runPk, after, 0, 2000); !page.isEmpty();
                page = store.eligibleAfter(runPk, after, 0, 2000)) {
            for (Store.EligibleItem e : page) {
                List<String> fields = FieldsCodec.decode(e.item().fields());
                prompts.offer(e.item().id(), e.item().content() != null ? e.item().content() : source.content(fields),
                        source.of(fields));
            }
            after = page.get(page.size() - 1).item().recordIndex();
        }
        StratumStore strata = new StratumStore(jdbc);
        Optional<StratumStore.Draw> lastLook = strata.lastLook(job.name(), runPk);
        return new Census(store.countItems(runPk), store.countRejects(runPk),
                over == null ? List.of() : over.lookedAt().stream().map(CarryStore.SourceRun::runId).toList(), carried,
                carry.misses(runPk), store.countRevisions(runPk, Cause.RULES),
                store.escalationsByCause(runPk).getOrDefault(Cause.RULES.value(), 0L), eligible, covered,
                lastLook.flatMap(l -> store.findRun(l.runPk())).map(Store.RunRow::runId).orElse(null),
                StratumStore.looks(lastLook, lastLook.map(l -> strata.entered(runPk, l.runPk())).orElse(null)),
                prompts.items());
    }
}
