package dev.santabatch.carry;

import static org.assertj.core.api.Assertions.assertThat;

import dev.santabatch.execution.StopSignal;
import dev.santabatch.batch.Extensions;
import dev.santabatch.review.step.ReviewerType;
import dev.santabatch.review.step.ScriptedReviewer;
import dev.santabatch.export.RunReport;
import dev.santabatch.review.Check;
import dev.santabatch.review.CheckResult;
import dev.santabatch.review.FixOutcome;
import dev.santabatch.review.Review;
import dev.santabatch.review.ReviewOutcome;
import dev.santabatch.review.Reviewer;
import dev.santabatch.review.Verdict;
import dev.santabatch.run.Launcher;
import dev.santabatch.run.RunRequest;
import dev.santabatch.run.TestJobsAccess;
import dev.santabatch.persistence.Store;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVRecord;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/**
 * Carry-over across runs of one job, whole runs with scripted reviewers: a panel that fails every
 * item carrying a boilerplate marker and records every item it is asked to review, a fixer that
 * removes the marker (or has no fix for it). A second run on the same catalog reviews none of the
 * items the first verified NICE or held, and ships their texts; what the verdict depends on (a
 * source fact, a criterion, a model, the prompt templates) invalidates it; rules run on carried
 * items; {@code max-age} forces a fresh review.
 *
 * <p>The store is PostgreSQL when SANTA_TEST_PG_URL (and _USER, _PASSWORD) is set, else H2 in file
 * mode; each test's job has its own name, and the class its own schema in PostgreSQL, so tests sharing a store do not see each other's runs.
 */
class CarryOverFunctionalTests {

    static final String MARKER = " Shop now, limited stock!";
    static final int ITEMS = 200;

    @TempDir
    Path dir;

    private String job;

    @BeforeEach
    void reset() {
        StopSignal.reset();
        job = "carry-" + Long.toString(System.nanoTime(), 36);
    }

    // ---------------------------------------------------------------- tests

    @Test
    void anUnchangedNiceItemIsCarriedWithoutAReviewAndShipsItsFixedRevision() throws Exception {
        // given a first run: the marked items it sampled were fixed and passed, the rest shipped covered
        Path jobFile = writeJob(catalog(List.of()), "");
        Run first = run(jobFile, "r1", scripted());
        assertThat(first.exit()).as(first.out()).isZero();
        Map<String, String> states = states("r1");
        List<String> nice = ids(states, "NICE");
        List<String> fixedNice = santaFixed("r1").stream().filter(nice::contains).toList();
        assertThat(fixedNice).as("sampled marked items fixed and passed in r1").isNotEmpty();
        assertThat(first.report()).doesNotContainKey("carry_over");

        // when the job runs again on the same catalog
        Run second = run(jobFile, "r2", scripted());

        // then no item r1 verified NICE is reviewed, each ships with its text of r1 (fixes included)
        assertThat(second.exit()).as(second.out()).isZero();
        assertThat(second.reviewed()).doesNotContainAnyElementsOf(nice);
        Map<String, Object> carry = carryOver(second);
        assertThat(n(carry.get("nice"))).isEqualTo((long) nice.size());
        assertThat(n(carry.get("covered"))).isEqualTo((long) ITEMS - nice.size());
        assertThat(n(carry.get("held"))).isEqualTo(0L);
        assertThat(carry.get("looked_at")).isEqualTo(List.of("r1"));
        assertThat((List<?>) carry.get("from_runs")).singleElement()
                .satisfies(r -> assertThat(((Map<?, ?>) r).get("run_id")).isEqualTo("r1"));
        Map<String, String> shipped1 = contents(first.dir().resolve("catalog.csv"));
        Map<String, String> shipped2 = contents(second.dir().resolve("catalog.csv"));
        for (String id : fixedNice) {
            assertThat(shipped2.get(id)).isEqualTo(shipped1.get(id)).doesNotContain(MARKER.strip());
        }
        assertThat(records(second.dir().resolve("changes.csv")))
                .filteredOn(c -> c.get("cause").equals("carry-over") && fixedNice.contains(c.get("item_id")))
                .hasSize(fixedNice.size())
                .allSatisfy(c -> assertThat(c.get("before")).contains(MARKER.strip()));
        assertThat(states("r2")).containsAllEntriesOf(filter(states, "NICE"));
        assertThat(second.out()).contains("carried:  " + ITEMS + " items from run 'r1' (nice " + nice.size());
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"a source fact", "a criterion", "a model", "a base URL", "a reviewer threshold",
        "the prompt templates", "carry-over off"})
    void whatTheVerdictDependsOnInvalidatesIt(String change) throws Exception {
        // given a first run (its second reviewer an offline one with a threshold, to change it)
        Path catalog = catalog(List.of());
        Path jobFile = writeJob(catalog, "");
        if (change.equals("a reviewer threshold")) {
            Files.writeString(jobFile, Files.readString(jobFile).replace("type: llm\n    model: {base-url: http://127.0.0.1:9/v1,"
                    + " model: model-c, api-key-env: SANTA_TEST_UNUSED_KEY}", "type: lexical\n    thresholds:"
                    + " {near-duplicate-jaccard: 0.40}"));
        }
        Run first = run(jobFile, "r1", scripted());
        assertThat(first.exit()).as(first.out()).isZero();
        List<String> nice = ids(states("r1"), "NICE");
        String changed = nice.get(0);

        // when the job runs again with one thing changed
        switch (change) {
            case "a source fact" -> Files.writeString(catalog, Files.readString(catalog)
                    .replaceFirst("(?m)^" + changed + ",([^,]*),([^,]*),([^,]*),([0-9]+)\\.99", changed + ",$1,$2,$3,$4.49"));
            case "a criterion" -> Files.writeString(jobFile, Files.readString(jobFile)
                    .replace("pass: About its own product.", "pass: About its own product only."));
            case "a model" -> Files.writeString(jobFile, Files.readString(jobFile).replace("model: model-b,", "model: model-b2,"));
            case "a base URL" -> Files.writeString(jobFile, Files.readString(jobFile)
                    .replace("base-url: http://127.0.0.1:9/v1, model: model-b,", "base-url: http://127.0.0.1:9/v2, model: model-b,"));
            case "a reviewer threshold" -> Files.writeString(jobFile, Files.readString(jobFile)
                    .replace("near-duplicate-jaccard: 0.40", "near-duplicate-jaccard: 0.45"));
            case "the prompt templates" -> update("UPDATE sb_fingerprint SET prompts_sha256 = 'templates of another build'"
                    + " WHERE run_pk = (SELECT run_pk FROM sb_run WHERE job_name = '" + job + "' AND run_id = 'r1')");
            case "carry-over off" -> Files.writeString(jobFile, Files.readString(jobFile) + "carry-over:\n  enabled: false\n");
            default -> throw new IllegalArgumentException(change);
        }
        Run second = run(jobFile, "r2", scripted());

        // then the items it touches are judged afresh, and counted
        assertThat(second.exit()).as(second.out()).isZero();
        Map<String, Object> carry = carryOver(second);
        Map<?, ?> afresh = (Map<?, ?>) carry.get("judged_afresh");
        switch (change) {
            case "a source fact" -> {
                assertThat(n(afresh.get("changed"))).isEqualTo(1L);
                assertThat(n(carry.get("nice"))).isEqualTo((long) nice.size() - 1);
                assertThat(n(carry.get("carried"))).isEqualTo((long) ITEMS - 1);
                assertThat(query("SELECT carry FROM sb_item i JOIN sb_run r ON r.run_pk = i.run_pk WHERE r.job_name = '"
                        + job + "' AND r.run_id = 'r2' AND i.item_id = '" + changed + "'")).containsExactly((String) null);
            }
            case "carry-over off" -> {
                assertThat(carry.get("enabled")).isEqualTo(false);
                assertThat(n(carry.get("carried"))).isEqualTo(0L);
                assertThat(second.reviewed()).isNotEmpty();
            }
            default -> {
                assertThat(n(carry.get("carried"))).isEqualTo(0L);
                assertThat(n(afresh.get("verification_changed"))).isEqualTo((long) ITEMS);
                assertThat(second.reviewed()).isNotEmpty();
            }
        }
    }

    @Test
    void aRestartIsRefusedWhenTheEndpointAModelIsCalledAtChangedThoughItsBaseUrlIsNotConfigured() throws Exception {
        // given a run of one round that ends not clean, its models called at OPENAI_BASE_URL (no base-url configured)
        Path jobFile = writeJob(catalog(List.of()), "santa:\n  max-rounds: 1\n");
        Files.writeString(jobFile, Files.readString(jobFile).replace("base-url: http://127.0.0.1:9/v1, ", ""));
        Map<String, String> a = Map.of("OPENAI_BASE_URL", "http://127.0.0.1:9/a");
        Run first = run(jobFile, "r1", scripted(), a);
        assertThat(first.exit()).as(first.out()).isEqualTo(3);
        Files.writeString(jobFile, Files.readString(jobFile).replace("max-rounds: 1", "max-rounds: 3"));

        // when it is restarted with more rounds and OPENAI_BASE_URL naming another endpoint
        Run moved = run(jobFile, "r1", scripted(), Map.of("OPENAI_BASE_URL", "http://127.0.0.1:9/b"));

        // then the restart is refused, as for a changed base-url; at the same endpoint it resumes
        assertThat(moved.exit()).as(moved.out()).isEqualTo(2);
        assertThat(moved.out()).contains("the rubric").contains("changed since run 'r1' started");
        Run resumed = run(jobFile, "r1", scripted(), a);
        assertThat(resumed.exit()).as(resumed.out()).isZero();
    }

    @Test
    void aNewRuleRunsOnCarriedItemsAndAnItemItChangesLosesItsCarryOver() throws Exception {
        // given a first run without rules over a catalog where every seventh item says "superb"
        List<String> superb = new ArrayList<>();
        for (int i = 7; i <= ITEMS; i += 7) {
            superb.add(String.format("T%04d", i));
        }
        Path jobFile = writeJob(catalog(superb), "");
        Run first = run(jobFile, "r1", scripted());
        assertThat(first.exit()).as(first.out()).isZero();
        assertThat(first.reviewed()).as("some superb item was reviewed in r1").containsAnyElementsOf(superb);

        // when the second run has a rule that replaces the word (a rule criterion: not a Santa one)
        Files.writeString(jobFile, Files.readString(jobFile).replace("rubric:\n", """
                rubric:
                  - id: no-superlatives
                    pass: No superlative.
                    fail-signal: A superlative.
                    rules:
                      - {id: superlatives, type: forbidden-terms, terms: [superb], replacements: {superb: good}, fix: substitute}
                """));
        Run second = run(jobFile, "r2", scripted());

        // then the rule alone invalidates nothing, but every item it changes is judged afresh, with the rule's fix
        assertThat(second.exit()).as(second.out()).isZero();
        Map<String, Object> carry = carryOver(second);
        assertThat(n(carry.get("carried"))).isEqualTo((long) ITEMS - superb.size());
        assertThat(n(((Map<?, ?>) carry.get("judged_afresh")).get("rules"))).isEqualTo((long) superb.size());
        assertThat(n(((Map<?, ?>) carry.get("judged_afresh")).get("verification_changed"))).isEqualTo(0L);
        Map<String, String> shipped = contents(second.dir().resolve("catalog.csv"));
        assertThat(superb).allSatisfy(id -> assertThat(shipped.get(id)).doesNotContainIgnoringCase("superb"));
        assertThat(records(second.dir().resolve("changes.csv")))
                .filteredOn(c -> c.get("cause").equals("rules")).extracting(c -> c.get("item_id"))
                .containsExactlyInAnyOrderElementsOf(superb);
        assertThat(query("SELECT i.item_id FROM sb_item i JOIN sb_run r ON r.run_pk = i.run_pk WHERE r.job_name = '" + job
                + "' AND r.run_id = 'r2' AND i.carry IS NULL")).containsExactlyInAnyOrderElementsOf(superb);
        assertThat(second.reviewed()).doesNotContainAnyElementsOf(ids(states("r1"), "NICE").stream()
                .filter(id -> !superb.contains(id)).toList());
    }

    @Test
    void anUnchangedHeldItemStaysHeldWithoutAReview() throws Exception {
        // given a first run whose fixer has no fix for the marker: every marked item is held
        Path jobFile = writeJob(catalog(List.of()), "");
        Map<String, CSVRecord> held1 = held(holdingRun(jobFile));
        assertThat(held1).hasSize(ITEMS / 5);

        // when the job runs again on the same catalog
        Run second = run(jobFile, "r2", cannotFix());

        // then they are held again, as r1 held them, and none is reviewed
        assertThat(second.exit()).as(second.out()).isZero();
        assertThat(second.reviewed()).doesNotContainAnyElementsOf(held1.keySet());
        assertThat(n(carryOver(second).get("held"))).isEqualTo((long) held1.size());
        Map<String, CSVRecord> held2 = held(second);
        assertThat(held2.keySet()).isEqualTo(held1.keySet());
        held2.forEach((id, r) -> {
            assertThat(r.get("cause")).isEqualTo("carry-over");
            assertThat(r.get("reason")).isEqualTo(held1.get(id).get("reason"));
            assertThat(r.get("open_issues")).isEqualTo(held1.get(id).get("open_issues"));
            assertThat(r.get("original")).contains(MARKER.strip());
        });
        assertThat(contents(second.dir().resolve("catalog.csv"))).doesNotContainKeys(held1.keySet().toArray(String[]::new));
    }

    @Test
    void aHeldItemWhoseEarlierEscalationGaveNoReasonIsCarriedHeldWithTheDefaultReason() throws Exception {
        // given a first run that held items, one of them with no reason (a store written before every
        // escalation had one)
        Path jobFile = writeJob(catalog(List.of()), "");
        Run first = run(jobFile, "r1", cannotFix());
        assertThat(first.exit()).as(first.out()).isZero();
        String x = byId(records(first.dir().resolve("escalations.csv"))).keySet().iterator().next();
        update("UPDATE sb_escalation SET reason = NULL WHERE item_id = '" + x + "' AND run_pk = (SELECT run_pk FROM sb_run"
                + " WHERE job_name = '" + job + "' AND run_id = 'r1')");

        // when the job runs again on the same catalog
        Run second = run(jobFile, "r2", cannotFix());

        // then it is held again, with the documented reason for it
        assertThat(second.exit()).as(second.out()).isZero();
        CSVRecord held = byId(records(second.dir().resolve("escalations.csv"))).get(x);
        assertThat(held).as("%s in r2 escalations.csv", x).isNotNull();
        assertThat(held.get("cause")).isEqualTo("carry-over");
        assertThat(held.get("reason")).isEqualTo(CarryOver.HELD_EARLIER);
    }

    @Test
    void aNiceItemFlaggedOnItsCurrentRevisionIsCarriedHeldForItsUnresolvedFail() throws Exception {
        // given a first run, and one of its NICE items flagged on its current revision (a FAIL seen
        // outside its own review, as a store written before a flagged item was made ACTIVE again
        // holds): the first run's shipping invariant holds it FAIL_UNRESOLVED
        Path jobFile = writeJob(catalog(List.of()), "");
        Run first = run(jobFile, "r1", scripted());
        assertThat(first.exit()).as(first.out()).isZero();
        String x = santaFixed("r1").stream().filter(ids(states("r1"), "NICE")::contains).findFirst().orElseThrow();
        update("INSERT INTO sb_flag (run_pk, item_id, rev, round_no, issues) SELECT i.run_pk, i.item_id, i.current_rev, 1,"
                + " 'C: original: planted FAIL' FROM sb_item i JOIN sb_run r ON r.run_pk = i.run_pk WHERE r.job_name = '"
                + job + "' AND r.run_id = 'r1' AND i.item_id = '" + x + "'");

        // when the job runs again on the same catalog
        Run second = run(jobFile, "r2", scripted());

        // then the item is carried held for that FAIL, not NICE: not shipped, not reviewed
        assertThat(second.exit()).as(second.out()).isZero();
        assertThat(contents(second.dir().resolve("catalog.csv"))).as("r2 catalog.csv").doesNotContainKey(x);
        assertThat(second.reviewed()).doesNotContain(x);
        assertThat(query(inRun("r2", "SELECT s.carry FROM sb_item s WHERE s.item_id = '" + x + "'"))).containsExactly("held");
        CSVRecord held = byId(records(second.dir().resolve("escalations.csv"))).get(x);
        assertThat(held).as("%s in r2 escalations.csv", x).isNotNull();
        assertThat(held.get("reason")).isEqualTo("FAIL_UNRESOLVED");
        assertThat(held.get("cause")).isEqualTo("carry-over");
    }

    @Test
    void aShippedItemAPersonFoundDefectiveIsJudgedAfreshAndACoveredOneReopensTheCoveredStratum() throws Exception {
        // given a first run whose audit.csv holds every shipped item, and a person's verdicts on it:
        // defective for one item it verified NICE and one it shipped covered, ok for another covered one
        Path jobFile = writeJob(catalog(List.of()), "santa:\n  audit-size: " + ITEMS + "\n");
        Run first = run(jobFile, "r1", scripted());
        assertThat(first.exit()).as(first.out()).isZero();
        Map<String, String> states = states("r1");
        String nice = ids(states, "NICE").get(0);
        List<String> covered = ids(states, "ACTIVE");
        assertThat(audit(first, Map.of(nice, "defective", covered.get(0), "defective", covered.get(1), "ok")))
                .contains("audit: 3 audited, 2 defective");

        // when the job runs again on the same catalog
        Run second = run(jobFile, "r2", scripted());

        // then neither defective item is carried: both are judged afresh, counted as audited; the ok one is carried
        assertThat(second.exit()).as(second.out()).isZero();
        Map<String, Object> carry = carryOver(second);
        assertThat(n(((Map<?, ?>) carry.get("judged_afresh")).get("audited"))).isEqualTo(2L);
        assertThat(n(carry.get("carried"))).isEqualTo((long) ITEMS - 2);
        assertThat(query(inRun("r2", "SELECT s.item_id FROM sb_item s WHERE s.carry IS NULL")))
                .containsExactlyInAnyOrder(nice, covered.get(0));
        assertThat(query(inRun("r2", "SELECT s.carry FROM sb_item s WHERE s.item_id = '" + covered.get(1) + "'")))
                .containsExactly("covered");
        // and the covered one is a failure of the covered stratum, which is reopened in round 1 though its sample is clean
        Map<?, ?> stratum = stratum(strata(second), "covered");
        assertThat(n(stratum.get("failures"))).isEqualTo(1L);
        assertThat(stratum.get("reopened")).isEqualTo(true);
        assertThat(stratum.get("reopened_in_round")).isEqualTo(1);
    }

    @Test
    void aHeldItemAPersonApprovesShipsWithItsLastPassingTextAndOneFoundDefectiveStaysHeld() throws Exception {
        // given a first run that held every marked item, a second that held them again (carried), and then,
        // late, a person's decisions on two of the first run's escalations.csv rows
        Path jobFile = writeJob(catalog(List.of()), "");
        Run first = holdingRun(jobFile);
        Map<String, CSVRecord> held1 = held(first);
        List<String> heldIds = new ArrayList<>(held1.keySet());
        String approved = heldIds.get(0);
        String defective = heldIds.get(1);
        Run second = run(jobFile, "r2", cannotFix());
        assertThat(held(second)).containsOnlyKeys(heldIds);
        assertThat(audit(first, Map.of(approved, "ok", defective, "defective")))
                .contains("held items decided: 1 ok").contains("1 defective");

        // when the job runs again on the same catalog, twice
        Run third = run(jobFile, "r3", cannotFix());
        Run fourth = run(jobFile, "r4", cannotFix());

        // then the approved item ships NICE, with the text escalations.csv gave, without a review, run after run
        // (the decision reaches the third run through the second, which carried the item untouched)
        for (Run r : List.of(third, fourth)) {
            assertThat(r.exit()).as(r.out()).isZero();
            assertThat(r.reviewed()).doesNotContain(approved, defective);
            assertThat(contents(r.dir().resolve("catalog.csv")).get(approved)).isEqualTo(held1.get(approved).get("last_passing"));
            assertThat(held(r)).doesNotContainKey(approved).containsKey(defective).hasSize(heldIds.size() - 1);
        }
        assertThat(n(carryOver(third).get("nice_approved_by_person"))).isEqualTo(1L);
        assertThat(n(carryOver(third).get("held"))).isEqualTo((long) heldIds.size() - 1);
        assertThat(query(inRun("r3", "SELECT s.carry FROM sb_item s WHERE s.item_id = '" + approved + "'")))
                .containsExactly("nice");
        assertThat(n(carryOver(fourth).get("nice_approved_by_person"))).isZero();
    }

    @Test
    void aSourceRunResumedAfterItWasChosenIsNoSourceForAnyKindUntilItExportsAgain() throws Exception {
        // given a run that left items of every kind (NICE, held, covered), and a second run carrying from it
        Path jobFile = writeJob(catalog(List.of()), "");
        holdingRun(jobFile);
        Run second = run(jobFile, "r2", cannotFix());
        assertThat(carryOver(second).get("looked_at")).isEqualTo(List.of("r1"));
        Store store = new Store(dataSource());
        long r2 = store.findRun(job, "r2").orElseThrow().runPk();
        List<String> ids = new ArrayList<>(states("r2").keySet());
        java.util.function.Supplier<Map<String, Long>> kinds = () -> {
            CarryOver over = CarryOver.of(store, r2, dev.santabatch.config.CarryOverSpec.defaults());
            Map<String, Long> out = new HashMap<>();
            over.lookup(ids, new CarryStore(store.jdbc()).digests(r2, ids)).values().stream()
                    .filter(c -> c.carried() != null).forEach(c -> out.merge(c.carried().kind().key(), 1L, Long::sum));
            return out;
        };
        assertThat(kinds.get()).containsOnlyKeys("nice", "held", "covered");

        // when the first run is resumed (given more rounds: its export cleared until it exports again), and
        // the second run's carry-over is looked up again, as its restart does with the runs it chose
        long r1 = store.findRun(job, "r1").orElseThrow().runPk();
        store.clearExported(r1);

        // then nothing is carried from it, of any kind; once it exports again, it is a source again
        assertThat(kinds.get()).isEmpty();
        store.markExported(r1, "clean");
        assertThat(kinds.get()).containsOnlyKeys("nice", "held", "covered");
    }

    @Test
    void maxAgeForcesAFreshReview() throws Exception {
        // given max-age 2: an item is carried at most one run in a row
        Path jobFile = writeJob(catalog(List.of()), "carry-over:\n  max-age: 2\n");
        assertThat(run(jobFile, "r1", scripted()).exit()).isZero();
        Run second = run(jobFile, "r2", scripted());
        assertThat(n(carryOver(second).get("carried"))).isEqualTo((long) ITEMS);
        List<String> carriedNice = query("SELECT i.item_id FROM sb_item i JOIN sb_run r ON r.run_pk = i.run_pk"
                + " WHERE r.job_name = '" + job + "' AND r.run_id = 'r2' AND i.carry = 'nice'");
        assertThat(carriedNice).isNotEmpty();

        // when a third run follows
        Run third = run(jobFile, "r3", scripted());

        // then what r2 carried is judged afresh: nothing carried from r2 but the items r2 reviewed itself
        assertThat(third.exit()).as(third.out()).isZero();
        Map<String, Object> carry = carryOver(third);
        long reviewedInR2 = second.sampled();
        assertThat(n(carry.get("carried"))).isEqualTo(reviewedInR2);
        assertThat(n(((Map<?, ?>) carry.get("judged_afresh")).get("max_age"))).isEqualTo((long) ITEMS - reviewedInR2);
        assertThat(query("SELECT MAX(carried_runs) FROM sb_item i JOIN sb_run r ON r.run_pk = i.run_pk WHERE r.job_name = '"
                + job + "' AND r.run_id = 'r3'")).containsExactly("1");
        // the items r1 verified NICE and r2 carried are back in the sampling population
        assertThat(ids(states("r3"), "ACTIVE")).containsAll(carriedNice.stream()
                .filter(id -> !third.reviewed().contains(id)).toList());
    }

    @Test
    void theCoveredStratumIsSampledAtItsFixedSizeAndAFailureInItReopensItToPatternC() throws Exception {
        // given a first run whose panel lets "superb" pass (every seventh item says it)
        List<String> superb = new ArrayList<>();
        for (int i = 7; i <= ITEMS; i += 7) {
            superb.add(String.format("T%04d", i));
        }
        Path jobFile = writeJob(catalog(superb, List.of()), "");
        Run first = run(jobFile, "r1", scripted());
        assertThat(first.exit()).as(first.out()).isZero();
        assertThat(first.report()).doesNotContainKey("strata");

        // when ten items change (a source fact) and the second night's panel fails "superb" too
        List<String> repriced = List.of("T0001", "T0002", "T0003", "T0004", "T0006", "T0008", "T0009", "T0011", "T0012",
                "T0013");
        catalog(superb, repriced);
        Run second = run(jobFile, "r2", strict());

        // then the covered stratum was sampled once, at the fixed size for t = 0.05 over H = 2 strata at the
        // first look: ceil(ln(0.05 / 2) / ln(0.95)) = ceil(71.9) = 72 items, all of them carried over as covered
        assertThat(second.exit()).as(second.out()).isZero();
        Map<String, Object> strata = strata(second);
        assertThat(strata.get("strata_sampled")).isEqualTo(2);
        Map<?, ?> covered = stratum(strata, "covered");
        assertThat(covered.get("sampled")).isEqualTo(72);
        assertThat(covered.get("looks")).isEqualTo(1);
        assertThat(query(inRun("r2", "SELECT COUNT(*) FROM sb_sample s JOIN sb_item i ON i.run_pk = s.run_pk AND"
                + " i.item_id = s.item_id WHERE s.covered AND s.round_no = 1 AND i.carry = 'covered'"))).containsExactly("72");
        assertThat(query(inRun("r2", "SELECT COUNT(*) FROM sb_sample s WHERE s.covered"))).containsExactly("72");
        // a superb item in it failed: the stratum was reopened in round 1, its other items sampled by Pattern C after
        assertThat(n(covered.get("failures"))).isPositive();
        assertThat(covered.get("reopened")).isEqualTo(true);
        assertThat(covered.get("reopened_in_round")).isEqualTo(1);
        assertThat(covered.get("bound")).isNull();
        assertThat(Integer.parseInt(query(inRun("r2", "SELECT COUNT(*) FROM sb_sample s JOIN sb_item i ON i.run_pk ="
                + " s.run_pk AND i.item_id = s.item_id WHERE s.round_no = 2 AND i.carry = 'covered'")).get(0))).isPositive();
        // no item of the covered stratum ships saying "superb" (items carried NICE were not reviewed again)
        Object shippedFile = ((Map<?, ?>) second.report().get("outputs")).get("shipped_file");
        Map<String, String> shipped = contents(second.dir().resolve(String.valueOf(shippedFile)));
        List<String> coveredIds = query("SELECT i.item_id FROM sb_item i JOIN sb_run r ON r.run_pk = i.run_pk WHERE"
                + " r.job_name = '" + job + "' AND r.run_id = 'r2' AND i.carry = 'covered'");
        assertThat(coveredIds).hasSize((int) n(covered.get("items")));
        assertThat(coveredIds).allSatisfy(id -> assertThat(shipped.getOrDefault(id, "")).doesNotContain("Superb"));
        assertThat(second.out()).contains("strata:   changed").contains("failed: reopened in round 1");
    }

    @Test
    void theCatalogBoundWeighsTheCoveredStratumByItsMembersAtExportNotThoseABatchFixRewroteAfterItsSample() throws Exception {
        // given a first run that lets "superb" pass, and ten items that change for the second; two of
        // those and three covered items the second run's covered sample does not draw (seed 7) say "superb"
        List<String> repriced = List.of("T0001", "T0002", "T0003", "T0004", "T0006", "T0008", "T0009", "T0011", "T0012",
                "T0013");
        List<String> rewritten = List.of("T0007", "T0016", "T0018");
        List<String> superb = new ArrayList<>(List.of("T0001", "T0002"));
        superb.addAll(rewritten);
        Path jobFile = writeJob(catalog(superb, List.of()), "");
        assertThat(run(jobFile, "r1", scripted()).exit()).isZero();

        // when the second run's panel fails "superb": a systematic pattern among the changed items, whose
        // batch fix in round 1 rewrites the three covered items after the covered sample was drawn (clean)
        catalog(superb, repriced);
        Run second = run(jobFile, "r2", strict());

        // then those three are the changed stratum's in round 2 and no longer covered members at export
        assertThat(second.exit()).as(second.out()).isZero();
        assertThat(second.report().get("status")).isEqualTo("clean");
        assertThat(query(inRun("r2", "SELECT s.item_id FROM sb_sample s WHERE s.round_no = 2 AND s.item_id IN ('T0007',"
                + " 'T0016', 'T0018')"))).containsExactlyInAnyOrderElementsOf(rewritten);
        Map<String, Object> strata = strata(second);
        Map<?, ?> covered = stratum(strata, "covered");
        Map<?, ?> changed = stratum(strata, "changed");
        assertThat(covered.get("reopened")).isEqualTo(false);
        long drawn = n(covered.get("items"));
        long atExport = drawn - n(covered.get("sampled")) - rewritten.size();
        assertThat(n(((Map<?, ?>) covered.get("covers")).get("items"))).isEqualTo(atExport);
        // the catalog's bound: sum of N_h / N p_h over N = the changed stratum's items and the covered members at export
        Map<?, ?> catalog = (Map<?, ?>) strata.get("catalog");
        long n = n(changed.get("items")) + atExport;
        assertThat(n(catalog.get("items"))).isEqualTo(n);
        double expected = (n(changed.get("items")) * ((Number) changed.get("bound")).doubleValue()
                + atExport * ((Number) covered.get("bound")).doubleValue()) / n;
        assertThat(((Number) catalog.get("defect_rate_below")).doubleValue())
                .isCloseTo(expected, org.assertj.core.data.Offset.offset(1e-12));
    }

    @Test
    void theLooksAtTheCoveredStratumGrowWhileNoItemEntersItAndRestartWhenItemsDo() throws Exception {
        // given a job that samples as few as ten changed items (Pattern C below 100), and three runs on one catalog
        Path catalog = catalog(List.of());
        Path jobFile = writeJob(catalog, "");
        Files.writeString(jobFile, Files.readString(jobFile).replace("  seed: 7\n", "  seed: 7\n  full-review-below: 10\n"));
        assertThat(run(jobFile, "r1", scripted()).exit()).isZero();
        Run second = run(jobFile, "r2", scripted());
        Run third = run(jobFile, "r3", scripted());

        // then the second run's look is the first (nothing changed: H = 1, n = ceil(ln 0.05 / ln 0.95) = 59);
        // the third's, whose stratum only lost what the second reviewed, the second (H = 1, k = 2: n = 72)
        Map<?, ?> look1 = stratum(strata(second), "covered");
        assertThat(strata(second).get("strata_sampled")).isEqualTo(1);
        assertThat(look1.get("looks")).isEqualTo(1);
        assertThat(look1.get("previous_look")).isNull();
        assertThat(look1.get("sampled")).isEqualTo(59);
        Map<?, ?> look2 = stratum(strata(third), "covered");
        assertThat(look2.get("looks")).isEqualTo(2);
        assertThat(look2.get("previous_look")).isEqualTo("r2");
        assertThat(n(look2.get("entered_since_previous_look"))).isZero();
        assertThat(n(look2.get("items"))).isEqualTo(n(look1.get("items")) - 59);
        assertThat(look2.get("sampled")).isEqualTo(72);
        // the catalog's bound is the covered stratum's: 1 − (0.05 / 2)^(1/72) = 0.0499441
        assertThat(((Number) ((Map<?, ?>) ((Map<?, ?>) third.report().get("run")).get("bound")).get("defect_rate_below"))
                .doubleValue()).isCloseTo(0.0499441, org.assertj.core.data.Offset.offset(1e-7));

        // when thirty items the third run did not leave covered change, and the job runs twice on that catalog
        List<String> repriced = ids(states("r3"), "NICE").stream().filter(id -> Integer.parseInt(id.substring(1)) % 5 != 0)
                .limit(30).toList();
        assertThat(repriced).hasSize(30);
        catalog(List.of(), repriced);
        Run fourth = run(jobFile, "r4", scripted());
        Run fifth = run(jobFile, "r5", scripted());

        // then the fourth run's covered stratum only lost items: its third look (and H = 2 beside the changed ones)
        assertThat(fourth.exit()).as(fourth.out()).isZero();
        Map<?, ?> look3 = stratum(strata(fourth), "covered");
        assertThat(look3.get("looks")).isEqualTo(3);
        assertThat(strata(fourth).get("strata_sampled")).isEqualTo(2);
        // the changed items the fourth shipped under its changed stratum's clean sample entered it: k starts again
        assertThat(fifth.exit()).as(fifth.out()).isZero();
        Map<?, ?> restart = stratum(strata(fifth), "covered");
        assertThat(restart.get("looks")).isEqualTo(1);
        assertThat(restart.get("previous_look")).isEqualTo("r4");
        assertThat(n(restart.get("entered_since_previous_look"))).isPositive();
    }

    // ---------------------------------------------------------------- the scripted panel

    /** A run: its exit, printed summary, report and output folder, and the items its panel was asked to review. */
    record Run(int exit, String out, Map<String, Object> report, Path dir, Set<String> reviewed) {
        /** Items the run's rounds sampled. */
        long sampled() {
            return ((Number) ((Map<?, ?>) report.get("run")).get("sampled")).longValue();
        }
    }

    /** Fails on-specification when the text carries the marker; records every item it reviews. */
    private static ReviewerType marker(Set<String> reviewed) {
        return ScriptedReviewer.answering(r -> {
            reviewed.add(r.itemId());
            return r.content().contains(MARKER.strip()) ? List.of("on-specification: carries the shop-now boilerplate sentence")
                    : List.of();
        });
    }

    private interface Panel {
        Extensions extensions(Set<String> reviewed);
    }

    /** The marker fails, as judged by every reviewer (a model one, or an offline one standing in); the fixer removes it. */
    private static Panel scripted() {
        return reviewed -> new Extensions(Map.of("llm", marker(reviewed), "lexical", marker(reviewed)),
                request -> new FixOutcome.Fixed(request.content().replace(MARKER, "")));
    }

    /** The marker, and "superb" too, fail; the fixer removes both. */
    private static Panel strict() {
        return reviewed -> new Extensions(Map.of("llm", ScriptedReviewer.answering(r -> {
            reviewed.add(r.itemId());
            List<String> issues = new ArrayList<>();
            if (r.content().contains(MARKER.strip())) {
                issues.add("on-specification: carries the shop-now boilerplate sentence");
            }
            if (r.content().contains("Superb")) {
                issues.add("original: calls itself superb as other items do");
            }
            return issues;
        })), request -> new FixOutcome.Fixed(request.content().replace(MARKER, "").replace(" Superb value.", "")));
    }

    private static Panel cannotFix() {
        return reviewed -> new Extensions(Map.of("llm", marker(reviewed)),
                request -> new FixOutcome.CannotFix("no offline fix: scripted"));
    }

    // ---------------------------------------------------------------- fixtures

    /** {@value #ITEMS} items, every fifth with the marker, the {@code superb} ones saying so. */
    private Path catalog(List<String> superb) throws Exception {
        return catalog(superb, List.of());
    }

    /** As {@link #catalog(List)}, the {@code repriced} items with another price (a source fact). */
    private Path catalog(List<String> superb, List<String> repriced) throws Exception {
        List<List<String>> rows = new ArrayList<>();
        for (List<String> r : TestJobsAccess.rows(ITEMS)) {
            List<String> row = new ArrayList<>(r);
            if (Integer.parseInt(row.get(0).substring(1)) % 5 == 0) {
                row.set(7, row.get(7) + MARKER);
            }
            if (superb.contains(row.get(0))) {
                row.set(7, row.get(7) + " Superb value.");
            }
            if (repriced.contains(row.get(0))) {
                row.set(4, row.get(4).replace(".99", ".49"));
            }
            rows.add(row);
        }
        return TestJobsAccess.writeCatalog(dir.resolve("in.csv"), rows);
    }

    /**
     * A job over {@code catalog} whose reviewers are models (their identity is in the verification
     * fingerprint; the scripted panel stands in for them, so no call leaves the process), then {@code extra}.
     */
    private Path writeJob(Path catalog, String extra) throws Exception {
        Path file = TestJobsAccess.writeJob(dir, job, catalog, 50);
        String models = """
                sampling:
                  seed: 7
                reviewers:
                  - id: B
                    type: llm
                    model: {base-url: http://127.0.0.1:9/v1, model: model-b, api-key-env: SANTA_TEST_UNUSED_KEY}
                  - id: C
                    type: llm
                    model: {base-url: http://127.0.0.1:9/v1, model: model-c, api-key-env: SANTA_TEST_UNUSED_KEY}
                """;
        Files.writeString(file, Files.readString(file) + models + extra);
        return file;
    }

    private Run run(Path jobFile, String runId, Panel panel) throws Exception {
        return run(jobFile, runId, panel, Map.of());
    }

    /** As {@link #run(Path, String, Panel)}, the model clients reading {@code env}. */
    private Run run(Path jobFile, String runId, Panel panel, Map<String, String> env) throws Exception {
        Set<String> reviewed = ConcurrentHashMap.newKeySet();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        StopSignal.reset();
        int exit = Extensions.run(new RunRequest(jobFile, null, dir.resolve("out"), runId, null), props(),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8),
                withEnv(panel.extensions(reviewed), env));
        Path runDir = dir.resolve("out").resolve(job).resolve(runId);
        String printed = out.toString(StandardCharsets.UTF_8) + err.toString(StandardCharsets.UTF_8);
        Map<String, Object> report = Files.exists(runDir.resolve("report.json")) ? RunReport.read(runDir.resolve("report.json"))
                : Map.of();
        return new Run(exit, printed, report, runDir, Set.copyOf(reviewed));
    }

    private static Extensions withEnv(Extensions e, Map<String, String> env) {
        return new Extensions(e.reviewerTypes(), e.fixer(), env);
    }

    private static long n(Object number) {
        return ((Number) number).longValue();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> carryOver(Run run) {
        assertThat(run.report()).as(run.out()).containsKey("carry_over");
        return (Map<String, Object>) run.report().get("carry_over");
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> strata(Run run) {
        assertThat(run.report()).as(run.out()).containsKey("strata");
        return (Map<String, Object>) run.report().get("strata");
    }

    private static Map<?, ?> stratum(Map<String, Object> strata, String name) {
        return ((List<?>) strata.get("per_stratum")).stream().map(o -> (Map<?, ?>) o).filter(m -> name.equals(m.get("name")))
                .findFirst().orElseThrow();
    }

    /** The job's first run, {@code r1}, whose fixer has no fix for the marker: every marked item is held. */
    private Run holdingRun(Path jobFile) throws Exception {
        Run first = run(jobFile, "r1", cannotFix());
        assertThat(first.exit()).as(first.out()).isZero();
        return first;
    }

    /** A run's {@code escalations.csv} rows, by item id. */
    private static Map<String, CSVRecord> held(Run run) throws Exception {
        return byId(records(run.dir().resolve("escalations.csv")));
    }

    /** Hands a person's verdicts on items of a run's outputs back ({@code santa-batch audit}); what it printed. */
    private String audit(Run run, Map<String, String> verdicts) throws Exception {
        StringBuilder csv = new StringBuilder("item_id,verdict\n");
        verdicts.forEach((id, verdict) -> csv.append(id).append(',').append(verdict).append('\n'));
        Path filled = Files.writeString(dir.resolve("filled-" + run.dir().getFileName() + ".csv"), csv);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int exit = Launcher.audit(run.dir(), filled, props(), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(out, true, StandardCharsets.UTF_8));
        assertThat(exit).as(out.toString(StandardCharsets.UTF_8)).isZero();
        return out.toString(StandardCharsets.UTF_8);
    }

    /** {@code sql} (on {@code sb_sample s} or {@code sb_item s}) restricted to a run of the test's job. */
    private String inRun(String runId, String sql) {
        return sql + " AND s.run_pk = (SELECT run_pk FROM sb_run WHERE job_name = '" + job + "' AND run_id = '" + runId + "')";
    }

    /** The store: PostgreSQL from the environment, else H2 in file mode under the test's folder. */
    private Map<String, Object> props() {
        Map<String, Object> p = new HashMap<>(TestJobsAccess.h2(dir));
        String url = System.getenv("SANTA_TEST_PG_URL");
        if (url != null && !url.isBlank()) {
            p.put("spring.datasource.url", pgSchema(url));
            p.put("spring.datasource.username", System.getenv().getOrDefault("SANTA_TEST_PG_USER", "postgres"));
            p.put("spring.datasource.password", System.getenv().getOrDefault("SANTA_TEST_PG_PASSWORD", ""));
        }
        return p;
    }

    /** This class's own schema in the PostgreSQL database: another test class may create the store's tables there at the same time. */
    private static String pgSchema(String url) {
        synchronized (CarryOverFunctionalTests.class) {
            if (pgUrl == null) {
                String schema = "carry_" + Long.toString(System.nanoTime(), 36);
                try (Connection c = DriverManager.getConnection(url, System.getenv().getOrDefault("SANTA_TEST_PG_USER", "postgres"),
                        System.getenv().getOrDefault("SANTA_TEST_PG_PASSWORD", ""))) {
                    c.createStatement().execute("CREATE SCHEMA " + schema);
                } catch (SQLException e) {
                    throw new IllegalStateException(e);
                }
                pgUrl = url + (url.contains("?") ? "&" : "?") + "currentSchema=" + schema;
            }
            return pgUrl;
        }
    }

    private static String pgUrl;

    private DriverManagerDataSource dataSource() {
        Map<String, Object> p = props();
        return new DriverManagerDataSource((String) p.get("spring.datasource.url"),
                (String) p.getOrDefault("spring.datasource.username", "sa"),
                (String) p.getOrDefault("spring.datasource.password", ""));
    }

    private Connection connect() throws SQLException {
        return dataSource().getConnection();
    }

    private List<String> query(String sql) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Connection c = connect(); ResultSet rs = c.createStatement().executeQuery(sql)) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        }
        return out;
    }

    private void update(String sql) throws SQLException {
        try (Connection c = connect()) {
            assertThat(c.createStatement().executeUpdate(sql)).isEqualTo(1);
        }
    }

    /** Item id to state in a run of the test's job. */
    private Map<String, String> states(String runId) throws SQLException {
        Map<String, String> out = new LinkedHashMap<>();
        try (Connection c = connect();
                ResultSet rs = c.createStatement().executeQuery("SELECT i.item_id, i.state FROM sb_item i JOIN sb_run r"
                        + " ON r.run_pk = i.run_pk WHERE r.job_name = '" + job + "' AND r.run_id = '" + runId + "'"
                        + " ORDER BY i.record_index")) {
            while (rs.next()) {
                out.put(rs.getString(1), rs.getString(2));
            }
        }
        return out;
    }

    /** Items with a Santa fix in a run. */
    private List<String> santaFixed(String runId) throws SQLException {
        return query("SELECT DISTINCT v.item_id FROM sb_revision v JOIN sb_run r ON r.run_pk = v.run_pk WHERE r.job_name = '"
                + job + "' AND r.run_id = '" + runId + "' AND v.cause = 'santa-fix'");
    }

    private static List<String> ids(Map<String, String> states, String state) {
        return states.entrySet().stream().filter(e -> e.getValue().equals(state)).map(Map.Entry::getKey).toList();
    }

    private static Map<String, String> filter(Map<String, String> states, String state) {
        Map<String, String> out = new LinkedHashMap<>();
        states.forEach((k, v) -> {
            if (v.equals(state)) {
                out.put(k, v);
            }
        });
        return out;
    }

    static List<CSVRecord> records(Path csv) throws Exception {
        try (Reader in = Files.newBufferedReader(csv, StandardCharsets.UTF_8);
                var p = CSVFormat.RFC4180.builder().setHeader().setSkipHeaderRecord(true).get().parse(in)) {
            return p.getRecords();
        }
    }

    private static Map<String, CSVRecord> byId(List<CSVRecord> rows) {
        Map<String, CSVRecord> out = new LinkedHashMap<>();
        rows.forEach(r -> out.put(r.get("item_id"), r));
        return out;
    }

    private static Map<String, String> contents(Path csv) throws Exception {
        Map<String, String> out = new LinkedHashMap<>();
        for (CSVRecord r : records(csv)) {
            out.put(r.get("id"), r.get("description"));
        }
        return out;
    }
}
