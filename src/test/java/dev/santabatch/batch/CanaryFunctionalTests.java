package dev.santabatch.batch;

import dev.santabatch.review.step.ReviewerType;
import static org.assertj.core.api.Assertions.assertThat;

import dev.santabatch.canary.Canary;
import dev.santabatch.canary.CanaryStore;
import dev.santabatch.execution.StopSignal;
import dev.santabatch.config.ReviewerSpec;
import dev.santabatch.export.RunReport;
import dev.santabatch.review.Check;
import dev.santabatch.review.CheckResult;
import dev.santabatch.review.FixOutcome;
import dev.santabatch.review.Review;
import dev.santabatch.review.ReviewOutcome;
import dev.santabatch.review.ReviewRequest;
import dev.santabatch.review.Reviewer;
import dev.santabatch.review.Verdict;
import dev.santabatch.run.Launcher;
import dev.santabatch.run.RunRequest;
import dev.santabatch.run.TestJobsAccess;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Canaries in the whole loop, with scripted panels: a panel that passes everything ends the run
 * {@code panel-does-not-fit} (exit 3) and a resume with more rounds does not continue it; a panel
 * that fails every text unlike its item's catalog text catches every planted canary and no clean
 * copy, and the run ends clean. No canary is ever in an output file.
 */
class CanaryFunctionalTests {

    @TempDir
    Path dir;

    @BeforeEach
    void reset() {
        StopSignal.reset();
    }

    /** Reviewers failing on-specification for the texts {@code bad} picks. */
    static ReviewerType failing(Predicate<ReviewRequest> bad) {
        return spec -> new Reviewer() {
            @Override
            public String id() {
                return spec.id();
            }

            @Override
            public Set<String> criteria() {
                return new LinkedHashSet<>(spec.criteria());
            }

            @Override
            public ReviewOutcome review(ReviewRequest request) {
                boolean fail = bad.test(request);
                List<Check> checks = new ArrayList<>();
                for (var c : request.rubric()) {
                    boolean f = fail && c.id().equals("on-specification");
                    checks.add(new Check(c.id(), f ? CheckResult.FAIL : CheckResult.PASS, f ? "not its text" : "ok"));
                }
                // a failing answer counts one issue the validator re-attributed (an unprefixed issue, as models write)
                return new ReviewOutcome.Reviewed(new Review(fail ? Verdict.FAIL : Verdict.PASS, checks,
                        fail ? List.of("on-specification: the text is not this item's") : List.of(), List.of()),
                        Duration.ofMillis(1), fail ? 1 : 0, 0);
            }
        };
    }

    private Path job(int maxRounds) throws Exception {
        Path catalog = TestJobsAccess.writeCatalog(dir.resolve("catalog.csv"), TestJobsAccess.rows(400));
        Path job = TestJobsAccess.writeJob(dir, "loop", catalog, 50);
        Files.writeString(job, Files.readString(job) + "sampling:\n  rate: 0.5\n  allow-rate-outside-range: true\n  seed: 7\nsanta:\n  max-rounds: " + maxRounds
                + "\n");
        return job;
    }

    private Map<String, Object> props() {
        Map<String, Object> p = new HashMap<>(TestJobsAccess.h2(dir));
        p.put(dev.santabatch.batch.SantaJobConfiguration.CANARIES_PROPERTY, "true");
        return p;
    }

    private int run(Path job, Extensions ext, ByteArrayOutputStream out) {
        return Extensions.run(new RunRequest(job, null, dir.resolve("out"), "r1", null), props(),
                new PrintStream(out, true, StandardCharsets.UTF_8), System.err, ext);
    }

    private List<Map.Entry<Integer, Canary>> canaries() {
        org.h2.jdbcx.JdbcDataSource ds = new org.h2.jdbcx.JdbcDataSource();
        ds.setURL(String.valueOf(TestJobsAccess.h2(dir).get("spring.datasource.url")));
        ds.setUser("sa");
        JdbcTemplate jdbc = new JdbcTemplate(ds);
        Long runPk = jdbc.queryForObject("SELECT MAX(run_pk) FROM sb_run", Long.class);
        return new CanaryStore(jdbc).all(runPk);
    }

    /** No planted canary's text, nor any sentence only a planted canary has, is in any file the run wrote. */
    private void noCanaryInAnyOutput(List<Map.Entry<Integer, Canary>> canaries, String catalogText) throws Exception {
        List<Path> files;
        try (Stream<Path> s = Files.walk(dir.resolve("out"))) {
            files = s.filter(Files::isRegularFile).toList();
        }
        assertThat(files).isNotEmpty();
        List<String> planted = canaries.stream().map(Map.Entry::getValue).filter(Canary::planted).map(Canary::content).toList();
        assertThat(planted).isNotEmpty();
        for (Path f : files) {
            String text = Files.readString(f);
            for (String p : planted) {
                assertThat(catalogText).doesNotContain(p);
                assertThat(text).as(f + " holds a canary").doesNotContain(p)
                        .doesNotContain(p.replace("\"", "\"\"")).doesNotContain(p.replace("\n", "\\n"));
            }
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void aPanelThatPassesEverythingDoesNotFitAndMoreRoundsDoNotResumeIt() throws Exception {
        // given a panel that passes every text
        Path job = job(3);
        Extensions blind = new Extensions(Map.of("lexical", failing(r -> false), "semantic", failing(r -> false)),
                request -> new FixOutcome.CannotFix("scripted"));
        ByteArrayOutputStream out = new ByteArrayOutputStream();

        // when the job runs
        int exit = run(job, blind, out);

        // then its first sample is clean, but the panel caught no canary: not clean, panel-does-not-fit
        String output = out.toString(StandardCharsets.UTF_8);
        assertThat(exit).as(output).isEqualTo(3);
        assertThat(output).contains("status:   NOT-CLEAN (panel-does-not-fit)")
                .contains("fit:      the panel does not fit: sensitivity 0.00 below santa.min-panel-sensitivity 0.80")
                .contains("use model reviewers");
        Path run = dir.resolve("out/loop/r1");
        assertThat(run.resolve("catalog.csv")).doesNotExist();
        assertThat(run.resolve("verified.csv")).exists();
        Map<String, Object> report = RunReport.read(run.resolve("report.json"));
        assertThat(report.get("status")).isEqualTo("not-clean");
        assertThat(report.get("reason")).isEqualTo("panel-does-not-fit");
        Map<String, Object> fit = (Map<String, Object>) report.get("panel_fit");
        assertThat(fit.get("fits")).isEqualTo(false);
        List<Map.Entry<Integer, Canary>> canaries = canaries();
        // 200 sampled: 10 canaries, 3 of them clean copies (when every plant found an item)
        long planted = canaries.stream().filter(e -> e.getValue().planted()).count();
        assertThat(canaries).hasSizeBetween(4, 10);
        assertThat(planted).isGreaterThanOrEqualTo(3);
        Map<String, Object> sens = (Map<String, Object>) ((Map<String, Object>) ((Map<String, Object>) report.get("canaries"))
                .get("panel")).get("sensitivity");
        assertThat(((Number) sens.get("caught")).longValue()).isZero();
        assertThat(((Number) sens.get("of")).longValue()).isEqualTo(planted);
        assertThat(((Map<String, Object>) report.get("input")).get("items")).isEqualTo(400);
        noCanaryInAnyOutput(canaries, Files.readString(dir.resolve("catalog.csv")));

        // when the run is resumed with more rounds
        Files.writeString(job, Files.readString(job).replace("max-rounds: 3", "max-rounds: 6"));
        ByteArrayOutputStream again = new ByteArrayOutputStream();
        int second = run(job, blind, again);

        // then nothing is drawn: the same end, the same canaries
        assertThat(second).as(again.toString(StandardCharsets.UTF_8)).isEqualTo(3);
        Map<String, Object> resumed = RunReport.read(run.resolve("report.json"));
        assertThat(resumed.get("reason")).isEqualTo("panel-does-not-fit");
        assertThat(((Map<String, Object>) resumed.get("run")).get("rounds")).isEqualTo(1);
        assertThat(canaries()).isEqualTo(canaries);
    }

    @Test
    @SuppressWarnings("unchecked")
    void aPanelThatFailsTextsUnlikeTheCatalogsCatchesEveryCanaryAndTheRunEndsClean() throws Exception {
        // given a panel that fails every text other than its item's catalog text
        Path job = job(3);
        Map<String, String> texts = new HashMap<>();
        for (List<String> r : TestJobsAccess.rows(400)) {
            texts.put(r.get(0), r.get(7));
        }
        Predicate<ReviewRequest> altered = r -> !r.content().equals(texts.get(r.itemId()));
        Extensions ext = new Extensions(Map.of("lexical", failing(altered), "semantic", failing(r -> false)),
                request -> new FixOutcome.CannotFix("scripted"));
        ByteArrayOutputStream out = new ByteArrayOutputStream();

        // when the job runs
        int exit = run(job, ext, out);

        // then it ends clean; the panel (through B) caught every planted canary and failed no clean copy
        String output = out.toString(StandardCharsets.UTF_8);
        assertThat(exit).as(output).isZero();
        List<Map.Entry<Integer, Canary>> canaries = canaries();
        long planted = canaries.stream().filter(e -> e.getValue().planted()).count();
        long clean = canaries.size() - planted;
        assertThat(planted).isGreaterThanOrEqualTo(3);
        assertThat(clean).isGreaterThanOrEqualTo(1);
        Path run = dir.resolve("out/loop/r1");
        Map<String, Object> report = RunReport.read(run.resolve("report.json"));
        Map<String, Object> c = (Map<String, Object>) report.get("canaries");
        Map<String, Object> b = (Map<String, Object>) ((Map<String, Object>) c.get("reviewers")).get("B");
        Map<String, Object> cc = (Map<String, Object>) ((Map<String, Object>) c.get("reviewers")).get("C");
        assertThat(((Map<String, Object>) b.get("sensitivity"))).containsEntry("caught", (int) planted).containsEntry("of", (int) planted)
                .containsEntry("estimate", 1.0);
        assertThat(((Map<String, Object>) cc.get("sensitivity"))).containsEntry("caught", 0).containsEntry("estimate", 0.0);
        assertThat(((Map<String, Object>) b.get("false_flag_rate"))).containsEntry("failed", 0).containsEntry("of", (int) clean);
        // the issues attributed in the canaries' answers are counted: every FAIL of the run was a canary's
        assertThat(((Map<String, Object>) report.get("run")).get("issues_reattributed")).isEqualTo((int) planted);
        Map<String, Object> panel = (Map<String, Object>) ((Map<String, Object>) c.get("panel")).get("sensitivity");
        // exact 95 % interval of n of n: [0.025^(1/n), 1]
        List<Double> ci = (List<Double>) panel.get("interval_95");
        assertThat(ci.get(0)).isCloseTo(Math.pow(0.025, 1.0 / planted), org.assertj.core.api.Assertions.within(1e-9));
        assertThat(ci.get(1)).isEqualTo(1.0);
        // the bound says what it covers, with the sensitivity beside it
        Map<String, Object> bound = (Map<String, Object>) ((Map<String, Object>) report.get("run")).get("bound");
        assertThat(bound.get("criteria_judged_by_panel")).isEqualTo(List.of("on-specification", "original"));
        assertThat(((Number) bound.get("all_defects_of_these_kinds_below")).doubleValue()).isCloseTo(Math.min(1.0,
                ((Number) bound.get("defect_rate_below")).doubleValue() / Math.pow(0.025, 1.0 / planted)),
                org.assertj.core.api.Assertions.within(1e-9));
        assertThat(output).contains("It covers the criteria the panel judged (on-specification, original); the panel caught "
                + planted + " of " + planted + " canaries");
        // nothing was fixed, and every item is in catalog.csv
        assertThat(ScriptedLoopFunctionalTests.records(run.resolve("changes.csv"))).isEmpty();
        assertThat(ScriptedLoopFunctionalTests.records(run.resolve("catalog.csv"))).hasSize(400);
        noCanaryInAnyOutput(canaries, Files.readString(dir.resolve("catalog.csv")));
    }

    @Test
    void anItemWhoseCleanCopyAReviewerFailedIsHeldNotShipped() throws Exception {
        // given reviewer B failing a catalog text the second time it is asked about it (a clean copy is
        // its item's text under the item's id: a second look at the same text), C passing every text
        Path job = job(1);
        Map<String, Integer> seen = new java.util.concurrent.ConcurrentHashMap<>();
        Predicate<ReviewRequest> secondLook = r -> seen.merge(r.itemId() + "\n" + r.content(), 1, Integer::sum) > 1;
        Extensions ext = new Extensions(Map.of("lexical", failing(secondLook), "semantic", failing(r -> false)),
                request -> new FixOutcome.CannotFix("scripted"));
        ByteArrayOutputStream out = new ByteArrayOutputStream();

        // when the job runs
        int exit = run(job, ext, out);

        // then every clean copy was failed (the panel does not fit: its false-flag rate is 1), and each
        // item whose clean copy failed is held FAIL_UNRESOLVED, in neither verified.csv nor catalog.csv
        assertThat(exit).as(out.toString(StandardCharsets.UTF_8)).isEqualTo(3);
        List<String> cleanCopies = canaries().stream().map(Map.Entry::getValue).filter(c -> !c.planted()).map(Canary::itemId)
                .toList();
        assertThat(cleanCopies).isNotEmpty();
        Path run = dir.resolve("out/loop/r1");
        assertThat(run.resolve("catalog.csv")).doesNotExist();
        assertThat(ScriptedLoopFunctionalTests.records(run.resolve("verified.csv"))).noneMatch(r -> cleanCopies.contains(r.get("id")));
        Map<String, String> held = new HashMap<>();
        ScriptedLoopFunctionalTests.records(run.resolve("escalations.csv")).forEach(r -> held.put(r.get("item_id"), r.get("reason")));
        assertThat(cleanCopies).allSatisfy(id -> assertThat(held).containsEntry(id, "FAIL_UNRESOLVED"));
    }

    @Test
    void anItemHeldForItsCleanCopysFailIsNotShippedWhenALaterRoundPassesItOnReusedReviews() throws Exception {
        // given a panel that fits by the job's limits (sensitivity 0, any false-flag rate): B fails a tenth
        // of the catalog always (so rounds go on) and a catalog text the second time it is asked about it
        // (a clean copy); C passes everything
        Path job = job(3);
        Files.writeString(job, Files.readString(job).replace("  seed: 7\n", "  seed: 7\n  full-review-below: 190\n")
                + "  min-panel-sensitivity: 0\n  max-false-flag-rate: 1\n  max-fail-share: 1\n");
        Map<String, String> texts = new HashMap<>();
        for (List<String> row : TestJobsAccess.rows(400)) {
            texts.put(row.get(0), row.get(7));
        }
        Map<String, Integer> seen = new java.util.concurrent.ConcurrentHashMap<>();
        java.util.concurrent.atomic.AtomicBoolean canaryPhase = new java.util.concurrent.atomic.AtomicBoolean();
        java.util.concurrent.atomic.AtomicBoolean scan = new java.util.concurrent.atomic.AtomicBoolean();
        Predicate<ReviewRequest> bad = r -> {
            if (Math.floorMod(r.itemId().hashCode(), 10) == 0) {
                return true;
            }
            if (!r.content().equals(texts.get(r.itemId()))) {
                return false;
            }
            int n = seen.merge(r.itemId(), 1, Integer::sum);
            if (n == 2 && !scan.get()) {
                canaryPhase.set(true);
                return true; // round 1's clean copies: the second look at a sampled item's text
            }
            if (n == 1 && canaryPhase.get()) {
                scan.set(true); // the batch fix's scan of the unsampled items has begun
            }
            return false;
        };
        Extensions ext = new Extensions(Map.of("lexical", failing(bad), "semantic", failing(r -> false)),
                request -> new FixOutcome.CannotFix("scripted"));
        ByteArrayOutputStream out = new ByteArrayOutputStream();

        int exit = run(job, ext, out);

        List<String> cleanCopies = canaries().stream().map(e -> e.getKey() + ":" + e.getValue().itemId() + (e.getValue().planted() ? "P" : "C"))
                .toList();
        List<String> failedClean = canaries().stream().filter(e -> e.getKey() == 1).map(Map.Entry::getValue).filter(c -> !c.planted())
                .map(Canary::itemId).toList();
        Path run = dir.resolve("out/loop/r1");
        Path shippedFile = Files.exists(run.resolve("catalog.csv")) ? run.resolve("catalog.csv") : run.resolve("verified.csv");
        List<String> shipped = ScriptedLoopFunctionalTests.records(shippedFile).stream().map(r -> r.get("id")).toList();
        String o = out.toString(StandardCharsets.UTF_8);
        System.out.println("RV15D exit " + exit + " canaries " + cleanCopies + " shipped file " + shippedFile.getFileName()
                + " failed clean copies shipped " + failedClean.stream().filter(shipped::contains).toList());
        o.lines().filter(l -> l.contains("decide:") || failedClean.stream().anyMatch(l::contains)).forEach(l -> System.out.println("RV15D " + l));
        assertThat(failedClean).isNotEmpty();
        assertThat(shipped).as(o).doesNotContainAnyElementsOf(failedClean);
    }

    @Test
    void aSampleWhoseItemsACleanCopyFailedIsNotCountedClean() throws Exception {
        Path job = job(3);
        Files.writeString(job, Files.readString(job)
                + "  acceptance-number: 0\n  min-panel-sensitivity: 0\n  max-false-flag-rate: 1\n  max-fail-share: 1\n");
        Map<String, String> texts = new HashMap<>();
        for (List<String> row : TestJobsAccess.rows(400)) {
            texts.put(row.get(0), row.get(7));
        }
        // the lexical reviewer passes every original text the first time it sees it and fails it the
        // second time: in a clean canary's review, after the item's own review passed it
        Map<String, Integer> seen = new java.util.concurrent.ConcurrentHashMap<>();
        Predicate<ReviewRequest> bad = r -> r.content().equals(texts.get(r.itemId())) && seen.merge(r.itemId(), 1, Integer::sum) == 2;
        Extensions ext = new Extensions(Map.of("lexical", failing(bad), "semantic", failing(r -> false)),
                request -> new FixOutcome.CannotFix("scripted"));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        run(job, ext, out);
        Path run = dir.resolve("out/loop/r1");
        Map<String, String> held = new HashMap<>();
        ScriptedLoopFunctionalTests.records(run.resolve("escalations.csv")).forEach(r -> held.put(r.get("item_id"), r.get("reason")));
        assertThat(held).containsValue("FAIL_UNRESOLVED");
        assertThat(run.resolve("catalog.csv")).as("a sample with an unresolved FAIL above acceptance number 0 is not clean")
                .doesNotExist();
    }
}
