package dev.santabatch.export;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonInclude.Include;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.NullNode;
import dev.santabatch.sampling.StratumStore;
import dev.santabatch.rounds.Decision;
import dev.santabatch.rounds.LoopStore;
import dev.santabatch.stats.CleanSampleBound;
import dev.santabatch.stats.Percent;
import dev.santabatch.stats.StratumBound;
import dev.santabatch.persistence.Store;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * {@code report.json}'s {@code strata} and, for a clean run with a covered stratum, its
 * {@code run.bound}: the changed and the covered stratum, each with its items, sample, looks,
 * failures and bound, and the catalog's bound Σ (N_h / N) · p_h ({@link StratumBound};
 * docs/carry-over.md, "Strata"). A run without a covered stratum has neither: it reports as before.
 */
final class StrataReport {

    static final String CHANGED = StratumStore.CHANGED;

    /**
     * One stratum's figures.
     *
     * @param bound p_h; {@code null}: none stated (the run did not end clean, the stratum was
     *     reopened or has no item)
     * @param reviewedInFull every item of it was reviewed (its bound is 0)
     * @param covered N_h in the catalog's bound: the items its bound covers at export (for the covered
     *     stratum, its members then: an item a later round rewrote is the changed stratum's)
     */
    private record Stratum(String name, long items, int sampled, int looks, int failures, boolean reopened,
            @Nullable Integer reopenedRound, @Nullable Double bound, boolean reviewedInFull, String covers, long covered) {}

    private final StratumStore.Draw draw;
    private final List<Stratum> strata;
    private final @Nullable Double catalog;
    private final long catalogItems;
    private final @Nullable String previousLook;
    private final String why;

    private StrataReport(StratumStore.Draw draw, List<Stratum> strata, @Nullable String previousLook, String why) {
        this.draw = draw;
        this.strata = strata;
        this.previousLook = previousLook;
        this.why = why;
        List<StratumBound.Share> shares = strata.stream().filter(s -> s.bound() != null && s.covered() > 0)
                .map(s -> new StratumBound.Share(s.covered(), s.bound())).toList();
        this.catalogItems = shares.stream().mapToLong(StratumBound.Share::items).sum();
        this.catalog = shares.isEmpty() ? null : StratumBound.catalog(shares);
    }

    /** The run's strata; {@code null} for a run without a covered stratum. */
    static @Nullable StrataReport of(Store store, LoopStore loop, long runPk, String status, List<LoopStore.Round> rounds) {
        StratumStore.Draw draw = new StratumStore(loop.jdbc()).covered(runPk).orElse(null);
        if (draw == null || rounds.isEmpty()) {
            return null;
        }
        boolean stated = RunReport.CLEAN.equals(status);
        int h = draw.strata();
        // the changed stratum: its items eligible in the last round, and that round's Pattern C sample
        LoopStore.Round last = rounds.get(rounds.size() - 1);
        boolean lastDrew = last.round() == draw.round();
        long items = lastDrew ? draw.changedItems() : last.eligible();
        int sampled = lastDrew ? draw.changedSample() : last.sampleSize();
        boolean inFull = (lastDrew ? draw.changedFullReview() : last.fullReview())
                || Decision.FULLY_REVIEWED.equals(draw.changedOutcome());
        int failures = loop.acceptance(runPk, last.round()).map(LoopStore.Acceptance::failures).orElse(0);
        Double changedBound = !stated || items == 0 ? null
                : inFull ? Double.valueOf(0)
                : sampled > failures ? StratumBound.upperBound(sampled, failures, rounds.size(), h, StratumBound.ALPHA)
                : null;
        List<Stratum> strata = new ArrayList<>();
        strata.add(new Stratum(CHANGED, items, sampled, rounds.size(), failures, false, null, changedBound,
                inFull && items > 0,
                "new and changed items, items judged afresh" + (draw.reopened() ? ", and the covered stratum's items"
                        + " after it was reopened" : "") + ": those eligible in round " + last.round()
                        + " (the last), neither verified NICE in an earlier round nor held", items));
        // the covered stratum: its fixed sample of round 1, at zero failures, over its draw's members; its
        // bound covers those still members at export (not reviewed, not rewritten by a later round)
        boolean coveredInFull = draw.sampleSize() == draw.items();
        Double coveredBound = !stated || draw.reopened() ? null
                : coveredInFull ? Double.valueOf(0)
                : StratumBound.upperBound(draw.sampleSize(), 0, draw.looks(), h, StratumBound.ALPHA);
        strata.add(new Stratum(StratumStore.COVERED, draw.items(), draw.sampleSize(), draw.looks(),
                draw.failures() == null ? 0 : draw.failures(), draw.reopened(), draw.reopenedRound(), coveredBound,
                coveredInFull && !draw.reopened(), "items carried over as covered (unchanged since an earlier run shipped"
                        + " them under a clean sample, never reviewed one by one), as they are at export: not reviewed,"
                        + " not rewritten by a round of this run (those are the changed stratum's)",
                new StratumStore(loop.jdbc()).countMembers(runPk)));
        String previous = draw.lastLookRun() == null ? null
                : store.findRun(draw.lastLookRun()).map(Store.RunRow::runId).orElse("(run " + draw.lastLookRun() + ")");
        return new StrataReport(draw, strata, previous, stated ? "" : "no clean sample: no bound can be stated");
    }

    /** The {@code strata} block: per stratum its sample and bound, and the catalog's bound over them. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Block(double confidence, int strataSampled, double targetBound, List<Row> perStratum,
            Catalog catalog, String method) {}

    /**
     * A stratum: {@code reopened_in_round} when a failure reopened it; the covered stratum's previous
     * look and the items that entered it since ({@code null} written as such) apart.
     */
    @JsonInclude(Include.NON_NULL)
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Row(String name, long items, int sampled, int looks, int failures, boolean reopened,
            @Nullable Integer reopenedInRound, @JsonInclude(Include.ALWAYS) @Nullable Double bound,
            boolean reviewedInFull, Covers covers, @Nullable JsonNode previousLook,
            @Nullable JsonNode enteredSincePreviousLook) {}

    public record Covers(long items, String rule) {}

    @JsonInclude(Include.NON_NULL)
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Catalog(boolean stated, @Nullable String why, @Nullable Long items, @Nullable Double defectRateBelow) {}

    Block block() {
        List<Row> per = new ArrayList<>();
        for (Stratum s : strata) {
            boolean covered = StratumStore.COVERED.equals(s.name());
            per.add(new Row(s.name(), s.items(), s.sampled(), s.looks(), s.failures(), s.reopened(), s.reopenedRound(),
                    s.bound(), s.reviewedInFull(), new Covers(s.covered(), s.covers()),
                    !covered ? null : previousLook == null ? NullNode.getInstance()
                            : JsonNodeFactory.instance.textNode(previousLook),
                    !covered ? null : draw.entered() == null ? NullNode.getInstance()
                            : JsonNodeFactory.instance.numberNode(draw.entered())));
        }
        return new Block(CleanSampleBound.CONFIDENCE, draw.strata(), draw.targetBound(), per, catalog == null
                ? new Catalog(false, why.isEmpty() ? "no stratum with items has a bound" : why, null, null)
                : new Catalog(true, null, catalogItems, catalog),
                "per stratum h, the p_h solving k_h (1 - p_h)^n_h = 0.05 / H (with accepted failures, the"
                + " Clopper-Pearson limit at 0.05 / (H k_h)); k_h: the rounds looked at (changed), the looks at the"
                + " stratum since an item last entered it (covered); catalog: sum of N_h / N p_h over the strata with a"
                + " bound. The covered stratum is sampled once, with the n for which a clean sample bounds it below"
                + " target_bound, not 10-15 % of it; any failure in it reopens it");
    }

    /** {@code run.bound} for a clean run: the catalog's bound over the strata; {@code null}: not stated. */
    Report.@Nullable Bound bound() {
        if (catalog == null) {
            return null;
        }
        List<String> parts = new ArrayList<>();
        for (Stratum s : strata) {
            if (s.bound() != null && s.covered() > 0) {
                parts.add(s.name() + ": " + s.covered() + " items, " + (s.reviewedInFull() ? "reviewed in full"
                        : "below " + Percent.format(s.bound()) + " (clean sample of " + s.sampled() + " with "
                                + s.failures() + (s.failures() == 1 ? " failure, " : " failures, ")
                                + (CHANGED.equals(s.name()) ? s.looks() + (s.looks() == 1 ? " round" : " rounds")
                                        + " looked at" : "look " + s.looks() + " at the stratum") + ")"));
            }
        }
        String sentence = "Among the " + catalogItems + " items the strata's samples cover, for defects these reviewers"
                        + " can detect, the defect rate is below " + Percent.format(catalog) + " with 95 % confidence ("
                        + String.join("; ", parts) + (draw.strata() == 1 ? "" : "; the " + draw.strata()
                        + " strata's bounds hold together at 95 %, weighted by their items") + "; report.json strata).";
        String warning = catalog <= CleanSampleBound.WEAK_ABOVE ? null : "Weak bound: the strata's samples show only"
                + " that the defect rate is below " + Percent.format(catalog) + "; they do not show that the catalog is clean.";
        return new Report.Bound(true, null, draw.strata(), null, catalogItems, null, null, null, CleanSampleBound.CONFIDENCE,
                catalog, sentence, warning, null, null, null, null, null, null, null, null);
    }

    /** The summary's line for the block; empty without one. */
    static List<String> summary(@Nullable Block block) {
        if (block == null) {
            return List.of();
        }
        List<String> parts = new ArrayList<>();
        for (Row s : block.perStratum()) {
            String part = s.name() + " " + s.items() + " items, " + s.sampled() + " sampled";
            if (StratumStore.COVERED.equals(s.name())) {
                part += " (look " + s.looks() + ")";
            }
            if (s.reopened()) {
                part += ", " + s.failures() + " failed: reopened in round " + s.reopenedInRound();
            } else if (s.bound() != null) {
                part += s.reviewedInFull() ? ", reviewed in full" : ", bound " + Percent.format(s.bound());
            }
            parts.add(part);
        }
        Double b = block.catalog().defectRateBelow();
        return List.of("strata:   " + String.join("; ", parts) + (b != null
                ? "; catalog bound " + Percent.format(b) + " (95 %)" : "; no catalog bound"));
    }
}
