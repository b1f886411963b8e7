package dev.santabatch.model;

import static org.assertj.core.api.Assertions.assertThat;

import dev.santabatch.model.CatalogModelServer.Call;
import dev.santabatch.model.CatalogModelServer.Fault;
import dev.santabatch.model.CatalogModelServer.Kind;
import dev.santabatch.export.RunReport;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.commons.csv.CSVRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shipping invariant in whole-job runs against the scripted model server: an item a reviewer
 * failed on its current revision is never shipped, whatever the other reviewer did; a run that did
 * not end clean writes no {@code catalog.csv}, only {@code verified.csv} (NICE on the current
 * revision) and {@code unverified.csv}; every accepted item is in exactly one output file.
 */
class ShippingInvariantFunctionalTests {

    @TempDir
    Path dir;

    LlmJobs.Catalog catalog;
    List<String> inputIds;

    CatalogModelServer server() throws Exception {
        catalog = LlmJobs.catalog(dir, 11, 150);
        inputIds = LlmJobs.ids(catalog.csv(), "id");
        return CatalogModelServer.start(CatalogModelServer.reviewerDefects(catalog.truth()));
    }

    Path job(CatalogModelServer server, String extra) throws Exception {
        return LlmJobs.faultJob(dir, "ship", catalog, server.baseUrl(), extra);
    }

    @Test
    void anItemOneReviewerFailedIsNeverShippedWhenTheOtherAnsweredInvalidly() throws Exception {
        try (CatalogModelServer server = server()) {
            // given reviewer B answers every review of one defective item with garbage (its retries too),
            // while reviewer C sees the item's defect and fails it; one round, no batch fix
            AtomicReference<Map<String, String>> victim = new AtomicReference<>();
            server.inject(c -> c.kind() == Kind.REVIEW && c.model().equals("model-b")
                    && (c.source().equals(victim.get())
                            || !server.defectsIn(c.content()).isEmpty() && victim.compareAndSet(null, c.source())),
                    Integer.MAX_VALUE, new Fault.MalformedJson());
            Path job = job(server, "santa:\n  max-rounds: 1\n  systematic-min-items: 1000\n");

            // when
            LlmJobs.Result r = LlmJobs.run(dir, job, "r1");

            // then C's FAIL of the victim's text was not outvoted by B's failure to review
            assertThat(victim.get()).as("a defective item was sampled").isNotNull();
            List<String> failedTexts = server.calls(Kind.REVIEW).stream()
                    .filter(c -> c.model().equals("model-c") && c.source().equals(victim.get())
                            && !server.defectsIn(c.content()).isEmpty())
                    .map(Call::content).toList();
            assertThat(failedTexts).as("C reviewed (and failed) the victim's defective text").isNotEmpty();
            // and C's FAIL made it NAUGHTY: the fixer was asked for C's issues, and the fixed text was
            // reviewed afresh (C reviewed a text of the victim other than the one it failed)
            assertThat(server.calls(Kind.FIX)).as("the fixer was called for the victim")
                    .anyMatch(c -> c.source().equals(victim.get()));
            assertThat(server.calls(Kind.REVIEW)).as("C reviewed the victim's fixed text")
                    .anyMatch(c -> c.model().equals("model-c") && c.source().equals(victim.get())
                            && !failedTexts.contains(c.content()));
            Path out = dir.resolve("out/ship/r1");
            Map<String, Object> report = RunReport.read(out.resolve("report.json"));
            assertThat(report.get("status")).as(r.all()).isEqualTo("not-clean");
            assertThat(out.resolve("catalog.csv")).as("a not-clean run writes no catalog.csv").doesNotExist();
            for (String file : List.of("verified.csv", "catalog.csv")) {
                if (Files.exists(out.resolve(file))) {
                    assertThat(LlmJobs.contents(out.resolve(file), "id", "description").values())
                            .as("no text a reviewer failed is in " + file).doesNotContainAnyElementsOf(failedTexts);
                }
            }
            // it is held for a person: the run ended before the FAIL was resolved
            List<CSVRecord> held = LlmJobs.records(out.resolve("escalations.csv"));
            String victimId = held.stream()
                    .filter(h -> "FAIL_UNRESOLVED".equals(h.get("reason")))
                    .map(h -> h.get("item_id")).findFirst().orElseThrow(() -> new AssertionError(
                            "no FAIL_UNRESOLVED escalation in " + held));
            assertThat(held.stream().filter(h -> h.get("item_id").equals(victimId)).findFirst().orElseThrow()
                    .get("open_issues")).startsWith("C: ");
            assertEveryItemOnce(out);
            assertThat(LlmJobFunctionalTests.map(report.get("outputs")).get("fail_unresolved")).isEqualTo(1);
        }
    }

    @Test
    void anItemLeftUnreviewedInAnEarlierRoundOfACleanRunIsUnverifiedNotShipped() throws Exception {
        try (CatalogModelServer server = server()) {
            // given reviewer B answers every review of one item without a planted defect (so that C
            // passes it) with garbage, its retries too: that item is left unreviewed in the round that drew it
            java.util.Set<String> defective = new java.util.HashSet<>();
            server.defects().forEach(d -> defective.add(d.itemId()));
            java.util.Set<String> cleanNames = new java.util.HashSet<>();
            for (CSVRecord row : LlmJobs.records(catalog.csv())) {
                if (!defective.contains(row.get("id"))) {
                    cleanNames.add(row.get("name"));
                }
            }
            AtomicReference<Map<String, String>> victim = new AtomicReference<>();
            server.inject(c -> c.kind() == Kind.REVIEW && c.model().equals("model-b")
                    && (c.source().equals(victim.get())
                            || cleanNames.contains(c.source().get("name")) && victim.compareAndSet(null, c.source())),
                    Integer.MAX_VALUE, new Fault.MalformedJson());
            Path job = job(server, "");

            // when the run goes on until a clean sample
            LlmJobs.Result r = LlmJobs.run(dir, job, "r1");

            // then the run is clean and writes catalog.csv, but no sample covers the item it drew and
            // left unreviewed: it is in unverified.csv with why, not in catalog.csv
            Path out = dir.resolve("out/ship/r1");
            Map<String, Object> report = RunReport.read(out.resolve("report.json"));
            assertThat(report.get("status")).as(r.all()).isEqualTo("clean");
            assertThat(victim.get()).isNotNull();
            List<CSVRecord> unverifiedRows = LlmJobs.records(out.resolve("unverified.csv"));
            assertThat(unverifiedRows).as("one item unverified").hasSize(1);
            CSVRecord unverified = unverifiedRows.get(0);
            assertThat(unverified.get("name")).as("the item B never reviewed").isEqualTo(victim.get().get("name"));
            assertThat(unverified.get("unverified_reason")).startsWith("sampled in round 1 and not reviewed");
            assertThat(LlmJobs.ids(out.resolve("catalog.csv"), "id")).doesNotContain(unverified.get("id"));
            assertEveryItemOnce(out);
        }
    }

    @Test
    void aBudgetStoppedRunWritesVerifiedAndUnverifiedNotACatalogAndItsResumeReplacesThem() throws Exception {
        try (CatalogModelServer server = server()) {
            // given a budget far below what round 1 needs
            Path job = job(server, "budget:\n  max-calls: 30\n");

            // when
            LlmJobs.Result stopped = LlmJobs.run(dir, job, "r1");

            // then nothing looks shippable: no catalog.csv; verified.csv holds only NICE items
            assertThat(stopped.exit()).as(stopped.all()).isEqualTo(3);
            Path out = dir.resolve("out/ship/r1");
            assertThat(out.resolve("catalog.csv")).doesNotExist();
            List<String> verified = LlmJobs.ids(out.resolve("verified.csv"), "id");
            List<CSVRecord> unverified = LlmJobs.records(out.resolve("unverified.csv"));
            assertThat(unverified).isNotEmpty();
            assertThat(unverified).allSatisfy(u -> assertThat(u.get("unverified_reason")).isNotBlank());
            assertThat(verified.size()).isLessThan(inputIds.size() / 4);
            Set<String> nice = niceItems();
            assertThat(nice).containsAll(verified);
            assertEveryItemOnce(out);
            assertThat(stopped.out()).contains("verified.csv").doesNotContain(" catalog.csv,");

            // and the resumed run, clean, replaces them: catalog.csv, and no verified.csv left behind
            Files.writeString(job, Files.readString(job).replace("max-calls: 30", "max-calls: 100000"));
            LlmJobs.Result resumed = LlmJobs.run(dir, job, "r1");
            assertThat(resumed.exit()).as(resumed.all()).isZero();
            assertThat(out.resolve("catalog.csv")).exists();
            assertThat(out.resolve("verified.csv")).doesNotExist();
            assertThat(out.resolveSibling(".r1.partial")).doesNotExist();
            assertThat(out.resolveSibling(".r1.replaced")).doesNotExist();
            assertEveryItemOnce(out);
        }
    }

    /** Every input item in exactly one of catalog.csv (or verified.csv), unverified.csv and escalations.csv. */
    void assertEveryItemOnce(Path out) throws Exception {
        List<String> all = new ArrayList<>();
        for (String file : List.of("catalog.csv", "verified.csv", "unverified.csv")) {
            if (Files.exists(out.resolve(file))) {
                all.addAll(LlmJobs.ids(out.resolve(file), "id"));
            }
        }
        all.addAll(LlmJobs.ids(out.resolve("escalations.csv"), "item_id"));
        assertThat(all).containsExactlyInAnyOrderElementsOf(inputIds);
        assertThat(new HashSet<>(all)).hasSameSizeAs(all);
        assertThat(Files.exists(out.resolve("catalog.csv")) && Files.exists(out.resolve("verified.csv")))
                .as("catalog.csv and verified.csv never both").isFalse();
    }

    Set<String> niceItems() {
        var store = LlmJobs.store(dir);
        try {
            return new HashSet<>(store.queryForList("SELECT item_id FROM sb_item WHERE state = 'NICE'", String.class));
        } finally {
            LlmJobs.close(store);
        }
    }
}
