package dev.santabatch.canary;

import dev.santabatch.config.FitSpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Whether the panel fits the catalog, judged before its verdicts are (docs/canaries.md):
 *
 * <ul>
 *   <li>sensitivity: the panel does not fit when the upper limit of its canary sensitivity's 95 %
 *       interval is below {@code santa.min-panel-sensitivity} (the canaries show it is below), or,
 *       once {@value #ENOUGH} planted canaries were reviewed, when the point estimate is below it;
 *   <li>false-flag rate: when the lower limit of its 95 % interval is above {@code
 *       santa.max-false-flag-rate}, or, after {@value #ENOUGH} clean copies, the point estimate is;
 *   <li>fail share: when it failed more than {@code santa.max-fail-share} of some round's sample on
 *       first review (an observed share, no interval).
 * </ul>
 *
 * With few canaries (4 to 8 a round) an interval is wide: judging the point estimate would reject a
 * good panel that missed one canary of four; the interval rule rejects only a panel the canaries
 * show to be below the minimum, and the point estimate takes over when there are enough of them.
 *
 * @param figures every figure judged, failing or not
 */
public record PanelFit(List<Figure> figures) {

    /** Planted canaries (or clean copies) after which the point estimate is judged. */
    public static final int ENOUGH = 30;

    /**
     * One judged figure.
     *
     * @param name sensitivity, false-flag-rate or fail-share
     * @param key the job-file key of its limit
     * @param value the point estimate (NaN when not measured)
     * @param limit the limit
     * @param fails whether it fails the panel
     * @param rule how it was judged, in words
     * @param advice what to do when it fails
     */
    public record Figure(String name, String key, double value, double limit, boolean fails, String rule, String advice) {}

    /** A round's first-review failures among its sample. */
    public record RoundFailures(int round, long failures, long sampleSize) {}

    public static PanelFit judge(CanaryEstimates estimates, List<RoundFailures> rounds, FitSpec spec) {
        List<Figure> out = new ArrayList<>();
        Rate s = estimates.panel().sensitivity();
        if (s.measured()) {
            double upper = s.interval().upper();
            boolean byInterval = upper < spec.minPanelSensitivity();
            boolean byPoint = s.trials() >= ENOUGH && s.estimate() < spec.minPanelSensitivity();
            out.add(new Figure("sensitivity", "santa.min-panel-sensitivity", s.estimate(), spec.minPanelSensitivity(),
                    byInterval || byPoint, String.format(Locale.ROOT, "caught %d of %d planted canaries; fails when the"
                            + " 95 %% upper limit (%.3f) is below the minimum, or the estimate is after %d canaries",
                            s.events(), s.trials(), upper, ENOUGH),
                    "the panel misses the defects it is there to find: use model reviewers (reviewers[].type llm) or"
                            + " offline thresholds that detect them, then start a new run"));
        } else {
            out.add(new Figure("sensitivity", "santa.min-panel-sensitivity", Double.NaN, spec.minPanelSensitivity(), false,
                    "not measured: no planted canary was reviewed", ""));
        }
        Rate f = estimates.panel().falseFlag();
        if (f.measured()) {
            double lower = f.interval().lower();
            boolean byInterval = lower > spec.maxFalseFlagRate();
            boolean byPoint = f.trials() >= ENOUGH && f.estimate() > spec.maxFalseFlagRate();
            out.add(new Figure("false-flag-rate", "santa.max-false-flag-rate", f.estimate(), spec.maxFalseFlagRate(),
                    byInterval || byPoint, String.format(Locale.ROOT, "failed %d of %d clean copies; fails when the 95 %%"
                            + " lower limit (%.3f) is above the maximum, or the estimate is after %d copies",
                            f.events(), f.trials(), lower, ENOUGH),
                    "the panel fails texts it passed before: use model reviewers or stricter offline thresholds"
                            + " (fewer false holds), then start a new run"));
        } else {
            out.add(new Figure("false-flag-rate", "santa.max-false-flag-rate", Double.NaN, spec.maxFalseFlagRate(), false,
                    "not measured: no clean copy was reviewed", ""));
        }
        RoundFailures worst = null;
        for (RoundFailures r : rounds) {
            if (r.sampleSize() > 0 && (worst == null
                    || (double) r.failures() / r.sampleSize() > (double) worst.failures() / worst.sampleSize())) {
                worst = r;
            }
        }
        if (worst != null) {
            double share = (double) worst.failures() / worst.sampleSize();
            out.add(new Figure("fail-share", "santa.max-fail-share", share, spec.maxFailShare(), share > spec.maxFailShare(),
                    String.format(Locale.ROOT, "failed %d of %d sampled items on first review in round %d (the highest"
                            + " share of any round)", worst.failures(), worst.sampleSize(), worst.round()),
                    "the panel fails most of the catalog: if those items are fine, its reviewers do not fit this catalog"
                            + " (use model reviewers or loosen the offline thresholds); if they are not, the catalog needs"
                            + " regenerating rather than review. Start a new run"));
        }
        return new PanelFit(List.copyOf(out));
    }

    public boolean fits() {
        return figures.stream().noneMatch(Figure::fails);
    }

    /** The first failing figure. */
    public Optional<Figure> failing() {
        return figures.stream().filter(Figure::fails).findFirst();
    }

    /** One line per failing figure: what failed, against which limit, and what to do. */
    public List<String> failureLines() {
        List<String> out = new ArrayList<>();
        for (Figure f : figures) {
            if (f.fails()) {
                out.add(String.format(Locale.ROOT, "%s %.3f %s %s %.3f (%s): %s", f.name(), f.value(),
                        f.name().equals("sensitivity") ? "below" : "above", f.key(), f.limit(), f.rule(), f.advice()));
            }
        }
        return out;
    }

    /** The report's {@code panel_fit} object. */
    public Map<String, Object> render() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("fits", fits());
        List<Map<String, Object>> fs = new ArrayList<>();
        for (Figure f : figures) {
            Map<String, Object> x = new LinkedHashMap<>();
            x.put("figure", f.name());
            x.put("value", Double.isNaN(f.value()) ? "not measured" : f.value());
            x.put("limit", f.limit());
            x.put("limit_key", f.key());
            x.put("fails", f.fails());
            x.put("rule", f.rule());
            if (f.fails()) {
                x.put("what_to_do", f.advice());
            }
            fs.add(x);
        }
        m.put("figures", fs);
        return m;
    }
}
