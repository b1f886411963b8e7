package dev.santabatch.sampling;

import dev.santabatch.config.SamplingSettings;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.santabatch.sampling.StratifiedSampler.Allocation;
import dev.santabatch.sampling.StratifiedSampler.Eligible;
import dev.santabatch.sampling.StratifiedSampler.Picker;
import dev.santabatch.sampling.StratifiedSampler.Sample;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class StratifiedSamplerTests {

    static final StratumKey A = new StratumKey("a", false);
    static final StratumKey B = new StratumKey("b", false);
    static final StratumKey C = new StratumKey("c", false);

    static Map<StratumKey, Integer> counts(Object... keyThenCount) {
        Map<StratumKey, Integer> m = new LinkedHashMap<>();
        for (int i = 0; i < keyThenCount.length; i += 2) {
            m.put((StratumKey) keyThenCount[i], (Integer) keyThenCount[i + 1]);
        }
        return m;
    }

    static List<Eligible> items(Map<StratumKey, Integer> counts) {
        // interleaved, in a stable order: item ids are "<category>-<changed>-<i>"
        List<Eligible> out = new ArrayList<>();
        int max = counts.values().stream().mapToInt(Integer::intValue).max().orElse(0);
        for (int i = 0; i < max; i++) {
            for (Map.Entry<StratumKey, Integer> e : new TreeMap<>(counts).entrySet()) {
                if (i < e.getValue()) {
                    StratumKey k = e.getKey();
                    out.add(new Eligible(k.category() + "-" + k.changed() + "-" + i, k));
                }
            }
        }
        return out;
    }

    @Test
    void sampleSizeIsTheRoundedRateWithMinimumAndCap() {
        SamplingSettings d = SamplingSettings.defaults();
        assertThat(StratifiedSampler.sampleSize(1000, d)).isEqualTo(120);
        assertThat(StratifiedSampler.sampleSize(100, d)).isEqualTo(12);
        assertThat(StratifiedSampler.sampleSize(104, d)).isEqualTo(12); // 12.48 -> 12
        assertThat(StratifiedSampler.sampleSize(105, d)).isEqualTo(13); // 12.6 -> 13
        // 0.15 * 110 = 16.5 exactly in decimal: half-up gives 17 (a double product would be 16.499999...)
        assertThat(StratifiedSampler.sampleSize(110, SamplingSettings.withRate(0.15))).isEqualTo(17);
        assertThat(StratifiedSampler.sampleSize(3_000_000, d)).isEqualTo(360_000);
    }

    @Test
    void minimumSizeApplies() {
        SamplingSettings tiny = new SamplingSettings(0.01, true, 5, 100);
        assertThat(StratifiedSampler.sampleSize(200, tiny)).isEqualTo(5); // round(2) = 2 < 5
        assertThat(StratifiedSampler.sampleSize(1000, tiny)).isEqualTo(10);
        // the minimum is capped at N (only reachable when the full-review threshold is lowered)
        SamplingSettings noFull = new SamplingSettings(0.12, false, 5, 0);
        assertThat(StratifiedSampler.sampleSize(3, noFull)).isEqualTo(3);
        Allocation a = StratifiedSampler.allocate(counts(A, 150, B, 50), tiny);
        assertThat(a.sampleSize()).isEqualTo(5);
        assertThat(a.quotas()).containsExactly(Map.entry(A, 4), Map.entry(B, 1)); // 3.75 / 1.25
    }

    @Test
    void rateOutsideTheSeedsRangeNeedsTheOverride() {
        assertThatThrownBy(() -> new SamplingSettings(0.2, false, 5, 100))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("override");
        assertThatThrownBy(() -> new SamplingSettings(0.09, false, 5, 100))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(new SamplingSettings(0.2, true, 5, 100).rate()).isEqualTo(0.2);
        assertThatThrownBy(() -> new SamplingSettings(0, true, 5, 100)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new SamplingSettings(1.5, true, 5, 100)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void proportionalAllocationMatchesHandComputation() {
        // N = 1000, n = 0.12 * 1000 = 120: 500/300/200 -> 60/36/24 exactly
        Allocation a = StratifiedSampler.allocate(counts(C, 200, A, 500, B, 300), SamplingSettings.defaults());
        assertThat(a.eligible()).isEqualTo(1000);
        assertThat(a.sampleSize()).isEqualTo(120);
        assertThat(a.fullReview()).isFalse();
        assertThat(a.quotas()).containsExactly(Map.entry(A, 60), Map.entry(B, 36), Map.entry(C, 24));
    }

    @Test
    void largestRemainderGetsTheLeftoverPlaces() {
        // n = 120; 333 -> 39.96, 333 -> 39.96, 334 -> 40.08: floors 39+39+40 = 118, the two .96 get one each
        Allocation a = StratifiedSampler.allocate(counts(A, 333, B, 333, C, 334), SamplingSettings.defaults());
        assertThat(a.quotas()).containsExactly(Map.entry(A, 40), Map.entry(B, 40), Map.entry(C, 40));

        // n = 0.12 * 1000 = 120; 105 -> 12.6, 446 -> 53.52, 449 -> 53.88: floors 12+53+53 = 118,
        // remainders .6, .52, .88: C and A get one -> 13/53/54
        Allocation b = StratifiedSampler.allocate(counts(A, 105, B, 446, C, 449), SamplingSettings.defaults());
        assertThat(b.quotas()).containsExactly(Map.entry(A, 13), Map.entry(B, 53), Map.entry(C, 54));
        assertThat(b.sampleSize()).isEqualTo(120);
    }

    @Test
    void remainderTiesAreBrokenByStratumSizeThenKey() {
        // N = 200, n = 24: 30 -> 3.6, 55 -> 6.6, 115 -> 13.8: floors 22, two left:
        // C (.8) first; A and B tie at .6 -> the larger stratum B
        Allocation a = StratifiedSampler.allocate(counts(A, 30, B, 55, C, 115), SamplingSettings.defaults());
        assertThat(a.quotas()).containsExactly(Map.entry(A, 3), Map.entry(B, 7), Map.entry(C, 14));
        // N = 100, n = 12: 10 -> 1.2, 45 -> 5.4, 45 -> 5.4: one left, B and C tie on remainder and size -> key B
        Allocation b = StratifiedSampler.allocate(counts(C, 45, B, 45, A, 10), SamplingSettings.defaults());
        assertThat(b.quotas()).containsExactly(Map.entry(A, 1), Map.entry(B, 6), Map.entry(C, 5));
        // the same whatever the map's iteration order
        Map<StratumKey, Integer> hash = new HashMap<>(counts(A, 10, B, 45, C, 45));
        assertThat(StratifiedSampler.allocate(hash, SamplingSettings.defaults())).isEqualTo(b);
    }

    @Test
    void fewerThanOneHundredEligibleAreAllReviewed() {
        Map<StratumKey, Integer> c = counts(A, 60, B, 39);
        Sample s = StratifiedSampler.select(items(c), SamplingSettings.defaults(), 42, 1);
        assertThat(s.allocation().fullReview()).isTrue();
        assertThat(s.allocation().sampleSize()).isEqualTo(99);
        assertThat(s.allocation().quotas()).containsExactly(Map.entry(A, 60), Map.entry(B, 39));
        assertThat(s.ids()).hasSize(99).doesNotHaveDuplicates();
        Allocation hundred = StratifiedSampler.allocate(counts(A, 61, B, 39), SamplingSettings.defaults());
        assertThat(hundred.fullReview()).isFalse();
        assertThat(hundred.sampleSize()).isEqualTo(12);
        Allocation empty = StratifiedSampler.allocate(Map.of(), SamplingSettings.defaults());
        assertThat(empty.sampleSize()).isZero();
        assertThat(empty.strata()).isEmpty();
    }

    @Test
    void theSameSeedReproducesTheDrawAndAnotherSeedOrRoundChangesIt() {
        List<Eligible> list = items(counts(A, 500, B, 300, C, 200));
        Sample s1 = StratifiedSampler.select(list, SamplingSettings.defaults(), 20251224L, 1);
        Sample s2 = StratifiedSampler.select(list, SamplingSettings.defaults(), 20251224L, 1);
        Sample other = StratifiedSampler.select(list, SamplingSettings.defaults(), 7L, 1);
        Sample nextRound = StratifiedSampler.select(list, SamplingSettings.defaults(), 20251224L, 2);
        assertThat(s1.ids()).hasSize(120).doesNotHaveDuplicates().isEqualTo(s2.ids());
        assertThat(other.ids()).hasSize(120).isNotEqualTo(s1.ids());
        assertThat(nextRound.ids()).hasSize(120).isNotEqualTo(s1.ids());
        for (Sample s : List.of(s1, other, nextRound)) {
            assertThat(s.ids().stream().filter(id -> id.startsWith("a-")).count()).isEqualTo(60);
            assertThat(s.ids().stream().filter(id -> id.startsWith("b-")).count()).isEqualTo(36);
            assertThat(s.ids().stream().filter(id -> id.startsWith("c-")).count()).isEqualTo(24);
        }
        // ids come back in the input order
        List<String> inOrder = list.stream().map(Eligible::id).filter(new HashSet<>(s1.ids())::contains).toList();
        assertThat(s1.ids()).isEqualTo(inOrder);
    }

    @Test
    void theDrawIsPinnedForAGivenSeed() {
        // guards the reproducibility of stored samples across versions: change only on purpose
        assertThat(StratifiedSampler.positions(42L, 1, A, 100, 5)).containsExactly(PINNED);
    }

    static final int[] PINNED = {16, 20, 28, 44, 95};

    @Test
    void aStratumHeldApartIsDrawnFromItsOwnReproducibleStream() {
        int[] covered = StratifiedSampler.positions(42L, 1, "covered", 800, 59);
        assertThat(covered).hasSize(59).doesNotHaveDuplicates().isSorted();
        assertThat(covered[0]).isNotNegative();
        assertThat(covered[58]).isLessThan(800);
        assertThat(StratifiedSampler.positions(42L, 1, "covered", 800, 59)).isEqualTo(covered);
        assertThat(StratifiedSampler.positions(7L, 1, "covered", 800, 59)).isNotEqualTo(covered);
        assertThat(StratifiedSampler.positions(42L, 2, "covered", 800, 59)).isNotEqualTo(covered);
        // not the stream of a category of the same name
        assertThat(StratifiedSampler.positions(42L, 1, new StratumKey("covered", false), 800, 59)).isNotEqualTo(covered);
        assertThat(StratifiedSampler.positions(42L, 1, "covered", 59, 59)).hasSize(59).startsWith(0).endsWith(58);
    }

    @Test
    void changedItemsAreRepresentedInProportion() {
        StratumKey aChanged = new StratumKey("a", true);
        StratumKey bChanged = new StratumKey("b", true);
        Map<StratumKey, Integer> c = counts(A, 500, aChanged, 200, B, 250, bChanged, 50);
        Sample s = StratifiedSampler.select(items(c), SamplingSettings.defaults(), 99L, 3);
        // n = 120: 60 / 24 / 30 / 6 exactly proportional
        assertThat(s.allocation().quotas())
                .containsExactly(Map.entry(A, 60), Map.entry(aChanged, 24), Map.entry(B, 30), Map.entry(bChanged, 6));
        long changed = s.ids().stream().filter(id -> id.contains("-true-")).count();
        assertThat(changed).isEqualTo(30); // 250 of 1000 changed -> 25 % of 120
    }

    @Test
    void streamingPickerMatchesSelectAndChecksTheSecondPass() {
        Map<StratumKey, Integer> c = counts(A, 500, B, 300, C, 200);
        List<Eligible> list = items(c);
        Sample s = StratifiedSampler.select(list, SamplingSettings.defaults(), 5L, 1);
        Picker p = StratifiedSampler.picker(StratifiedSampler.allocate(c, SamplingSettings.defaults()), 5L, 1);
        List<String> picked = new ArrayList<>();
        for (Eligible e : list) {
            if (p.accept(e.stratum())) {
                picked.add(e.id());
            }
        }
        p.finish();
        assertThat(picked).isEqualTo(s.ids());

        Picker short1 = StratifiedSampler.picker(StratifiedSampler.allocate(c, SamplingSettings.defaults()), 5L, 1);
        short1.accept(A);
        assertThatThrownBy(short1::finish).isInstanceOf(IllegalStateException.class).hasMessageContaining("offered 1");
        Picker unknown = StratifiedSampler.picker(StratifiedSampler.allocate(c, SamplingSettings.defaults()), 5L, 1);
        assertThatThrownBy(() -> unknown.accept(new StratumKey("z", false)))
                .isInstanceOf(IllegalStateException.class);
    }

    @Test
    void positionsAreDistinctSortedAndRoughlyUniform() {
        int[] hits = new int[10];
        for (long seed = 0; seed < 10_000; seed++) {
            int[] p = StratifiedSampler.positions(seed, 1, A, 10, 3);
            assertThat(p).hasSize(3).isSorted().doesNotHaveDuplicates();
            for (int i : p) {
                hits[i]++;
            }
        }
        // each position is expected 3,000 times (sd about 46)
        for (int h : hits) {
            assertThat(h).isBetween(2800, 3200);
        }
        assertThat(StratifiedSampler.positions(1, 1, A, 4, 4)).containsExactly(0, 1, 2, 3);
        assertThat(StratifiedSampler.positions(1, 1, A, 4, 0)).isEmpty();
    }

    @Test
    void aMillionItemsInOneStratumDrawQuickly() {
        Set<Integer> seen = new HashSet<>();
        for (int i : StratifiedSampler.positions(3L, 1, A, 3_000_000, 360_000)) {
            seen.add(i);
        }
        assertThat(seen).hasSize(360_000);
    }
}
