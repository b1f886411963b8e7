package dev.santabatch.carry;

import dev.santabatch.persistence.ItemState;
import dev.santabatch.config.CarryOverSpec;
import dev.santabatch.rounds.LoopStore;
import dev.santabatch.rounds.ShippingInvariant;
import dev.santabatch.persistence.Store;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Finds, for a page of a run's items, what the earlier runs of its job left of them
 * (docs/carry-over.md). The earlier runs are those chosen when the run started (its exported
 * predecessors, newest first, at most {@code carry-over.max-age - 1}); an item's source is the
 * newest of them that ingested its id. It is carried when its content and source facts equal
 * what that run ingested, that run was made under the same verification fingerprint and prompt
 * templates, that run verified it (NICE, held, or shipped under a clean sample) and, unless held,
 * it has been carried fewer than {@code max-age - 1} runs in a row. The caller re-checks a carried
 * item's text with the rules.
 */
public final class CarryOver {

    /**
     * The reason of a held item carried over from an earlier run whose escalation gave none (a store
     * written before every escalation had one): held there, still held.
     */
    public static final String HELD_EARLIER = "HELD_BY_EARLIER_RUN";

    /**
     * What is known of an item: carried, or judged afresh for a reason, or new (both null).
     *
     * @param overruled the kind the item would have been carried as had a person not decided otherwise
     *     ({@code sb_audit}): {@code nice} or {@code covered} for one judged afresh as {@link
     *     CarryMiss#AUDITED}, {@code held} for one carried NICE as a person approved it; {@code null}: no
     *     person's decision changed it
     */
    public record Candidate(@Nullable Carried carried, @Nullable CarryMiss miss, @Nullable CarryKind overruled) {
        /** A new item: no earlier run of the job judged it. */
        public static final Candidate NEW = new Candidate(null, null, null);

        Candidate(@Nullable Carried carried, @Nullable CarryMiss miss) {
            this(carried, miss, null);
        }
    }

    /**
     * An earlier run with what carrying from it needs: where its export placed each item, by the
     * same rule ({@code null} when it judged under another verification, so nothing is carried).
     */
    private record Source(CarryStore.SourceRun run, int position, @Nullable ShippingInvariant placed) {}

    /** An item the source run verified: the kind its placement there gives it. */
    private record Placed(CarryKind kind, CarryStore.SourceItem source, ShippingInvariant.Placement placement) {}

    /**
     * An item to carry: its kind and, for one held for an unresolved FAIL, that FAIL; {@code approved}:
     * held there, and released by a person's {@code ok}.
     */
    private record Pending(CarryKind kind, CarryStore.SourceItem source, int runs, LoopStore.@Nullable FailedReview fail,
            boolean approved) {}

    private final CarryStore carry;
    private final long runPk;
    private final int maxAge;
    private final List<Source> sources;

    private CarryOver(CarryStore carry, long runPk, int maxAge, List<Source> sources) {
        this.carry = carry;
        this.runPk = runPk;
        this.maxAge = maxAge;
        this.sources = sources;
    }

    /**
     * The carry-over of run {@code runPk}; {@code null} when it has nothing to carry from (off, no
     * earlier run, or a run started before carry-over).
     */
    public static @Nullable CarryOver of(Store store, long runPk, CarryOverSpec spec) {
        CarryStore.Start start = new CarryStore(store.jdbc()).start(runPk).orElse(null);
        return start == null ? null : of(store.jdbc(), runPk, start, spec);
    }

    /**
     * What a run of {@code jobName} started now would carry over, read from the store without
     * writing to it (for {@code santa-batch plan}): its earlier runs chosen as a run's start chooses
     * them, compared under the given fingerprint and prompt templates. Look items up with {@link
     * #lookup(List, Map)}, giving their digests. {@code null} when it would have nothing to carry from.
     *
     * @param verification the verification fingerprint a run started now would store
     * @param prompts the digest of the prompt templates a run started now would store
     */
    public static @Nullable CarryOver preview(JdbcTemplate jdbc, String jobName, String verification, String prompts,
            CarryOverSpec spec) {
        List<Long> sources = new CarryStore(jdbc).exportedRuns(jobName, Long.MAX_VALUE, spec.window());
        return of(jdbc, NO_RUN, new CarryStore.Start(verification, prompts, sources), spec);
    }

    /** The run key of a preview, which has no run (and so no digests stored). */
    private static final long NO_RUN = -1;

    private static @Nullable CarryOver of(JdbcTemplate jdbc, long runPk, CarryStore.Start start, CarryOverSpec spec) {
        if (!spec.enabled() || start.sources() == null || start.sources().isEmpty() || start.verification() == null) {
            return null;
        }
        CarryStore carry = new CarryStore(jdbc);
        LoopStore loop = new LoopStore(jdbc);
        List<Source> sources = new ArrayList<>();
        int position = 0;
        for (CarryStore.SourceRun r : carry.runs(start.sources())) {
            if (r.exportedStatus() == null) {
                // resumed since this run chose it (given more rounds, more budget), its export not finished
                // again: no source, as it would not be chosen now, until it exports again
                continue;
            }
            boolean same = start.verification().equals(r.verification()) && Objects.equals(start.prompts(), r.prompts());
            ShippingInvariant placed = same ? new ShippingInvariant(loop, r.runPk(), r.exportedStatus()) : null;
            sources.add(new Source(r, position++, placed));
        }
        return new CarryOver(carry, runPk, spec.maxAge(), sources);
    }

    /** The earlier runs it looks at, newest first. */
    public List<CarryStore.SourceRun> lookedAt() {
        return sources.stream().map(Source::run).toList();
    }

    /** What is known of each of the given items of the run, by id (every id has an answer). */
    public Map<String, Candidate> lookup(List<Store.StoredItem> items) {
        List<String> ids = items.stream().map(Store.StoredItem::id).toList();
        return lookup(ids, carry.digests(runPk, ids));
    }

    /**
     * What is known of each of the given items, by id (every id has an answer), their input digests
     * given (an item without one is judged afresh as changed). Reads the store only.
     */
    public Map<String, Candidate> lookup(List<String> ids, Map<String, String> digests) {
        Map<String, Candidate> out = new LinkedHashMap<>();
        Map<Long, Source> byRun = new HashMap<>();
        sources.forEach(s -> byRun.put(s.run().runPk(), s));
        // each item's newest source that ingested it
        Map<String, CarryStore.SourceItem> newest = new HashMap<>();
        for (CarryStore.SourceItem si : carry.sourceItems(new ArrayList<>(byRun.keySet()), ids)) {
            CarryStore.SourceItem seen = newest.get(si.itemId());
            if (seen == null || byRun.get(si.runPk()).position() < byRun.get(seen.runPk()).position()) {
                newest.put(si.itemId(), si);
            }
        }
        // per source run, the items carried from it: their texts and why the held ones are held
        Map<Long, Map<String, Integer>> revised = new HashMap<>();
        Map<Long, List<String>> held = new HashMap<>();
        Map<String, Pending> pending = new LinkedHashMap<>();
        Map<String, Placed> placed = new LinkedHashMap<>();
        for (String id : ids) {
            CarryStore.SourceItem si = newest.get(id);
            if (si == null) {
                out.put(id, Candidate.NEW);
                continue;
            }
            Source source = byRun.get(si.runPk());
            String digest = digests.get(id);
            if (source.placed() == null) {
                out.put(id, new Candidate(null, CarryMiss.VERIFICATION_CHANGED));
                continue;
            }
            if (digest == null || !digest.equals(si.inputSha256())) {
                out.put(id, new Candidate(null, CarryMiss.CHANGED));
                continue;
            }
            ShippingInvariant.Placement placement = source.placed().place(id, si.state());
            CarryKind kind = kind(placement, si.state());
            if (kind == null) {
                out.put(id, new Candidate(null, CarryMiss.NOT_VERIFIED));
                continue;
            }
            placed.put(id, new Placed(kind, si, placement));
        }
        // a person's decision on the item there: defective is never carried, ok releases a held item
        Map<String, String> verdicts = carry.verdicts(placed.entrySet().stream()
                .collect(java.util.stream.Collectors.toMap(Map.Entry::getKey, e -> e.getValue().source().runPk())));
        placed.forEach((id, p) -> {
            CarryStore.SourceItem si = p.source();
            CarryKind kind = p.kind();
            String verdict = verdicts.get(id);
            if (CarryStore.DEFECTIVE.equals(verdict) && kind != CarryKind.HELD) {
                out.put(id, new Candidate(null, CarryMiss.AUDITED, kind));
                return;
            }
            boolean approved = CarryStore.OK.equals(verdict) && kind == CarryKind.HELD;
            if (approved) {
                kind = CarryKind.NICE;
            }
            // still as carried there (not reviewed there since): one run more in a row; else reviewed there
            int runs = (kind.key().equals(si.carry()) && kind.state().equals(si.state()) ? si.carriedRuns() : 0) + 1;
            if (kind != CarryKind.HELD && runs >= maxAge) {
                out.put(id, new Candidate(null, CarryMiss.MAX_AGE));
                return;
            }
            if (si.currentRev() > 0) {
                revised.computeIfAbsent(si.runPk(), k -> new HashMap<>()).put(id, si.currentRev());
            }
            if (kind == CarryKind.HELD && ItemState.ESCALATED.equals(si.state())) {
                held.computeIfAbsent(si.runPk(), k -> new ArrayList<>()).add(id);
            }
            pending.put(id, new Pending(kind, si, runs, p.placement().failed(), approved));
        });
        Map<Long, Map<String, String>> texts = new HashMap<>();
        revised.forEach((run, revs) -> texts.put(run, carry.contents(run, revs)));
        Map<Long, Map<String, Carried.Held>> why = new HashMap<>();
        held.forEach((run, heldIds) -> why.put(run, carry.escalations(run, heldIds)));
        pending.forEach((id, p) -> {
            CarryKind kind = p.kind();
            CarryStore.SourceItem si = p.source();
            // null: unchanged there, so its content as ingested (equal to this run's: same digest)
            String text = si.currentRev() == 0 ? null : texts.getOrDefault(si.runPk(), Map.of()).get(id);
            if (si.currentRev() > 0 && text == null) {
                // its verified revision is not in the store: nothing to ship on that run's word
                out.put(id, new Candidate(null, CarryMiss.NOT_VERIFIED));
                return;
            }
            Carried.Held heldBecause = null;
            if (kind == CarryKind.HELD) {
                heldBecause = p.fail() != null
                        ? new Carried.Held(ShippingInvariant.FAIL_UNRESOLVED, null, null, p.fail().issues())
                        : why.getOrDefault(si.runPk(), Map.of()).getOrDefault(id, new Carried.Held(null, null, null, List.of()));
                if (heldBecause.reason() == null) {
                    // every escalation has a documented reason, also where the earlier run's gave none
                    heldBecause = new Carried.Held(HELD_EARLIER, heldBecause.pattern(), heldBecause.lastAttempt(), heldBecause.issues());
                }
            }
            out.put(id, new Candidate(new Carried(kind, si.runPk(), p.runs(), text, heldBecause), null,
                    p.approved() ? CarryKind.HELD : null));
        });
        return out;
    }

    /**
     * What the source run's export made of the item, from where its shipping invariant placed it:
     * shipped NICE, shipped covered by its clean sample, held; {@code null}: unverified there.
     */
    private static @Nullable CarryKind kind(ShippingInvariant.Placement placement, String state) {
        return switch (placement.place()) {
            case SHIPPED -> ItemState.NICE.equals(state) ? CarryKind.NICE : CarryKind.COVERED;
            case HELD -> CarryKind.HELD;
            case UNVERIFIED -> null;
        };
    }
}
