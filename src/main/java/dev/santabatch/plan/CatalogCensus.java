package dev.santabatch.plan;

import dev.santabatch.persistence.ItemState;
import dev.santabatch.carry.Carried;
import dev.santabatch.carry.CarryKind;
import dev.santabatch.carry.CarryOver;
import dev.santabatch.carry.CarryStore;
import dev.santabatch.ingest.CatalogException;
import dev.santabatch.ingest.CatalogReader;
import dev.santabatch.ingest.CatalogRecord;
import dev.santabatch.execution.Fingerprints;
import dev.santabatch.config.JobDefinition;
import dev.santabatch.review.llm.PromptTemplates;
import dev.santabatch.sampling.StratumStore;
import dev.santabatch.prepass.PrePass;
import dev.santabatch.config.SourceFields;
import dev.santabatch.persistence.FieldsCodec;
import dev.santabatch.persistence.Store;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * The {@link Census} of a run of the job started now on a catalog, without writing anything: the
 * catalog read by the run's own reader (a row the reader rejects, or a later row with an id seen
 * before, is a reject, as the ingest counts them), each item matched against the job's earlier runs
 * by the run's carry-over code ({@link CarryOver#preview}, reading the store), then checked by the
 * pre-pass's own processing ({@link PrePass#process}: the rules on a carried item's text, and on the
 * input of any other). Memory: the ids read (to find duplicates) and one page of items.
 */
public final class CatalogCensus {

    private CatalogCensus() {}

    /**
     * @param env the environment the models would see (the verification fingerprint resolves their endpoints in it)
     * @throws CatalogException the catalog cannot be read (its header)
     */
    public static Census count(JobDefinition job, Path input, Store store, Function<String, @Nullable String> env)
            throws IOException, CatalogException {
        CarryOver carry = CarryOver.preview(store.jdbc(), job.name(), Fingerprints.verification(job, env),
                PromptTemplates.digest(), job.carryOver());
        StratumStore strata = new StratumStore(store.jdbc());
        Optional<StratumStore.Draw> lastLook = strata.lastLook(job.name(), Long.MAX_VALUE);
        Tally tally = new Tally(strata, lastLook.map(StratumStore.Draw::runPk).orElse(null));
        try (CatalogReader reader = CatalogReader.open(input, job.input(), null)) {
            List<String> header = reader.header();
            SourceFields source = new SourceFields(job, header);
            String categoryColumn = job.input().categoryColumn();
            int category = categoryColumn == null ? -1 : header.indexOf(categoryColumn);
            PrePass prePass = new PrePass(job, header, store, -1, carry);
            Set<String> ids = new HashSet<>();
            List<CatalogRecord.CatalogRow> page = new ArrayList<>();
            int pageSize = job.run().chunkSize();
            for (CatalogRecord r = reader.next(); r != null; r = reader.next()) {
                if (r instanceof CatalogRecord.CatalogRow row && ids.add(row.id())) {
                    page.add(row);
                    if (page.size() == pageSize) {
                        tally.page(page, source, category, carry, prePass);
                        page.clear();
                    }
                } else {
                    tally.rejects++;
                }
            }
            tally.page(page, source, category, carry, prePass);
        }
        return new Census(tally.items, tally.rejects,
                carry == null ? List.of() : carry.lookedAt().stream().map(CarryStore.SourceRun::runId).toList(),
                tally.carried, tally.afresh, tally.rulesFixed, tally.rulesHeld, tally.eligible, tally.covered,
                lastLook.flatMap(l -> store.findRun(l.runPk())).map(Store.RunRow::runId).orElse(null),
                StratumStore.looks(lastLook, lastLook.isPresent() ? tally.entered : null), tally.prompts.items());
    }

    private static final class Tally {
        private final StratumStore strata;
        private final @Nullable Long lastLookRun;
        long entered;
        long items;
        long rejects;
        long rulesFixed;
        long rulesHeld;
        final Map<String, Long> carried = new LinkedHashMap<>();
        final Map<String, Long> afresh = new LinkedHashMap<>();
        final Map<String, Long> eligible = new HashMap<>();
        final Map<String, Long> covered = new HashMap<>();
        final Census.PromptDraw prompts = new Census.PromptDraw();

        /** @param lastLookRun the run of the last look at the covered stratum; {@code null}: none */
        Tally(StratumStore strata, @Nullable Long lastLookRun) {
            this.strata = strata;
            this.lastLookRun = lastLookRun;
        }

        void page(List<CatalogRecord.CatalogRow> rows, SourceFields source, int category, @Nullable CarryOver carry,
                PrePass prePass) {
            if (rows.isEmpty()) {
                return;
            }
            Map<String, CarryOver.Candidate> found = Map.of();
            Map<String, String> digests = new HashMap<>();
            if (carry != null) {
                rows.forEach(r -> digests.put(r.id(), Fingerprints.input(source.content(r.values()), source.of(r.values()))));
                found = carry.lookup(rows.stream().map(CatalogRecord.CatalogRow::id).toList(), digests);
            }
            // the covered stratum's members of the page, as its draw compares them with the last look's
            Map<String, List<String>> members = new HashMap<>();
            for (CatalogRecord.CatalogRow row : rows) {
                items++;
                Store.StoredItem item = new Store.StoredItem(row.id(), row.recordIndex(), row.line(),
                        FieldsCodec.encode(row.values()), ItemState.ACTIVE, 0, null);
                PrePass.Checked c = prePass.process(new PrePass.Input(item,
                        found.getOrDefault(row.id(), CarryOver.Candidate.NEW)));
                if (c == null) {
                    continue;
                }
                if (c.miss() != null) {
                    afresh.merge(c.miss().key(), 1L, Long::sum);
                }
                Carried kept = c.carried();
                String cat = category < 0 ? "" : row.values().get(category);
                if (kept != null) {
                    carried.merge(kept.kind().key(), 1L, Long::sum);
                    if (kept.kind() != CarryKind.COVERED) {
                        continue;
                    }
                    covered.merge(cat, 1L, Long::sum);
                    members.put(row.id(), List.of(digests.get(row.id()), CarryStore.textDigest(c.outcome().original())));
                } else if (c.outcome().mustEscalate()) {
                    rulesHeld++;
                    continue;
                } else if (c.outcome().changed()) {
                    rulesFixed++;
                }
                eligible.merge(cat, 1L, Long::sum);
                prompts.offer(row.id(), c.outcome().text(), source.of(row.values()));
            }
            if (lastLookRun != null) {
                entered += strata.entered(lastLookRun, members);
            }
        }
    }
}
