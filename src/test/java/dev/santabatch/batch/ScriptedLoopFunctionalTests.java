package dev.santabatch.batch;

import dev.santabatch.review.step.ReviewerType;
import dev.santabatch.review.step.ScriptedReviewer;
import static org.assertj.core.api.Assertions.assertThat;

import dev.santabatch.execution.StopSignal;
import dev.santabatch.config.ReviewerSpec;
import dev.santabatch.review.Check;
import dev.santabatch.review.CheckResult;
import dev.santabatch.review.FixOutcome;
import dev.santabatch.review.Review;
import dev.santabatch.review.ReviewOutcome;
import dev.santabatch.review.Reviewer;
import dev.santabatch.review.Verdict;
import dev.santabatch.run.Launcher;
import dev.santabatch.run.RunRequest;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVRecord;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole loop with scripted reviewers and fixer: a systematic defect (a boilerplate marker in a
 * fifth of the catalog) is found in the sample, batch-fixed across the catalog, and the next sample
 * comes back clean.
 */
public class ScriptedLoopFunctionalTests {

    public static final String MARKER = " Shop now, limited stock!";
    static final String ODDITY = " Guests rave about the harbour view of the Villa Sol next door.";

    @TempDir
    Path dir;

    @BeforeEach
    void reset() {
        StopSignal.reset();
    }

    /** Fails on-specification when the text carries the marker; passes everything else. */
    public static class MarkerReviewer implements Reviewer {
        private final ReviewerSpec spec;
        private final String wording;

        public MarkerReviewer(ReviewerSpec spec, String wording) {
            this.spec = spec;
            this.wording = wording;
        }

        @Override
        public String id() {
            return spec.id();
        }

        @Override
        public Set<String> criteria() {
            return new LinkedHashSet<>(spec.criteria());
        }

        @Override
        public ReviewOutcome review(dev.santabatch.review.ReviewRequest request) {
            boolean bad = request.content().contains(MARKER.strip());
            List<Check> checks = new ArrayList<>();
            for (var c : request.rubric()) {
                boolean fail = bad && c.id().equals("on-specification");
                checks.add(new Check(c.id(), fail ? CheckResult.FAIL : CheckResult.PASS, fail ? "marker" : "ok"));
            }
            Review review = new Review(bad ? Verdict.FAIL : Verdict.PASS, checks,
                    bad ? List.of("on-specification: " + wording) : List.of(), List.of());
            return new ReviewOutcome.Reviewed(review, Duration.ofMillis(1));
        }
    }

    static final List<dev.santabatch.review.FixRequest> FIX_REQUESTS = java.util.Collections.synchronizedList(new ArrayList<>());

    static Extensions scripted(AtomicInteger fixes) {
        ReviewerType b = spec -> new MarkerReviewer(spec, "carries the shop-now boilerplate sentence");
        ReviewerType c = spec -> new MarkerReviewer(spec, "carries the shop-now boilerplate sentence");
        return new Extensions(Map.of("lexical", b, "semantic", c), request -> {
            fixes.incrementAndGet();
            FIX_REQUESTS.add(request);
            return new FixOutcome.Fixed(request.content().replace(MARKER, ""));
        });
    }

    /** The marker reviewers, and a fixer with no fix for the marker: marked items are held, NO_FIX. */
    static Extensions cannotFix() {
        ReviewerType marker = spec -> new MarkerReviewer(spec, "carries the shop-now boilerplate sentence");
        return new Extensions(Map.of("lexical", marker, "semantic", marker),
                request -> new FixOutcome.CannotFix("no offline fix: scripted"));
    }

    @Test
    void aSystematicPatternIsBatchFixedAndTheNextSampleIsClean() throws Exception {
        // given 400 items, every fifth carrying the marker
        Path job = markedLoopJob(400);
        AtomicInteger fixes = new AtomicInteger();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        FIX_REQUESTS.clear();

        // when the job runs
        int exit = Extensions.run(new RunRequest(job, null, dir.resolve("out"), "r1", null),
                dev.santabatch.run.TestJobsAccess.h2(dir), new PrintStream(out, true, StandardCharsets.UTF_8), System.err,
                scripted(fixes));

        // then it converges clean, with batch-fix revisions naming the round and the pattern
        String output = out.toString(StandardCharsets.UTF_8);
        assertThat(exit).as(output).isZero();
        assertThat(output).contains("status:   CLEAN");
        Path run = dir.resolve("out/loop/r1");
        List<CSVRecord> changes = records(run.resolve("changes.csv"));
        List<CSVRecord> batch = changes.stream().filter(c -> c.get("cause").equals("batch-fix")).toList();
        List<CSVRecord> santa = changes.stream().filter(c -> c.get("cause").equals("santa-fix")).toList();
        assertThat(santa).isNotEmpty();
        assertThat(batch).isNotEmpty();
        // the pattern column names the pattern by its id in report.json, its criterion and its label
        assertThat(batch).allSatisfy(c -> {
            assertThat(c.get("round")).isEqualTo("1");
            assertThat(c.get("pattern")).isEqualTo("r1-p1 on-specification: carries the shop-now boilerplate sentence");
            assertThat(c.get("after")).doesNotContain(MARKER.strip());
        });
        assertThat(santa.size() + batch.size()).isEqualTo(80);
        // the batch fixer was given the sample's own accepted fixes of the pattern as examples
        List<dev.santabatch.review.FixRequest> withExamples =
                FIX_REQUESTS.stream().filter(r -> !r.examples().isEmpty()).toList();
        assertThat(withExamples).hasSize(batch.size());
        assertThat(withExamples.get(0).examples()).allSatisfy(e -> {
            assertThat(e.before()).contains(MARKER.strip());
            assertThat(e.after()).doesNotContain(MARKER.strip());
            assertThat(santa).anySatisfy(c -> assertThat(c.get("after")).isEqualTo(e.after()));
        });
        List<CSVRecord> shipped = records(run.resolve("catalog.csv"));
        assertThat(shipped).hasSize(400).noneSatisfy(r -> assertThat(r.get("description")).contains(MARKER.strip()));
        Map<String, Object> report = dev.santabatch.export.RunReport.read(run.resolve("report.json"));
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> rounds = (List<Map<String, Object>>) report.get("rounds");
        assertThat(rounds).hasSize(2);
        assertThat(rounds.get(0).get("decision")).isEqualTo("continue");
        assertThat(rounds.get(1).get("decision")).isEqualTo("clean");
        assertThat(rounds.get(1).get("first_pass_rate")).isEqualTo(1.0);
        assertThat(report.get("status")).isEqualTo("clean");
        // the batch-fix rows join to the report's pattern by its id
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> patterns = (List<Map<String, Object>>) rounds.get(0).get("patterns");
        assertThat(patterns).filteredOn(p -> "r1-p1".equals(p.get("id"))).singleElement().satisfies(p -> {
            assertThat(p.get("criterion")).isEqualTo("on-specification");
            assertThat(p.get("label")).isEqualTo("on-specification: carries the shop-now boilerplate sentence");
            assertThat(((Number) p.get("fixed")).intValue()).isEqualTo(batch.size());
        });
    }

    @Test
    void aFailTheBatchFixScanFindsOutsideEveryPatternIsNeverShipped() throws Exception {
        // given the marked catalog (a systematic pattern) and four items with an isolated defect that
        // reviewer B fails on another criterion: too few to be systematic, so the batch fix, which
        // scans every eligible item with the panel, matches them to no pattern and fixes nothing
        List<String> odd = List.of("T0003", "T0101", "T0202", "T0303");
        Path job = markedLoopJob(400, odd);
        Files.writeString(job, Files.readString(job) + "santa:\n  systematic-min-items: 10\n");
        ReviewerType b = spec -> new MarkerReviewer(spec, "carries the shop-now boilerplate sentence") {
            @Override
            public ReviewOutcome review(dev.santabatch.review.ReviewRequest request) {
                if (!request.content().contains(ODDITY.strip())) {
                    return super.review(request);
                }
                List<Check> checks = new ArrayList<>();
                for (var c : request.rubric()) {
                    boolean fail = c.id().equals("original");
                    checks.add(new Check(c.id(), fail ? CheckResult.FAIL : CheckResult.PASS, fail ? "copied" : "ok"));
                }
                return new ReviewOutcome.Reviewed(new Review(Verdict.FAIL, checks,
                        List.of("original: copies a sentence of another listing"), List.of()), Duration.ofMillis(1));
            }
        };
        ReviewerType c = spec -> new MarkerReviewer(spec, "carries the shop-now boilerplate sentence");
        Extensions ext = new Extensions(Map.of("lexical", b, "semantic", c),
                request -> new FixOutcome.Fixed(request.content().replace(MARKER, "")));
        ByteArrayOutputStream out = new ByteArrayOutputStream();

        // when
        int exit = Extensions.run(new RunRequest(job, null, dir.resolve("out"), "r1", null),
                dev.santabatch.run.TestJobsAccess.h2(dir), new PrintStream(out, true, StandardCharsets.UTF_8), System.err, ext);

        // then the run is clean, and no item B failed ships: the unsampled ones are held FAIL_UNRESOLVED
        String output = out.toString(StandardCharsets.UTF_8);
        assertThat(exit).as(output).isZero();
        Path run = dir.resolve("out/loop/r1");
        List<String> sampled = new ArrayList<>();
        String url = (String) dev.santabatch.run.TestJobsAccess.h2(dir).get("spring.datasource.url");
        try (java.sql.Connection conn = java.sql.DriverManager.getConnection(url, "sa", "");
                java.sql.ResultSet rs = conn.createStatement().executeQuery("SELECT DISTINCT item_id FROM sb_sample")) {
            while (rs.next()) {
                sampled.add(rs.getString(1));
            }
        }
        List<String> neverSampled = odd.stream().filter(id -> !sampled.contains(id)).toList();
        assertThat(neverSampled).as("the test needs an odd item no sample drew").isNotEmpty();
        assertThat(records(run.resolve("catalog.csv"))).noneSatisfy(r -> assertThat(r.get("description")).contains(ODDITY.strip()));
        List<CSVRecord> held = records(run.resolve("escalations.csv"));
        for (String id : neverSampled) {
            assertThat(held).filteredOn(h -> h.get("item_id").equals(id)).singleElement().satisfies(h -> {
                assertThat(h.get("reason")).isEqualTo("FAIL_UNRESOLVED");
                assertThat(h.get("open_issues")).isEqualTo("B: original: copies a sentence of another listing");
            });
        }
    }

    @Test
    void aSecondFailOnAPatternsCriterionThatNoPatternCoversIsNeverShipped() throws Exception {
        // given the marked catalog (a systematic pattern on on-specification) where B also fails four
        // marked items on on-specification for another reason: the batch fix fixes their pattern's
        // issue (the marker) and nothing else, so the other issue must stay with the fixed revision
        List<String> odd = List.of("T0005", "T0100", "T0200", "T0305");
        Path job = markedLoopJob(400, odd);
        Files.writeString(job, Files.readString(job) + "santa:\n  systematic-min-items: 10\n");
        String second = "on-specification: praises the harbour view of the villa next door";
        ReviewerType b = spec -> new MarkerReviewer(spec, "carries the shop-now boilerplate sentence") {
            @Override
            public ReviewOutcome review(dev.santabatch.review.ReviewRequest request) {
                if (!request.content().contains(ODDITY.strip())) {
                    return super.review(request);
                }
                boolean marked = request.content().contains(MARKER.strip());
                List<Check> checks = new ArrayList<>();
                for (var c : request.rubric()) {
                    boolean fail = c.id().equals("on-specification");
                    checks.add(new Check(c.id(), fail ? CheckResult.FAIL : CheckResult.PASS, fail ? "off" : "ok"));
                }
                List<String> issues = marked ? List.of("on-specification: carries the shop-now boilerplate sentence", second)
                        : List.of(second);
                return new ReviewOutcome.Reviewed(new Review(Verdict.FAIL, checks, issues, List.of()), Duration.ofMillis(1));
            }
        };
        ReviewerType c = spec -> new MarkerReviewer(spec, "carries the shop-now boilerplate sentence");
        Extensions ext = new Extensions(Map.of("lexical", b, "semantic", c),
                request -> new FixOutcome.Fixed(request.content().replace(MARKER, "")));
        ByteArrayOutputStream out = new ByteArrayOutputStream();

        // when
        int exit = Extensions.run(new RunRequest(job, null, dir.resolve("out"), "r1", null),
                dev.santabatch.run.TestJobsAccess.h2(dir), new PrintStream(out, true, StandardCharsets.UTF_8), System.err, ext);

        // then no item B failed ships: the unsampled ones are batch-fixed for the marker and held
        // FAIL_UNRESOLVED with the issue the batch fix did not fix
        String output = out.toString(StandardCharsets.UTF_8);
        assertThat(exit).as(output).isZero();
        Path run = dir.resolve("out/loop/r1");
        List<String> sampled = new ArrayList<>();
        String url = (String) dev.santabatch.run.TestJobsAccess.h2(dir).get("spring.datasource.url");
        try (java.sql.Connection conn = java.sql.DriverManager.getConnection(url, "sa", "");
                java.sql.ResultSet rs = conn.createStatement().executeQuery("SELECT DISTINCT item_id FROM sb_sample")) {
            while (rs.next()) {
                sampled.add(rs.getString(1));
            }
        }
        List<String> neverSampled = odd.stream().filter(id -> !sampled.contains(id)).toList();
        assertThat(neverSampled).as("the test needs an odd item no sample drew").isNotEmpty();
        assertThat(records(run.resolve("catalog.csv"))).noneSatisfy(r -> assertThat(r.get("description")).contains(ODDITY.strip()));
        List<CSVRecord> batch = records(run.resolve("changes.csv")).stream().filter(r -> r.get("cause").equals("batch-fix")).toList();
        List<CSVRecord> held = records(run.resolve("escalations.csv"));
        for (String id : neverSampled) {
            assertThat(batch).filteredOn(r -> r.get("item_id").equals(id)).singleElement()
                    .satisfies(r -> assertThat(r.get("after")).doesNotContain(MARKER.strip()).contains(ODDITY.strip()));
            assertThat(held).filteredOn(h -> h.get("item_id").equals(id)).singleElement().satisfies(h -> {
                assertThat(h.get("reason")).isEqualTo("FAIL_UNRESOLVED");
                assertThat(h.get("open_issues")).isEqualTo("B: " + second);
            });
        }
    }

    @Test
    void everyIssueTheValidatorAttributesIsCountedIncludingTheBatchFixScans() throws Exception {
        // given reviewers that write their issue without its criterion prefix (the seed's free-text
        // shape): the validator gives it to the one failed check, in the sample, the Santa loop's
        // fresh reviews and the batch fix's scan of every eligible item alike
        Path job = markedLoopJob(400);
        AtomicInteger unprefixed = new AtomicInteger();
        ReviewerType free = spec -> new MarkerReviewer(spec, "carries the shop-now boilerplate sentence") {
            @Override
            public ReviewOutcome review(dev.santabatch.review.ReviewRequest request) {
                ReviewOutcome.Reviewed r = (ReviewOutcome.Reviewed) super.review(request);
                if (r.review().verdict() != Verdict.FAIL) {
                    return r;
                }
                unprefixed.incrementAndGet();
                return new ReviewOutcome.Reviewed(new Review(Verdict.FAIL, r.review().checks(),
                        List.of("carries the shop-now boilerplate sentence"), List.of()), r.duration());
            }
        };
        Extensions ext = new Extensions(Map.of("lexical", free, "semantic", free),
                request -> new FixOutcome.Fixed(request.content().replace(MARKER, "")));
        ByteArrayOutputStream out = new ByteArrayOutputStream();

        // when
        int exit = Extensions.run(new RunRequest(job, null, dir.resolve("out"), "r1", null),
                dev.santabatch.run.TestJobsAccess.h2(dir), new PrintStream(out, true, StandardCharsets.UTF_8), System.err, ext);

        // then every one is counted, the scan's too (most of them: it reviews every eligible item)
        assertThat(exit).as(out.toString(StandardCharsets.UTF_8)).isZero();
        Map<String, Object> report = dev.santabatch.export.RunReport.read(dir.resolve("out/loop/r1/report.json"));
        @SuppressWarnings("unchecked")
        Map<String, Object> run = (Map<String, Object>) report.get("run");
        assertThat(unprefixed.get()).isGreaterThan(100);
        assertThat(((Number) run.get("issues_reattributed")).intValue()).isEqualTo(unprefixed.get());
    }

    @Test
    void aNotCleanRunStopsWithExit3AndResumesAfterRaisingMaxRounds() throws Exception {
        Path job = markedCatalog(1);
        AtomicInteger fixes = new AtomicInteger();
        ByteArrayOutputStream out = new ByteArrayOutputStream();

        int first = Extensions.run(new RunRequest(job, null, dir.resolve("out"), "r1", null),
                dev.santabatch.run.TestJobsAccess.h2(dir), new PrintStream(out, true, StandardCharsets.UTF_8), System.err,
                scripted(fixes));

        assertThat(first).as(out.toString(StandardCharsets.UTF_8)).isEqualTo(3);
        Map<String, Object> report = dev.santabatch.export.RunReport.read(dir.resolve("out/loop/r1/report.json"));
        assertThat(report.get("status")).isEqualTo("not-clean");
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> stopped = (List<Map<String, Object>>) report.get("rounds");
        assertThat(stopped).extracting(r -> r.get("decision")).containsExactly("not-clean");
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("raise santa.max-rounds");

        Files.writeString(job, Files.readString(job).replace("max-rounds: 1", "max-rounds: 4"));
        ByteArrayOutputStream again = new ByteArrayOutputStream();
        int second = Extensions.run(new RunRequest(job, null, dir.resolve("out"), "r1", null),
                dev.santabatch.run.TestJobsAccess.h2(dir), new PrintStream(again, true, StandardCharsets.UTF_8), System.err,
                scripted(fixes));

        String output = again.toString(StandardCharsets.UTF_8);
        assertThat(second).as(output).isZero();
        assertThat(output).contains("resuming run 'r1'").contains("status:   CLEAN");
        report = dev.santabatch.export.RunReport.read(dir.resolve("out/loop/r1/report.json"));
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> rounds = (List<Map<String, Object>>) report.get("rounds");
        // round 1's decision reads what happened next: the loop went on once max rounds were raised
        assertThat(rounds).extracting(r -> r.get("decision")).containsExactly("continue-after-max-rounds-raised", "clean");
    }

    @Test
    void tooManyItemsFailingToReviewFailTheRunAndARestartRetriesThem() throws Exception {
        Path job = markedCatalog(5);
        java.util.concurrent.atomic.AtomicBoolean down = new java.util.concurrent.atomic.AtomicBoolean(true);
        ReviewerType flaky = spec -> {
            Reviewer healthy = new MarkerReviewer(spec, "carries the shop-now boilerplate sentence");
            return new Reviewer() {
                @Override
                public String id() {
                    return healthy.id();
                }

                @Override
                public Set<String> criteria() {
                    return healthy.criteria();
                }

                @Override
                public ReviewOutcome review(dev.santabatch.review.ReviewRequest request) {
                    int n = Integer.parseInt(request.itemId().substring(1));
                    if (down.get() && n % 3 == 0) {
                        return new ReviewOutcome.FailedToReview(ReviewOutcome.FailureKind.TRANSPORT, "connection refused");
                    }
                    return healthy.review(request);
                }
            };
        };
        Extensions ext = new Extensions(Map.of("lexical", spec -> new MarkerReviewer(spec, "carries the shop-now boilerplate sentence"),
                "semantic", flaky), request -> new FixOutcome.Fixed(request.content().replace(MARKER, "")));
        ByteArrayOutputStream out = new ByteArrayOutputStream();

        int failed = Extensions.run(new RunRequest(job, null, dir.resolve("out"), "r1", null),
                dev.santabatch.run.TestJobsAccess.h2(dir), new PrintStream(out, true, StandardCharsets.UTF_8), System.err, ext);

        assertThat(failed).as(out.toString(StandardCharsets.UTF_8)).isEqualTo(1);
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("FAILED").contains("could not be reviewed");
        assertThat(Files.exists(dir.resolve("out/loop/r1/catalog.csv"))).isFalse();
        // a failed run still writes report.json, status "failed" first, and the summary says it first
        Map<String, Object> failedReport = dev.santabatch.export.RunReport.read(dir.resolve("out/loop/r1/report.json"));
        assertThat(failedReport.keySet().iterator().next()).isEqualTo("status");
        assertThat(failedReport.get("status")).isEqualTo("failed");
        assertThat(failedReport.get("failures").toString()).contains("could not be reviewed");
        assertThat(failedReport.get("restart").toString()).contains("--run-id r1");
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> failedRounds = (List<Map<String, Object>>) failedReport.get("rounds");
        assertThat(failedRounds).hasSize(1);
        assertThat(((Number) failedRounds.get(0).get("unreviewed")).intValue()).isPositive();
        String summary = out.toString(StandardCharsets.UTF_8);
        assertThat(summary.substring(summary.indexOf("(exit 1)")).lines().skip(1).findFirst().orElseThrow())
                .isEqualTo("  status:   FAILED (nothing shipped: no catalog.csv)");
        try (var files = Files.list(dir.resolve("out/loop/r1"))) {
            assertThat(files.map(f -> f.getFileName().toString())).containsExactlyInAnyOrder("report.json", "report.html");
        }
        // report.html says it too, first
        String page = Files.readString(dir.resolve("out/loop/r1/report.html"), StandardCharsets.UTF_8);
        assertThat(page).contains("<div class=\"status bad\">FAILED</div>").contains("could not be reviewed");

        down.set(false);
        ByteArrayOutputStream again = new ByteArrayOutputStream();
        int resumed = Extensions.run(new RunRequest(job, null, dir.resolve("out"), "r1", null),
                dev.santabatch.run.TestJobsAccess.h2(dir), new PrintStream(again, true, StandardCharsets.UTF_8), System.err, ext);

        String output = again.toString(StandardCharsets.UTF_8);
        assertThat(resumed).as(output).isZero();
        Map<String, Object> report = dev.santabatch.export.RunReport.read(dir.resolve("out/loop/r1/report.json"));
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> rounds = (List<Map<String, Object>>) report.get("rounds");
        assertThat(rounds.get(0).get("unreviewed")).as("round 1's unreviewed items were retried").isEqualTo(0);
        assertThat(report.get("status")).isEqualTo("clean");
    }

    @Test
    void aRestartIsRefusedWhenTheCatalogOrTheRubricChanged() throws Exception {
        Path job = markedCatalog(1);
        assertThat(Extensions.run(new RunRequest(job, null, dir.resolve("out"), "r1", null),
                        dev.santabatch.run.TestJobsAccess.h2(dir), new PrintStream(new ByteArrayOutputStream()), System.err,
                        scripted(new AtomicInteger())))
                .isEqualTo(3);
        String yaml = Files.readString(job);
        Files.writeString(job, yaml.replace("max-rounds: 1", "max-rounds: 3").replace("pass: Not boilerplate.", "pass: Original."));
        ByteArrayOutputStream err = new ByteArrayOutputStream();

        int rubricChanged = Extensions.run(new RunRequest(job, null, dir.resolve("out"), "r1", null),
                dev.santabatch.run.TestJobsAccess.h2(dir), System.out, new PrintStream(err, true, StandardCharsets.UTF_8),
                scripted(new AtomicInteger()));

        assertThat(rubricChanged).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("the rubric").contains("changed since run 'r1' started");

        Files.writeString(job, yaml.replace("max-rounds: 1", "max-rounds: 3"));
        Path catalog = dir.resolve("in.csv");
        Files.writeString(catalog, Files.readString(catalog).replace("Item 7,", "Item Seven,"));
        ByteArrayOutputStream err2 = new ByteArrayOutputStream();
        int catalogChanged = Extensions.run(new RunRequest(job, null, dir.resolve("out"), "r1", null),
                dev.santabatch.run.TestJobsAccess.h2(dir), System.out, new PrintStream(err2, true, StandardCharsets.UTF_8),
                scripted(new AtomicInteger()));
        assertThat(catalogChanged).isEqualTo(2);
        assertThat(err2.toString(StandardCharsets.UTF_8)).contains("the catalog").contains("changed since run 'r1' started");
    }

    @Test
    void theAuditRoundTripPutsTheEscapeRateAndItsIntervalInTheReport() throws Exception {
        Path job = markedCatalog(5);
        assertThat(Extensions.run(new RunRequest(job, null, dir.resolve("out"), "r1", null),
                        dev.santabatch.run.TestJobsAccess.h2(dir), new PrintStream(new ByteArrayOutputStream()), System.err,
                        scripted(new AtomicInteger())))
                .isZero();
        Path run = dir.resolve("out/loop/r1");
        // before a hand-back the seed's escape-rate target is not measured, and says how to measure it
        assertThat(escapeTarget(run)).containsEntry("status", "NOT_MEASURED").containsEntry("measured", null)
                .hasEntrySatisfying("how_to_measure", h -> assertThat(h.toString())
                        .contains("santa-batch audit " + run + " <filled-audit.csv>"));
        List<CSVRecord> sample = records(run.resolve("audit.csv"));
        assertThat(sample).hasSize(20).allSatisfy(r -> assertThat(r.get("verdict")).isEmpty());
        StringBuilder filled = new StringBuilder("item_id,content,verdict,note\n");
        for (int i = 0; i < sample.size(); i++) {
            filled.append(sample.get(i).get("item_id")).append(",x,").append(i == 0 ? "defective" : "OK").append(",\n");
        }
        Path back = dir.resolve("filled.csv");
        Files.writeString(back, filled);
        ByteArrayOutputStream out = new ByteArrayOutputStream();

        int exit = dev.santabatch.cli.Cli.run(new String[] {"audit", run.toString(), back.toString()},
                dev.santabatch.run.TestJobsAccess.h2(dir), new PrintStream(out, true, StandardCharsets.UTF_8), System.err);

        assertThat(exit).isZero();
        Map<String, Object> report = dev.santabatch.export.RunReport.read(run.resolve("report.json"));
        @SuppressWarnings("unchecked")
        Map<String, Object> audit = (Map<String, Object>) report.get("escape_rate_audit");
        assertThat(audit.get("audited")).isEqualTo(20);
        assertThat(audit.get("defective")).isEqualTo(1);
        assertThat((Double) audit.get("escape_rate")).isEqualTo(0.05);
        @SuppressWarnings("unchecked")
        List<Double> ci = (List<Double>) audit.get("interval_95");
        assertThat(ci.get(0)).isCloseTo(0.0013, org.assertj.core.data.Offset.offset(0.0001));
        assertThat(ci.get(1)).isCloseTo(0.2487, org.assertj.core.data.Offset.offset(0.0001));
        // and the seed's escape-rate target is measured by it, with its interval
        assertThat(escapeTarget(run)).containsEntry("measured", 0.05).containsEntry("status", "MISSED")
                .containsEntry("audited", 20).containsEntry("defective", 1).containsEntry("interval_95", ci)
                .doesNotContainKey("how_to_measure");
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("; target 0: MISSED");
        // report.html is rendered again with it
        assertThat(Files.readString(run.resolve("report.html"), StandardCharsets.UTF_8))
                .contains("1 defective of 20 audited shipped items: escape rate 5.0 % (95 % CI 0.1 % to 24.9 %)");
        assertThat(dev.santabatch.export.RunReport.summary((dev.santabatch.export.Report) dev.santabatch.export.RunReport.load(run.resolve("report.json"))))
                .contains("escape:   5.0 % of 20 audited shipped items defective (95 % CI 0.1-24.9 %); target 0: MISSED");

        Files.writeString(back, "item_id,content,verdict,note\n" + sample.get(0).get("item_id") + ",x,maybe,\n");
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int bad = dev.santabatch.cli.Cli.run(new String[] {"audit", run.toString(), back.toString()},
                dev.santabatch.run.TestJobsAccess.h2(dir), System.out, new PrintStream(err, true, StandardCharsets.UTF_8));
        assertThat(bad).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("line 2").contains("maybe");
    }

    @Test
    void theAuditEscapeRateCountsTheStoredVerdictsOfTheCurrentAuditSampleInTheAuditCommandAndTheExport()
            throws Exception {
        // given a not-clean run (max rounds 1) and its audit.csv handed back in full: one defective
        Path job = markedCatalog(1);
        assertThat(Extensions.run(new RunRequest(job, null, dir.resolve("out"), "r1", null),
                        dev.santabatch.run.TestJobsAccess.h2(dir), new PrintStream(new ByteArrayOutputStream()), System.err,
                        scripted(new AtomicInteger())))
                .isEqualTo(3);
        Path run = dir.resolve("out/loop/r1");
        List<String> first = records(run.resolve("audit.csv")).stream().map(r -> r.get("item_id")).toList();
        assertThat(first).hasSize(20);
        Map<String, String> verdicts = new java.util.HashMap<>();
        StringBuilder full = new StringBuilder("item_id,content,verdict,note\n");
        for (int i = 0; i < first.size(); i++) {
            full.append(first.get(i)).append(",x,").append(i == 0 ? "defective" : "ok").append(",\n");
            verdicts.put(first.get(i), i == 0 ? "defective" : "ok");
        }
        Path back = dir.resolve("filled.csv");
        Files.writeString(back, full);
        assertThat(audit(run, back)).isZero();
        // and a stale stored verdict of an item not in audit.csv (an earlier audit sample's)
        try (var c = java.sql.DriverManager.getConnection(
                "jdbc:h2:file:" + dir.toAbsolutePath().resolve("db/santa") + ";AUTO_SERVER=TRUE", "sa", "")) {
            c.createStatement().executeUpdate("INSERT INTO sb_audit (run_pk, item_id, verdict, note, audited_at)"
                    + " SELECT run_pk, 'T0999', 'defective', NULL, CURRENT_TIMESTAMP FROM sb_run WHERE run_id = 'r1'");
        }

        // when a second hand-back fills in only two rows, both defective
        StringBuilder partial = new StringBuilder("item_id,content,verdict,note\n");
        for (int i = 0; i < first.size(); i++) {
            partial.append(first.get(i)).append(",x,").append(i == 1 || i == 2 ? "defective" : "").append(",\n");
        }
        Files.writeString(back, partial);
        assertThat(audit(run, back)).isZero();

        // then the report counts every stored verdict of audit.csv's 20 items: 3 defective of 20,
        // not the two rows of the file, nor the stale verdict
        verdicts.put(first.get(1), "defective");
        verdicts.put(first.get(2), "defective");
        assertAudit(run, 20, 3, 0);

        // and when the run is resumed (max rounds raised) and exported again, the report counts the
        // stored verdicts of the new audit.csv's items, as the audit command does
        Files.writeString(job, Files.readString(job).replace("max-rounds: 1", "max-rounds: 4"));
        assertThat(Extensions.run(new RunRequest(job, null, dir.resolve("out"), "r1", null),
                        dev.santabatch.run.TestJobsAccess.h2(dir), new PrintStream(new ByteArrayOutputStream()), System.err,
                        scripted(new AtomicInteger())))
                .isZero();
        List<String> second = records(run.resolve("audit.csv")).stream().map(r -> r.get("item_id")).toList();
        long audited = second.stream().filter(verdicts::containsKey).count();
        long defective = second.stream().filter(id -> "defective".equals(verdicts.get(id))).count();
        if (audited == 0) {
            assertThat(dev.santabatch.export.RunReport.read(run.resolve("report.json"))).doesNotContainKey("escape_rate_audit");
        } else {
            assertAudit(run, audited, defective, second.size() - audited);
        }
        Files.writeString(back, "item_id,content,verdict,note\n" + second.get(0) + ",x,ok,\n");
        assertThat(audit(run, back)).isZero();
        verdicts.put(second.get(0), "ok");
        assertAudit(run, second.stream().filter(verdicts::containsKey).count(),
                second.stream().filter(id -> "defective".equals(verdicts.get(id))).count(),
                second.stream().filter(id -> !verdicts.containsKey(id)).count());
    }

    int audit(Path run, Path back) {
        return dev.santabatch.cli.Cli.run(new String[] {"audit", run.toString(), back.toString()},
                dev.santabatch.run.TestJobsAccess.h2(dir), new PrintStream(new ByteArrayOutputStream()), System.err);
    }

    static void assertAudit(Path run, long audited, long defective, long notAudited) throws Exception {
        @SuppressWarnings("unchecked")
        Map<String, Object> audit = (Map<String, Object>) dev.santabatch.export.RunReport.read(run.resolve("report.json"))
                .get("escape_rate_audit");
        assertThat(((Number) audit.get("audited")).longValue()).as("audited").isEqualTo(audited);
        assertThat(((Number) audit.get("defective")).longValue()).as("defective").isEqualTo(defective);
        assertThat(((Number) audit.get("not_audited")).longValue()).as("not audited").isEqualTo(notAudited);
        assertThat(((Number) audit.get("escape_rate")).doubleValue()).isEqualTo(defective / (double) audited);
        // the seed's escape-rate target is the spot-check's, in the audit command's report and the export's
        assertThat(((Number) escapeTarget(run).get("measured")).doubleValue()).isEqualTo(defective / (double) audited);
        assertThat(escapeTarget(run)).containsEntry("status", defective == 0 ? "MET" : "MISSED")
                .containsEntry("interval_95", audit.get("interval_95"));
    }

    /** The seed targets' escape-rate row of the run's report.json. */
    @SuppressWarnings("unchecked")
    static Map<String, Object> escapeTarget(Path run) throws Exception {
        Map<String, Object> runLevel = (Map<String, Object>) dev.santabatch.export.RunReport.read(run.resolve("report.json"))
                .get("run");
        return ((List<Map<String, Object>>) runLevel.get("seed_targets")).stream()
                .filter(t -> "escape-rate".equals(t.get("metric"))).findFirst().orElseThrow();
    }

    @Test
    void itemsTheFixerCannotFixAreHeldWithReasonNoFixInTheSampleAndInTheBatchFix() throws Exception {
        // given the marked catalog and a fixer with no fix for the marker
        Path job = markedCatalog(5);
        Extensions ext = cannotFix();
        ByteArrayOutputStream out = new ByteArrayOutputStream();

        // when
        int exit = Extensions.run(new RunRequest(job, null, dir.resolve("out"), "r1", null),
                dev.santabatch.run.TestJobsAccess.h2(dir), new PrintStream(out, true, StandardCharsets.UTF_8), System.err, ext);

        // then every marked item is held with reason NO_FIX, with no attempted fix, none shipped
        assertThat(exit).as(out.toString(StandardCharsets.UTF_8)).isZero();
        Path run = dir.resolve("out/loop/r1");
        List<CSVRecord> held = records(run.resolve("escalations.csv"));
        assertThat(held).hasSize(80).allSatisfy(r -> {
            assertThat(r.get("reason")).isEqualTo("NO_FIX");
            assertThat(r.get("last_attempt")).isEmpty();
            assertThat(r.get("original")).contains(MARKER.strip());
        });
        List<CSVRecord> inSample = held.stream().filter(r -> r.get("cause").equals("santa-fix")).toList();
        List<CSVRecord> inBatch = held.stream().filter(r -> r.get("cause").equals("batch-fix")).toList();
        // the sampled ones name the issue and why the fixer had no fix for it
        assertThat(inSample).isNotEmpty().allSatisfy(r -> assertThat(r.get("open_issues"))
                .contains("on-specification: carries the shop-now boilerplate sentence").contains("no offline fix: scripted"));
        assertThat(inBatch).isNotEmpty().allSatisfy(r -> {
            assertThat(r.get("pattern")).isEqualTo("r1-p1 on-specification: carries the shop-now boilerplate sentence");
            assertThat(r.get("open_issues")).contains("no offline fix: scripted");
        });
        assertThat(records(run.resolve("catalog.csv"))).hasSize(320);
        Map<String, Object> report = dev.santabatch.export.RunReport.read(run.resolve("report.json"));
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> rounds = (List<Map<String, Object>>) report.get("rounds");
        assertThat(rounds.get(0).get("escalations_by_reason")).isEqualTo(Map.of("NO_FIX", inSample.size()));
        @SuppressWarnings("unchecked")
        Map<String, Object> runLevel = (Map<String, Object>) report.get("run");
        assertThat(runLevel.get("escalations_by_reason")).isEqualTo(Map.of("NO_FIX", 80));
    }

    @Test
    void aResumedRunThatFailsOnA401LeavesAFailedReportAndNoShippableCatalog() throws Exception {
        // given a not-clean run: exported, verified.csv written, exit 3
        Path job = markedCatalog(1);
        assertThat(Extensions.run(new RunRequest(job, null, dir.resolve("out"), "r1", null),
                        dev.santabatch.run.TestJobsAccess.h2(dir), new PrintStream(new ByteArrayOutputStream()), System.err,
                        scripted(new AtomicInteger())))
                .isEqualTo(3);
        Path run = dir.resolve("out/loop/r1");
        assertThat(run.resolve("verified.csv")).exists();
        assertThat(run.resolve("unverified.csv")).exists();

        // when it is resumed after raising max rounds, and a reviewer's model answers 401
        Files.writeString(job, Files.readString(job).replace("max-rounds: 1", "max-rounds: 3"));
        ReviewerType unauthorized = spec -> new Reviewer() {
            @Override
            public String id() {
                return spec.id();
            }

            @Override
            public Set<String> criteria() {
                return new LinkedHashSet<>(spec.criteria());
            }

            @Override
            public ReviewOutcome review(dev.santabatch.review.ReviewRequest request) {
                throw new dev.santabatch.review.ConfigurationException("401 Unauthorized: check OPENAI_API_KEY");
            }
        };
        Extensions ext = new Extensions(Map.of("lexical", spec -> new MarkerReviewer(spec, "x"), "semantic", unauthorized),
                request -> new FixOutcome.Fixed(request.content().replace(MARKER, "")));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int exit = Extensions.run(new RunRequest(job, null, dir.resolve("out"), "r1", null),
                dev.santabatch.run.TestJobsAccess.h2(dir), new PrintStream(out, true, StandardCharsets.UTF_8), System.err, ext);

        // then it fails (exit 1), report.json says failed with the 401, and the earlier export's
        // verified.csv (and the other CSVs) are gone: nothing in the folder looks shippable
        String output = out.toString(StandardCharsets.UTF_8);
        assertThat(exit).as(output).isEqualTo(1);
        assertThat(output).contains("status:   FAILED").contains("401 Unauthorized");
        Map<String, Object> report = dev.santabatch.export.RunReport.read(run.resolve("report.json"));
        assertThat(report.get("status")).isEqualTo("failed");
        assertThat(report.get("failures").toString()).contains("401 Unauthorized");
        @SuppressWarnings("unchecked")
        Map<String, Object> outputs = (Map<String, Object>) report.get("outputs");
        assertThat(outputs.get("shipped")).isEqualTo(0);
        try (var files = Files.list(run)) {
            assertThat(files.map(f -> f.getFileName().toString())).containsExactlyInAnyOrder("report.json", "report.html");
        }
    }

    /** Fails on-specification when {@code bad} says so; passes everything else. */
    static ReviewerType failing(java.util.function.Predicate<dev.santabatch.review.ReviewRequest> bad, String wording) {
        return ScriptedReviewer.answering(r -> bad.test(r) ? List.of("on-specification: " + wording) : List.of());
    }

    @Test
    @SuppressWarnings("unchecked")
    void lowReviewerAgreementIsFlaggedInTheReportAndTheSummary() throws Exception {
        // given reviewers that flag unrelated items: B every fifth item, C every seventh
        Path job = markedCatalog(1);
        Extensions ext = new Extensions(Map.of(
                        "lexical", failing(r -> Integer.parseInt(r.itemId().substring(1)) % 5 == 0, "shop-now boilerplate"),
                        "semantic", failing(r -> Integer.parseInt(r.itemId().substring(1)) % 7 == 0, "about another product")),
                request -> new FixOutcome.CannotFix("scripted"));
        ByteArrayOutputStream out = new ByteArrayOutputStream();

        // when
        int exit = Extensions.run(new RunRequest(job, null, dir.resolve("out"), "r1", null),
                dev.santabatch.run.TestJobsAccess.h2(dir), new PrintStream(out, true, StandardCharsets.UTF_8), System.err, ext);

        // then kappa is below the default 0.4, and the report and the summary say the rubric needs tightening
        String output = out.toString(StandardCharsets.UTF_8);
        assertThat(exit).as(output).isEqualTo(3);
        Map<String, Object> report = dev.santabatch.export.RunReport.read(dir.resolve("out/loop/r1/report.json"));
        Map<String, Object> round1 = (Map<String, Object>) ((List<Map<String, Object>>) report.get("rounds")).get(0);
        Map<String, Object> agreement = (Map<String, Object>) round1.get("agreement");
        assertThat(((Number) agreement.get("kappa")).doubleValue()).isLessThan(0.4);
        assertThat(agreement.get("low_agreement")).isEqualTo(true);
        assertThat(((Number) agreement.get("flagged_by_all")).intValue()).isLessThan(((Number) agreement.get("flagged_by_one")).intValue());
        Map<String, Object> run = (Map<String, Object>) report.get("run");
        assertThat(((Map<String, Object>) run.get("agreement")).get("flag").toString())
                .contains("low reviewer agreement").contains("the rubric needs tightening");
        assertThat(output).contains("<-- low reviewer agreement (kappa below 0.4): the rubric needs tightening");

        // and with the job file's threshold at -1 the same agreement is not flagged (carry-over off:
        // the threshold judges nothing, so r2 would otherwise carry r1's outcomes over unreviewed)
        Files.writeString(job, Files.readString(job) + "  low-agreement-kappa: -1\ncarry-over:\n  enabled: false\n");
        ByteArrayOutputStream out2 = new ByteArrayOutputStream();
        assertThat(Extensions.run(new RunRequest(job, null, dir.resolve("out"), "r2", null),
                        dev.santabatch.run.TestJobsAccess.h2(dir), new PrintStream(out2, true, StandardCharsets.UTF_8),
                        System.err, ext))
                .isEqualTo(3);
        Map<String, Object> relaxed = dev.santabatch.export.RunReport.read(dir.resolve("out/loop/r2/report.json"));
        Map<String, Object> relaxedAgreement = (Map<String, Object>) ((Map<String, Object>) relaxed.get("run")).get("agreement");
        assertThat(relaxedAgreement.get("low_agreement")).isEqualTo(false);
        assertThat(relaxedAgreement).doesNotContainKey("flag");
        assertThat(out2.toString(StandardCharsets.UTF_8)).doesNotContain("low reviewer agreement");
    }

    @Test
    void spreadsheetCellsAreNeutralisedInEscalationsAndAuditButKeptExactInCatalogAndChanges() throws Exception {
        // given every description starting with a dash (a formula character in a spreadsheet)
        List<List<String>> rows = new ArrayList<>();
        for (List<String> r : dev.santabatch.run.TestJobsAccess.rows(400)) {
            List<String> row = new ArrayList<>(r);
            row.set(7, "- " + row.get(7) + (Integer.parseInt(row.get(0).substring(1)) % 5 == 0 ? MARKER : ""));
            rows.add(row);
        }
        Path catalog = dev.santabatch.run.TestJobsAccess.writeCatalog(dir.resolve("in.csv"), rows);
        Path job = dev.santabatch.run.TestJobsAccess.writeJob(dir, "loop", catalog, 50);
        Files.writeString(job, Files.readString(job) + "sampling:\n  seed: 7\n");
        // items fixed in the sample ship; every seventh marked item has no fix and is held
        Extensions ext = new Extensions(Map.of(
                        "lexical", spec -> new MarkerReviewer(spec, "carries the shop-now boilerplate sentence"),
                        "semantic", spec -> new MarkerReviewer(spec, "carries the shop-now boilerplate sentence")),
                request -> Integer.parseInt(request.itemId().substring(1)) % 7 == 0
                        ? new FixOutcome.CannotFix("scripted")
                        : new FixOutcome.Fixed(request.content().replace(MARKER, "")));

        // when
        int exit = Extensions.run(new RunRequest(job, null, dir.resolve("out"), "r1", null),
                dev.santabatch.run.TestJobsAccess.h2(dir), new PrintStream(new ByteArrayOutputStream()), System.err, ext);

        // then
        assertThat(exit).isZero();
        Path run = dir.resolve("out/loop/r1");
        List<CSVRecord> held = records(run.resolve("escalations.csv"));
        assertThat(held).isNotEmpty().allSatisfy(r -> assertThat(r.get("original")).startsWith("'- "));
        assertThat(records(run.resolve("audit.csv"))).hasSize(20).allSatisfy(r -> assertThat(r.get("content")).startsWith("'- "));
        assertThat(records(run.resolve("catalog.csv"))).allSatisfy(r -> assertThat(r.get("description")).startsWith("- "));
        assertThat(records(run.resolve("changes.csv"))).isNotEmpty().allSatisfy(r -> {
            assertThat(r.get("before")).startsWith("- ");
            assertThat(r.get("after")).startsWith("- ");
        });
    }

    @Test
    void anItemStillNaughtyAfterItsLastFixIsHeldWithThatFixAsItsLastAttempt() throws Exception {
        // given 20 items (all reviewed), every fifth carrying the marker, and a fixer whose fixes
        // pass the rules and are more than cosmetic (so each is reviewed) but keep the marker: each
        // marked item is still naughty after three fixes
        Path job = markedLoopJob(20);
        Extensions ext = new Extensions(Map.of(
                        "lexical", spec -> new MarkerReviewer(spec, "carries the shop-now boilerplate sentence"),
                        "semantic", spec -> new MarkerReviewer(spec, "carries the shop-now boilerplate sentence")),
                request -> new FixOutcome.Fixed(request.content() + " Revised for clarity today."));
        ByteArrayOutputStream out = new ByteArrayOutputStream();

        // when
        int exit = Extensions.run(new RunRequest(job, null, dir.resolve("out"), "r1", null),
                dev.santabatch.run.TestJobsAccess.h2(dir), new PrintStream(out, true, StandardCharsets.UTF_8), System.err, ext);

        // then each is held STILL_NAUGHTY, its last attempt the third fix (also its last passing revision)
        assertThat(exit).as(out.toString(StandardCharsets.UTF_8)).isZero();
        List<CSVRecord> held = records(dir.resolve("out/loop/r1/escalations.csv"));
        assertThat(held).hasSize(4).allSatisfy(r -> {
            String original = dev.santabatch.run.TestJobsAccess.rows(20).get(Integer.parseInt(r.get("item_id").substring(1)) - 1).get(7)
                    + MARKER;
            assertThat(r.get("reason")).isEqualTo("STILL_NAUGHTY");
            assertThat(r.get("original")).isEqualTo(original);
            assertThat(r.get("last_attempt")).isEqualTo(original + " Revised for clarity today.".repeat(3));
            assertThat(r.get("last_passing")).isEqualTo(r.get("last_attempt"));
        });
    }

    @Test
    void aHeldItemWhosePlantedDefectsThePrePassFixedIsAFalseHoldAfterThePrePass() throws Exception {
        // given the marked catalog with a forbidden term planted in ten items, five of them marked
        // (the ground truth names the term only: the marker is no planted defect), a rule that
        // substitutes the term, and a fixer with no fix for the marker: marked items are held
        List<List<String>> rows = new ArrayList<>();
        StringBuilder truth = new StringBuilder("id,kind,detail,wrong,truth,group\n");
        for (List<String> r : dev.santabatch.run.TestJobsAccess.rows(400)) {
            List<String> row = new ArrayList<>(r);
            int n = Integer.parseInt(row.get(0).substring(1));
            if (n <= 25 && (n % 5 == 0 || n < 7)) {
                row.set(7, "Totally risk-free. " + row.get(7));
                truth.append(row.get(0)).append(",forbidden-term,risk-free,risk-free,low-risk,\n");
            }
            if (n % 5 == 0) {
                row.set(7, row.get(7) + MARKER);
            }
            rows.add(row);
        }
        Path catalog = dev.santabatch.run.TestJobsAccess.writeCatalog(dir.resolve("in.csv"), rows);
        Path truthFile = dir.resolve("truth.csv");
        Files.writeString(truthFile, truth);
        Path job = dev.santabatch.run.TestJobsAccess.writeJob(dir, "loop", catalog, 50);
        Files.writeString(job, Files.readString(job)
                .replace("  category-column: category\n", "  category-column: category\n  ground-truth: " + truthFile + "\n")
                .replace("rubric:\n", """
                        rubric:
                          - id: compliance
                            pass: No banned claims.
                            fail-signal: A banned claim.
                            rules:
                              - id: forbidden-claims
                                type: forbidden-terms
                                terms: [risk-free]
                                replacements:
                                  risk-free: low-risk
                                fix: substitute
                        """)
                + "sampling:\n  seed: 7\n");
        Extensions ext = cannotFix();
        ByteArrayOutputStream out = new ByteArrayOutputStream();

        // when it runs
        int exit = Extensions.run(new RunRequest(job, null, dir.resolve("out"), "r1", null),
                dev.santabatch.run.TestJobsAccess.h2(dir), new PrintStream(out, true, StandardCharsets.UTF_8), System.err, ext);

        // then the five marked items whose only planted defect the pre-pass fixed are held: counted
        // apart, and as false holds by the rate over items clean after the pre-pass
        assertThat(exit).as(out.toString(StandardCharsets.UTF_8)).isZero();
        @SuppressWarnings("unchecked")
        Map<String, Object> t = (Map<String, Object>) dev.santabatch.export.RunReport.read(
                dir.resolve("out/loop/r1/report.json")).get("escape_rates_against_ground_truth");
        assertThat(t.get("prepass_fixed_all_planted")).isEqualTo(10);
        assertThat(t.get("held_after_prepass_fixed_all_planted")).isEqualTo(5);
        // 75 planted-clean items held (the other marked ones) of 390; 80 of 400 counting the ten
        assertThat(t.get("clean_items_held")).isEqualTo(75);
        assertThat((Double) t.get("false_hold_rate")).isEqualTo(75 / 390.0);
        assertThat((Double) t.get("false_hold_rate_after_prepass")).isEqualTo(80 / 400.0);
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("false holds 19.2 % of items planted clean, 20.0 % of"
                + " items clean after the pre-pass (5 held whose planted defects the pre-pass fixed)");
        // and the seed's escape rate, the human spot-check's, is not measured by the ground truth:
        // its figure stands beside it, named as such
        assertThat(escapeTarget(dir.resolve("out/loop/r1"))).containsEntry("status", "NOT_MEASURED")
                .containsEntry("measured", null)
                .containsEntry("ground_truth_escape_rate_of_shipped", t.get("escape_rate_of_shipped"));
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("escape:   not measured yet (target 0)");
    }

    /**
     * The round counter is written in the same transaction as the round's sample: when storing the
     * sample fails (here a constraint added to the store makes every sample row invalid), no round
     * row is left behind, and the rerun with the same run id draws round 1 once and converges.
     */
    @Test
    void aRoundIsStoredOnlyWithItsSample() throws Exception {
        Path job = markedLoopJob(400);
        ByteArrayOutputStream first = new ByteArrayOutputStream();
        // a first run creates the store's tables
        assertThat(Extensions.run(new RunRequest(job, null, dir.resolve("out"), "r0", null), dev.santabatch.run.TestJobsAccess.h2(dir),
                new PrintStream(first, true, StandardCharsets.UTF_8), System.err, scripted(new AtomicInteger()))).isZero();
        String url = (String) dev.santabatch.run.TestJobsAccess.h2(dir).get("spring.datasource.url");
        try (java.sql.Connection c = java.sql.DriverManager.getConnection(url, "sa", "")) {
            c.createStatement().execute("ALTER TABLE sb_sample ADD CONSTRAINT test_no_sample CHECK (seq < 0) NOCHECK");
        }

        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int failed = Extensions.run(new RunRequest(job, null, dir.resolve("out"), "r1", null), dev.santabatch.run.TestJobsAccess.h2(dir),
                new PrintStream(out, true, StandardCharsets.UTF_8), System.err, scripted(new AtomicInteger()));

        assertThat(failed).as(out.toString(StandardCharsets.UTF_8)).isEqualTo(1);
        String rounds = "SELECT COUNT(*) FROM sb_round r JOIN sb_run u ON u.run_pk = r.run_pk WHERE u.run_id = 'r1'";
        String sample = "SELECT COUNT(*) FROM sb_sample s JOIN sb_run u ON u.run_pk = s.run_pk WHERE u.run_id = 'r1'";
        try (java.sql.Connection c = java.sql.DriverManager.getConnection(url, "sa", "")) {
            assertThat(count(c, rounds)).as("no round without its sample").isZero();
            assertThat(count(c, sample)).isZero();
            c.createStatement().execute("ALTER TABLE sb_sample DROP CONSTRAINT test_no_sample");
        }

        ByteArrayOutputStream again = new ByteArrayOutputStream();
        int resumed = Extensions.run(new RunRequest(job, null, dir.resolve("out"), "r1", null), dev.santabatch.run.TestJobsAccess.h2(dir),
                new PrintStream(again, true, StandardCharsets.UTF_8), System.err, scripted(new AtomicInteger()));
        assertThat(resumed).as(again.toString(StandardCharsets.UTF_8)).isZero();
        try (java.sql.Connection c = java.sql.DriverManager.getConnection(url, "sa", "")) {
            assertThat(count(c, rounds + " AND r.round_no = 1")).isEqualTo(1);
            assertThat(count(c, sample + " AND s.round_no = 1")).isPositive();
        }
    }

    private static long count(java.sql.Connection c, String sql) throws java.sql.SQLException {
        try (java.sql.ResultSet rs = c.createStatement().executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private Path markedCatalog(int maxRounds) throws Exception {
        Path job = markedLoopJob(400);
        Files.writeString(job, Files.readString(job) + "santa:\n  max-rounds: " + maxRounds + "\n");
        return job;
    }

    static List<CSVRecord> records(Path csv) throws Exception {
        try (var p = CSVFormat.RFC4180.builder().setHeader().setSkipHeaderRecord(true).get()
                .parse(Files.newBufferedReader(csv, StandardCharsets.UTF_8))) {
            return p.getRecords();
        }
    }

    /** A loop job (rate 50 %, seed 7) over {@code items} items, every fifth carrying the marker. */
    private Path markedLoopJob(int items) throws Exception {
        return markedLoopJob(items, List.of());
    }

    /** As {@link #markedLoopJob(int)}, the items {@code odd} also carrying {@link #ODDITY}. */
    private Path markedLoopJob(int items, List<String> odd) throws Exception {
        List<List<String>> rows = new ArrayList<>();
        for (List<String> r : dev.santabatch.run.TestJobsAccess.rows(items)) {
            List<String> row = new ArrayList<>(r);
            if (Integer.parseInt(row.get(0).substring(1)) % 5 == 0) {
                row.set(7, row.get(7) + MARKER);
            }
            if (odd.contains(row.get(0))) {
                row.set(7, row.get(7) + ODDITY);
            }
            rows.add(row);
        }
        Path catalog = dev.santabatch.run.TestJobsAccess.writeCatalog(dir.resolve("in.csv"), rows);
        Path job = dev.santabatch.run.TestJobsAccess.writeJob(dir, "loop", catalog, 50);
        Files.writeString(job, Files.readString(job) + "sampling:\n  seed: 7\n");
        return job;
    }

}
