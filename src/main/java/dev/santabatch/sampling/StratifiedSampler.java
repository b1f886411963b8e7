package dev.santabatch.sampling;

import dev.santabatch.config.SamplingSettings;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.TreeMap;

/**
 * Pattern C's stratified random sample of the eligible items, reproducible from a seed.
 *
 * <h2>Sample size</h2>
 *
 * <p>With N eligible items: if {@code N < fullReviewBelow} (default 100, the seed's threshold for
 * Pattern C) every item is taken (a full review, no sampling bound); otherwise
 * <pre>n = min(N, max(minSize, round(rate · N)))</pre>
 * where {@code round} is half-up on the decimal value of the rate ({@code BigDecimal.valueOf(rate)},
 * so 0.15 · 10 is exactly 1.5 and rounds to 2, free of binary floating-point error).
 *
 * <h2>Allocation (proportional, largest remainder)</h2>
 *
 * <p>Stratum h with N_h items gets {@code q_h = floor(n · N_h / N)} (exact integer arithmetic); the
 * {@code n − Σ q_h} remaining places go one each to the strata with the largest remainders {@code
 * (n · N_h) mod N}; equal remainders are broken by the larger stratum first, then by {@link
 * StratumKey} order (category, then unchanged before changed). Never by hash order.
 *
 * <h2>Draw</h2>
 *
 * <p>Within each stratum, {@code q_h} distinct positions out of {@code 0 .. N_h−1} are chosen with
 * Floyd's algorithm (every q_h-subset equally likely) driven by a {@link java.util.Random} (whose
 * algorithm the Java specification fixes, so the draw is the same on every JVM) seeded with a
 * SplitMix64 mix of (seed, round, {@link StratumKey} stable hash). The same seed, round and counts
 * give the same positions; another seed or round gives another draw. Position {@code i} of stratum
 * h is the i-th item of that stratum in the caller's stable order (e.g. ascending item id).
 *
 * <h2>Streaming, for millions of items in a small heap</h2>
 *
 * <ol>
 *   <li>Stream the eligible items once and count them per stratum ({@code Map<StratumKey,
 *       Integer>}: one entry per (category, changed) pair, not per item).
 *   <li>{@link #allocate} the sample; {@link #picker} draws the positions. Memory: a {@code BitSet}
 *       of N_h bits per stratum while drawing, then {@code int[q_h]} positions, i.e. O(n) ints
 *       kept (360,000 ints, about 1.4 MB, for 3 million items at 12 %).
 *   <li>Stream the eligible items again in the <em>same</em> stable order and call {@link
 *       Picker#accept(StratumKey)} for each; it says whether the item is in the sample. {@link
 *       Picker#finish()} checks that the second pass saw the counts of the first.
 * </ol>
 *
 * <p>No item ids are held by the sampler. {@link #select} does the two passes over an in-memory
 * list, for small catalogs and tests. Pure Java, stateless, thread-safe.
 */
public final class StratifiedSampler {

    /**
     * One stratum's share of the sample.
     *
     * @param key the stratum
     * @param size its eligible items N_h
     * @param quota its sample size q_h
     */
    public record StratumAllocation(StratumKey key, int size, int quota) {}

    /**
     * The sample's size and its allocation to strata.
     *
     * @param eligible N, all eligible items
     * @param sampleSize n = Σ q_h
     * @param fullReview N was below the full-review threshold: every item is taken and there is no
     *     sampling bound to state
     * @param strata per stratum, in {@link StratumKey} order
     */
    public record Allocation(int eligible, int sampleSize, boolean fullReview, List<StratumAllocation> strata) {
        public Allocation {
            strata = List.copyOf(strata);
        }

        /** Per-stratum sample sizes, in {@link StratumKey} order. */
        public Map<StratumKey, Integer> quotas() {
            Map<StratumKey, Integer> m = new LinkedHashMap<>();
            strata.forEach(s -> m.put(s.key(), s.quota()));
            return m;
        }
    }

    /**
     * An item offered to the in-memory {@link #select}.
     *
     * @param id the item id
     * @param stratum its stratum
     */
    public record Eligible(String id, StratumKey stratum) {
        public Eligible {
            Objects.requireNonNull(id, "id");
            Objects.requireNonNull(stratum, "stratum");
        }
    }

    /**
     * A drawn sample.
     *
     * @param allocation sizes per stratum
     * @param ids the chosen item ids, in the input order
     */
    public record Sample(Allocation allocation, List<String> ids) {
        public Sample {
            ids = List.copyOf(ids);
        }
    }

    private StratifiedSampler() {}

    /** {@code min(N, max(minSize, round(rate · N)))}, or N when N is below the full-review threshold. */
    public static int sampleSize(int eligible, SamplingSettings settings) {
        if (eligible < 0) {
            throw new IllegalArgumentException("eligible must be >= 0, was " + eligible);
        }
        if (eligible < settings.fullReviewBelow()) {
            return eligible;
        }
        long byRate = BigDecimal.valueOf(settings.rate())
                .multiply(BigDecimal.valueOf(eligible))
                .setScale(0, RoundingMode.HALF_UP)
                .longValueExact();
        return (int) Math.min(eligible, Math.max(settings.minSize(), byRate));
    }

    /** Allocates the sample to strata (see the class comment); strata with 0 items are dropped. */
    public static Allocation allocate(Map<StratumKey, Integer> counts, SamplingSettings settings) {
        TreeMap<StratumKey, Integer> sorted = new TreeMap<>();
        long total = 0;
        for (Map.Entry<StratumKey, Integer> e : counts.entrySet()) {
            int size = e.getValue();
            if (size < 0) {
                throw new IllegalArgumentException("negative count for stratum " + e.getKey());
            }
            if (size > 0) {
                sorted.put(e.getKey(), size);
                total += size;
            }
        }
        if (total > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("too many eligible items: " + total);
        }
        int eligible = (int) total;
        boolean full = eligible < settings.fullReviewBelow();
        int n = sampleSize(eligible, settings);
        List<StratumKey> keys = new ArrayList<>(sorted.keySet());
        int[] quota = new int[keys.size()];
        long[] remainder = new long[keys.size()];
        int given = 0;
        for (int i = 0; i < keys.size(); i++) {
            long scaled = (long) n * sorted.get(keys.get(i));
            quota[i] = (int) (scaled / eligible);
            remainder[i] = scaled % eligible;
            given += quota[i];
        }
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < keys.size(); i++) {
            order.add(i);
        }
        order.sort(Comparator.<Integer>comparingLong(i -> -remainder[i])
                .thenComparing(i -> -sorted.get(keys.get(i)))
                .thenComparing(keys::get));
        for (int r = 0; r < n - given; r++) {
            quota[order.get(r)]++;
        }
        List<StratumAllocation> strata = new ArrayList<>();
        for (int i = 0; i < keys.size(); i++) {
            strata.add(new StratumAllocation(keys.get(i), sorted.get(keys.get(i)), quota[i]));
        }
        return new Allocation(eligible, n, full, strata);
    }

    /**
     * The {@code quota} positions (ascending, distinct, in {@code 0 .. size−1}) drawn in one stratum
     * for this seed and round.
     */
    public static int[] positions(long seed, int round, StratumKey key, int size, int quota) {
        return draw(streamSeed(seed, round, key.stableHash()), size, quota);
    }

    /**
     * The {@code quota} positions drawn in a stratum held apart from the allocation (a simple random
     * sample of a fixed size, such as the covered stratum's), named {@code stratum}: as {@link
     * #positions(long, int, StratumKey, int, int)}, from a random stream of its own.
     */
    public static int[] positions(long seed, int round, String stratum, int size, int quota) {
        // a terminator no StratumKey ends with (those end with the changed flag, 0x100 or 0x1ff)
        return draw(streamSeed(seed, round, StratumKey.stableHash(stratum, 0x2aa)), size, quota);
    }

    private static int[] draw(long streamSeed, int size, int quota) {
        if (quota < 0 || quota > size) {
            throw new IllegalArgumentException("quota " + quota + " is not within 0.." + size);
        }
        if (quota == size) {
            int[] all = new int[size];
            for (int i = 0; i < size; i++) {
                all[i] = i;
            }
            return all;
        }
        Random random = new Random(streamSeed);
        BitSet chosen = new BitSet(size);
        // Floyd's algorithm: each quota-subset of 0..size-1 is equally likely.
        for (int j = size - quota; j < size; j++) {
            int t = random.nextInt(j + 1);
            chosen.set(chosen.get(t) ? j : t);
        }
        int[] out = new int[quota];
        int k = 0;
        for (int i = chosen.nextSetBit(0); i >= 0; i = chosen.nextSetBit(i + 1)) {
            out[k++] = i;
        }
        return out;
    }

    /** Draws the positions of every stratum and returns a picker for the second pass. */
    public static Picker picker(Allocation allocation, long seed, int round) {
        return new Picker(allocation, seed, round);
    }

    /** Counts, allocates and picks over an in-memory list (the two passes of the class comment). */
    public static Sample select(List<Eligible> items, SamplingSettings settings, long seed, int round) {
        Map<StratumKey, Integer> counts = new HashMap<>();
        for (Eligible e : items) {
            counts.merge(e.stratum(), 1, Integer::sum);
        }
        Allocation allocation = allocate(counts, settings);
        Picker picker = picker(allocation, seed, round);
        List<String> ids = new ArrayList<>(allocation.sampleSize());
        for (Eligible e : items) {
            if (picker.accept(e.stratum())) {
                ids.add(e.id());
            }
        }
        picker.finish();
        return new Sample(allocation, ids);
    }

    private static long streamSeed(long seed, int round, long keyHash) {
        long h = mix(seed);
        h = mix(h ^ (round & 0xffffffffL));
        return mix(h ^ keyHash);
    }

    /** SplitMix64's finaliser. */
    private static long mix(long z) {
        z += 0x9e3779b97f4a7c15L;
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }

    /**
     * The second pass: offered the eligible items in the first pass's order, one stratum key at a
     * time, says which are in the sample. Not thread-safe.
     */
    public static final class Picker {

        private static final class State {
            final StratumAllocation allocation;
            final int[] positions;
            int seen;
            int cursor;

            State(StratumAllocation allocation, int[] positions) {
                this.allocation = allocation;
                this.positions = positions;
            }
        }

        private final Allocation allocation;
        private final Map<StratumKey, State> states = new HashMap<>();

        private Picker(Allocation allocation, long seed, int round) {
            this.allocation = allocation;
            for (StratumAllocation s : allocation.strata()) {
                states.put(s.key(), new State(s, positions(seed, round, s.key(), s.size(), s.quota())));
            }
        }

        public Allocation allocation() {
            return allocation;
        }

        /** Whether the next item of stratum {@code key} (in the stable order) is in the sample. */
        public boolean accept(StratumKey key) {
            State s = states.get(key);
            if (s == null) {
                throw new IllegalStateException("stratum " + key + " was not counted in the first pass");
            }
            int index = s.seen++;
            if (index >= s.allocation.size()) {
                throw new IllegalStateException("stratum " + key + " has more items than the "
                        + s.allocation.size() + " counted in the first pass");
            }
            if (s.cursor < s.positions.length && s.positions[s.cursor] == index) {
                s.cursor++;
                return true;
            }
            return false;
        }

        /** Checks that every stratum was offered exactly as many items as were counted. */
        public void finish() {
            for (StratumAllocation a : allocation.strata()) {
                State s = states.get(a.key());
                if (s.seen != s.allocation.size()) {
                    throw new IllegalStateException("stratum " + s.allocation.key() + " was offered " + s.seen
                            + " items, " + s.allocation.size() + " were counted in the first pass");
                }
            }
        }
    }
}
