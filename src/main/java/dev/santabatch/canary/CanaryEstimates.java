package dev.santabatch.canary;

import dev.santabatch.config.CanaryKind;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What the canaries of every round so far say of each reviewer and of the panel: sensitivity
 * (planted canaries failed) and false-flag rate (clean copies failed), accumulated over the rounds.
 * A reviewer's figures count the canaries it answered; the panel's count the canaries every
 * reviewer answered, failed when some reviewer failed it (the gate's rule: a FAIL is a finding).
 *
 * @param reviewers per reviewer id, in panel order
 * @param panel the panel's
 * @param byKind the panel's sensitivity per canary kind
 * @param rounds canaries drawn per round
 */
public record CanaryEstimates(Map<String, Figures> reviewers, Figures panel, Map<String, Rate> byKind,
        Map<Integer, Integer> rounds) {

    /** @param sensitivity planted canaries failed @param falseFlag clean copies failed */
    public record Figures(Rate sensitivity, Rate falseFlag) {}

    public static CanaryEstimates of(List<Map.Entry<Integer, Canary>> canaries, List<CanaryStore.Verdict> verdicts,
            List<String> panel) {
        Map<String, Map<String, Boolean>> byCanary = new HashMap<>(); // "round#seq" -> reviewer -> fail
        for (CanaryStore.Verdict v : verdicts) {
            byCanary.computeIfAbsent(v.round() + "#" + v.seq(), k -> new HashMap<>()).put(v.reviewerId(), v.fail());
        }
        Map<String, long[]> rev = new LinkedHashMap<>(); // reviewer -> {caught, planted, flagged, clean}
        panel.forEach(r -> rev.put(r, new long[4]));
        long[] all = new long[4];
        Map<String, long[]> kinds = new LinkedHashMap<>();
        for (CanaryKind k : CanaryKind.values()) {
            kinds.put(k.id(), new long[2]);
        }
        Map<Integer, Integer> rounds = new TreeMap<>();
        for (Map.Entry<Integer, Canary> e : canaries) {
            rounds.merge(e.getKey(), 1, Integer::sum);
            Canary c = e.getValue();
            Map<String, Boolean> vs = byCanary.getOrDefault(e.getKey() + "#" + c.seq(), Map.of());
            int off = c.planted() ? 0 : 2;
            for (String r : panel) {
                Boolean fail = vs.get(r);
                if (fail != null) {
                    rev.get(r)[off + 1]++;
                    if (fail) {
                        rev.get(r)[off]++;
                    }
                }
            }
            if (vs.keySet().containsAll(panel)) {
                boolean fail = panel.stream().anyMatch(vs::get);
                all[off + 1]++;
                if (fail) {
                    all[off]++;
                }
                if (c.planted()) {
                    long[] k = kinds.get(c.kind().id());
                    k[1]++;
                    if (fail) {
                        k[0]++;
                    }
                }
            }
        }
        Map<String, Figures> reviewers = new LinkedHashMap<>();
        rev.forEach((r, n) -> reviewers.put(r, figures(n)));
        Map<String, Rate> byKind = new LinkedHashMap<>();
        kinds.forEach((k, n) -> {
            if (n[1] > 0) {
                byKind.put(k, new Rate(n[0], n[1]));
            }
        });
        return new CanaryEstimates(reviewers, figures(all), byKind, rounds);
    }

    private static Figures figures(long[] n) {
        return new Figures(new Rate(n[0], n[1]), new Rate(n[2], n[3]));
    }

    /** The report's {@code canaries} object. */
    public Map<String, Object> render() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("drawn_by_round", rounds.entrySet().stream().map(e -> Map.of("round", e.getKey(), "canaries", e.getValue()))
                .toList());
        m.put("panel", render(panel));
        Map<String, Object> per = new LinkedHashMap<>();
        reviewers.forEach((r, f) -> per.put(r, render(f)));
        m.put("reviewers", per);
        Map<String, Object> kinds = new LinkedHashMap<>();
        byKind.forEach((k, r) -> kinds.put(k, r.render("caught")));
        m.put("panel_sensitivity_by_kind", kinds);
        m.put("method", "canaries are copies of items the panel passed on first review: planted ones carry one defect of"
                + " a kind a reviewed criterion covers, clean ones none; sensitivity = planted canaries failed, false-flag"
                + " rate = clean copies failed, over every round; exact (Clopper-Pearson) 95 % intervals; the panel fails"
                + " a canary when some reviewer fails it (docs/canaries.md)");
        return m;
    }

    private static Map<String, Object> render(Figures f) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("sensitivity", f.sensitivity().render("caught"));
        m.put("false_flag_rate", f.falseFlag().render("failed"));
        return m;
    }
}
