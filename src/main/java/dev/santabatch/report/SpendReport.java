package dev.santabatch.report;

import dev.santabatch.job.JobDefinition;
import dev.santabatch.job.ReviewerSpec;
import dev.santabatch.llm.CallCounts;
import dev.santabatch.llm.SpendSnapshot;
import dev.santabatch.llm.Tally;
import dev.santabatch.loop.SpendStore;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The model-call part of {@code report.json}, as the call governor counted it over every execution
 * of the run: calls (HTTP attempts, retries included), retries, errors by kind, input and output
 * tokens and estimated cost, for the run, per role and per round; and the batch fix's matcher
 * calls as a share of the eligible items, per pattern.
 */
public final class SpendReport {

    private SpendReport() {}

    public static Map<String, Object> render(SpendSnapshot spend, List<SpendStore.MatchStat> matching) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("run", tally(spend.run()));
        List<Map<String, Object>> rounds = new ArrayList<>();
        spend.rounds().forEach((n, t) -> {
            Map<String, Object> r = new LinkedHashMap<>();
            r.put("round", n);
            r.putAll(tally(t));
            rounds.add(r);
        });
        m.put("rounds", rounds);
        m.put("matcher", matcher(matching));
        m.put("note", "calls are HTTP attempts sent, retries included; cost is estimated from the job file's prices"
                + " (0 where none are given); errors count failed attempts and unusable answers by kind");
        return m;
    }

    static Map<String, Object> tally(Tally t) {
        Map<String, Object> m = new LinkedHashMap<>(counts(t.total()));
        m.put("errors_by_kind", new TreeMap<>(t.errorsByKind()));
        Map<String, Object> roles = new LinkedHashMap<>();
        t.byRole().forEach((role, c) -> roles.put(role, counts(c)));
        m.put("by_role", roles);
        return m;
    }

    static Map<String, Object> counts(CallCounts c) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("calls", c.calls());
        m.put("retries", c.retries());
        m.put("errors", c.errors());
        m.put("input_tokens", c.inputTokens());
        m.put("output_tokens", c.outputTokens());
        m.put("tokens", c.tokens());
        m.put("estimated_cost", c.cost());
        return m;
    }

    /** Matcher calls per pattern against the eligible items the batch fix had to choose from. */
    static Map<String, Object> matcher(List<SpendStore.MatchStat> stats) {
        Map<String, Object> m = new LinkedHashMap<>();
        List<Map<String, Object>> patterns = new ArrayList<>();
        long calls = 0;
        long eligible = 0;
        for (SpendStore.MatchStat s : stats) {
            Map<String, Object> p = new LinkedHashMap<>();
            p.put("round", s.round());
            p.put("pattern", s.patternNo());
            p.put("eligible", s.eligible());
            p.put("candidates", s.candidates());
            p.put("calls", s.calls());
            p.put("share_of_eligible", s.eligible() == 0 ? null : s.calls() / (double) s.eligible());
            patterns.add(p);
            calls += s.calls();
            eligible += s.eligible();
        }
        m.put("calls", calls);
        m.put("share_of_eligible", eligible == 0 ? null : calls / (double) eligible);
        m.put("patterns", patterns);
        m.put("method", stats.isEmpty()
                ? "no model matcher ran (offline panel: the batch fix runs the panel's checks on every eligible item)"
                : "candidates narrowed without model calls (words the sample's fixes removed or its issues quote,"
                        + " and word-shingle neighbours of the failing sampled items), then one matcher call per"
                        + " candidate and pattern; shares are matcher calls over the eligible items, per pattern");
        return m;
    }

    /** The panel and its flags: reviewers that share an endpoint and model share its biases. */
    public static Map<String, Object> panel(JobDefinition job) {
        Map<String, Object> m = new LinkedHashMap<>();
        List<Map<String, Object>> reviewers = new ArrayList<>();
        for (ReviewerSpec r : job.reviewers()) {
            Map<String, Object> one = new LinkedHashMap<>();
            one.put("id", r.id());
            one.put("type", r.type());
            if (r.model() != null) {
                one.put("model", r.model().model());
                one.put("base_url", r.model().baseUrl() == null ? "(default)" : r.model().baseUrl());
            }
            reviewers.add(one);
        }
        m.put("reviewers", reviewers);
        List<String> same = job.sameModelReviewers();
        m.put("same_model_reviewers", same);
        if (!same.isEmpty()) {
            m.put("flag", "reviewers share an endpoint and model (" + String.join("; ", same)
                    + "): they share its biases, so their agreement says little; use different model families");
        }
        return m;
    }
}
