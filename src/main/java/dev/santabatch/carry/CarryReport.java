package dev.santabatch.carry;

import dev.santabatch.config.CarryOverSpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.JdbcTemplate;

/** {@code report.json}'s {@code carry_over}: what a run carried over, from which runs, and what it judged afresh. */
public final class CarryReport {

    private CarryReport() {}

    /**
     * The block, or {@code null} when there is nothing to say: carry-over on, and no earlier run of
     * the job to carry from (a job's first run reports as it did before carry-over existed).
     */
    public static @Nullable Map<String, Object> of(JdbcTemplate jdbc, long runPk, CarryOverSpec spec) {
        CarryStore carry = new CarryStore(jdbc);
        List<Long> sources = carry.start(runPk).map(CarryStore.Start::sources).orElse(null);
        Map<Long, Map<String, Long>> carried = carry.carried(runPk);
        if (spec.enabled() && (sources == null || sources.isEmpty()) && carried.isEmpty()) {
            return null;
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("enabled", spec.enabled());
        m.put("max_age", spec.maxAge());
        List<CarryStore.SourceRun> runs = carry.runs(sources == null ? List.of() : sources);
        m.put("looked_at", runs.stream().map(CarryStore.SourceRun::runId).toList());
        Map<String, Long> byKind = new LinkedHashMap<>();
        for (CarryKind k : CarryKind.values()) {
            byKind.put(k.key(), 0L);
        }
        List<Map<String, Object>> fromRuns = new ArrayList<>();
        List<CarryStore.SourceRun> named = carry.runs(new ArrayList<>(carried.keySet()));
        carried.forEach((pk, kinds) -> {
            Map<String, Object> r = new LinkedHashMap<>();
            r.put("run_id", named.stream().filter(s -> s.runPk() == pk).map(CarryStore.SourceRun::runId).findFirst()
                    .orElse("(run " + pk + ")"));
            kinds.forEach((k, n) -> {
                r.put(k, n);
                byKind.merge(k, n, Long::sum);
            });
            fromRuns.add(r);
        });
        m.put("carried", byKind.values().stream().mapToLong(Long::longValue).sum());
        m.putAll(byKind);
        m.put("nice_approved_by_person", carry.approved(runPk));
        m.put("from_runs", fromRuns);
        m.put("judged_afresh", carry.misses(runPk));
        m.put("note", "nice: shipped with its verified text, not reviewed again (nice_approved_by_person: held there,"
                + " shipped with its last passing text as a person's ok handed back with santa-batch audit said); held:"
                + " in escalations.csv (cause carry-over) until a person hands back ok for it; covered: shipped under a"
                + " clean sample there, sampled here as the covered stratum, with a fixed size (strata); audited: a"
                + " person found it defective there");
        return m;
    }

    /** The summary's line for the block ({@code report.json}'s {@code carry_over}); empty without one. */
    public static List<String> summary(@org.jspecify.annotations.Nullable Map<String, Object> c) {
        if (c == null) {
            return List.of();
        }
        if (Boolean.FALSE.equals(c.get("enabled"))) {
            return List.of("carried:  none (carry-over.enabled: false)");
        }
        List<String> from = new ArrayList<>();
        if (c.get("from_runs") instanceof List<?> runs) {
            for (Object o : runs) {
                if (o instanceof Map<?, ?> r) {
                    from.add("'" + r.get("run_id") + "'");
                }
            }
        }
        StringBuilder afresh = new StringBuilder();
        if (c.get("judged_afresh") instanceof Map<?, ?> misses) {
            misses.forEach((k, v) -> {
                if (v instanceof Number n && n.longValue() > 0) {
                    afresh.append(afresh.length() == 0 ? "" : ", ").append(String.valueOf(k).replace('_', ' ')).append(' ')
                            .append(n);
                }
            });
        }
        List<String> lines = new ArrayList<>();
        lines.add("carried:  " + c.get("carried") + " items" + (from.isEmpty() ? "" : " from run " + String.join(", ", from))
                + " (nice " + c.get("nice") + " and held " + c.get("held") + ", not reviewed again; covered "
                + c.get("covered") + ", sampled as their own stratum)");
        if (afresh.length() > 0) {
            lines.add("          judged afresh though an earlier run judged them: " + afresh);
        }
        return lines;
    }
}
