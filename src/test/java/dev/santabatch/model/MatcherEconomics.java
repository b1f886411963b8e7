package dev.santabatch.model;

import static org.assertj.core.api.Assertions.assertThat;

import dev.santabatch.model.CatalogModelServer.Call;
import dev.santabatch.model.CatalogModelServer.Kind;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The model matcher's economics of a finished whole-job run, measured from outside the job: per
 * round and systematic pattern, the items eligible when the batch fix narrowed, the matcher calls
 * the scripted server received for the pattern in that round's batch fix, the items a full scan
 * would match (the eligible items, as they stood then, whose text carries a planted defect of the
 * pattern's criterion: exactly the items the server answers {@code shows_pattern = true} for), and
 * how many of those the narrowing kept as candidates.
 *
 * <p>The eligible items are rebuilt from the store (every item not sampled in this or an earlier
 * round; the run escalates nothing) and checked against the count the job stored; their texts are
 * the input overlaid with the revisions of earlier rounds. The server's matcher calls are split
 * into the batch-fix steps by their order (a step's calls are contiguous: no review or fix call
 * happens during a batch fix) and checked against the calls the job counted.
 */
final class MatcherEconomics {

    /** One pattern of one round. */
    record Figure(int round, int patternNo, String criterion, int eligible, int calls, int fullScan, int kept, int candidates) {

        double callShare() {
            return calls / (double) eligible;
        }

        double keptShare() {
            return fullScan == 0 ? 1 : kept / (double) fullScan;
        }

        @Override
        public String toString() {
            return String.format(java.util.Locale.ROOT,
                    "round %d, pattern %d (%s): %d eligible, %d matcher calls (%.1f %%), a full scan matches %d, the"
                            + " narrowing kept %d (%.1f %%)", round, patternNo, criterion, eligible, calls, 100 * callShare(),
                    fullScan, kept, 100 * keptShare());
        }
    }

    private static final Pattern PROBLEM_CRITERION = Pattern.compile("## The Problem\\nCriterion (\\S+), as a reviewer flagged it");

    private MatcherEconomics() {}

    static List<Figure> measure(JdbcTemplate store, String runId, CatalogModelServer server, Map<String, String> input) {
        long runPk = store.queryForObject("SELECT run_pk FROM sb_run WHERE run_id = ?", Long.class, runId);
        // the batch-fix steps that called the matcher, in round order
        List<Integer> matchedRounds = store.queryForList("SELECT round_no FROM sb_match_narrowed WHERE run_pk = ?"
                + " AND candidates > 0 ORDER BY round_no", Integer.class, runPk);
        List<List<Call>> blocks = new ArrayList<>();
        List<Call> current = null;
        for (Call c : server.calls()) {
            if (c.kind() == Kind.MATCH) {
                if (current == null) {
                    current = new ArrayList<>();
                    blocks.add(current);
                }
                current.add(c);
            } else {
                current = null;
            }
        }
        assertThat(blocks).as("one contiguous run of matcher calls per batch fix with candidates").hasSize(matchedRounds.size());

        List<Figure> out = new ArrayList<>();
        Set<String> sampledSoFar = new HashSet<>();
        List<Map<String, Object>> stats = store.queryForList("SELECT round_no, pattern_no, eligible, calls FROM sb_match_stat"
                + " WHERE run_pk = ? ORDER BY round_no, pattern_no", runPk);
        int lastRound = store.queryForObject("SELECT COALESCE(MAX(round_no), 0) FROM sb_sample WHERE run_pk = ?", Integer.class, runPk);
        for (int round = 1; round <= lastRound; round++) {
            sampledSoFar.addAll(store.queryForList("SELECT item_id FROM sb_sample WHERE run_pk = ? AND round_no = ?", String.class,
                    runPk, round));
            List<Map<String, Object>> patterns = store.queryForList("SELECT pattern_no, criterion FROM sb_pattern WHERE run_pk = ?"
                    + " AND round_no = ? AND systematic = TRUE ORDER BY pattern_no", runPk, round);
            if (patterns.isEmpty()) {
                continue;
            }
            // the eligible items and their texts when the batch fix narrowed
            Map<String, String> text = new LinkedHashMap<>();
            for (Map.Entry<String, String> e : input.entrySet()) {
                if (!sampledSoFar.contains(e.getKey())) {
                    text.put(e.getKey(), e.getValue());
                }
            }
            for (Map<String, Object> rev : store.queryForList("SELECT item_id, content FROM sb_revision WHERE run_pk = ? AND round_no < ?"
                    + " ORDER BY rev", runPk, round)) {
                text.computeIfPresent((String) rev.get("ITEM_ID"), (k, v) -> (String) rev.get("CONTENT"));
            }
            // the candidates per pattern
            Map<Integer, Set<String>> candidates = new HashMap<>();
            for (Map<String, Object> c : store.queryForList("SELECT item_id, patterns FROM sb_match_candidate WHERE run_pk = ?"
                    + " AND round_no = ?", runPk, round)) {
                for (String p : ((String) c.get("PATTERNS")).split(",")) {
                    candidates.computeIfAbsent(Integer.valueOf(p), k -> new HashSet<>()).add((String) c.get("ITEM_ID"));
                }
            }
            int block = matchedRounds.indexOf(round);
            List<Call> calls = block < 0 ? List.of() : blocks.get(block);
            for (Map<String, Object> p : patterns) {
                int patternNo = ((Number) p.get("PATTERN_NO")).intValue();
                String criterion = (String) p.get("CRITERION");
                final int r = round;
                Map<String, Object> stored = stats.stream().filter(s -> ((Number) s.get("ROUND_NO")).intValue() == r
                        && ((Number) s.get("PATTERN_NO")).intValue() == patternNo).findFirst().orElseThrow();
                assertThat(((Number) stored.get("ELIGIBLE")).intValue()).as("eligible items rebuilt for round %d", round)
                        .isEqualTo(text.size());
                int serverCalls = (int) calls.stream().filter(c -> criterion.equals(criterionOf(c))).count();
                assertThat(((Number) stored.get("CALLS")).intValue()).as("matcher calls the job counted, round %d pattern %d",
                        round, patternNo).isEqualTo(serverCalls);
                Set<String> fullScan = new HashSet<>();
                text.forEach((id, t) -> {
                    if (server.defectsIn(t).stream().anyMatch(d -> d.criterion().equals(criterion))) {
                        fullScan.add(id);
                    }
                });
                Set<String> picked = candidates.getOrDefault(patternNo, Set.of());
                Set<String> kept = new HashSet<>(fullScan);
                kept.retainAll(picked);
                out.add(new Figure(round, patternNo, criterion, text.size(), serverCalls, fullScan.size(), kept.size(), picked.size()));
            }
        }
        return out;
    }

    private static String criterionOf(Call c) {
        Matcher m = PROBLEM_CRITERION.matcher(c.user());
        return m.find() ? m.group(1) : null;
    }
}
