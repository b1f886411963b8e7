package dev.santabatch.batch;

import dev.santabatch.review.step.ReviewerType;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.santabatch.execution.StopSignal;
import dev.santabatch.review.FixOutcome;
import dev.santabatch.review.ReviewOutcome;
import dev.santabatch.review.ReviewRequest;
import dev.santabatch.review.Reviewer;
import dev.santabatch.run.Launcher;
import dev.santabatch.run.RunRequest;
import dev.santabatch.run.TestJobsAccess;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A review stored for an item's current revision is reused, never paid again: when the item is
 * resampled in a later round after one reviewer failed to review it, and when the review step is
 * restarted. Reviews after a fix are by fresh reviewers, called. Reviewer calls are counted per
 * reviewer, item and text.
 */
public class ReviewReuseFunctionalTests {

    static final String MARKER = ScriptedLoopFunctionalTests.MARKER;

    @TempDir
    Path dir;

    /** Calls per "reviewer|item|text". */
    final Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();

    @BeforeEach
    void reset() {
        StopSignal.reset();
    }

    /** The marker reviewer, counting its calls; fails to review (transport) when {@code fails} says so. */
    ReviewerType counting(String wording, Predicate<ReviewRequest> fails) {
        return spec -> {
            Reviewer healthy = new ScriptedLoopFunctionalTests.MarkerReviewer(spec, wording);
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
                public ReviewOutcome review(ReviewRequest request) {
                    calls.computeIfAbsent(key(id(), request.itemId(), request.content()), k -> new AtomicInteger())
                            .incrementAndGet();
                    if (fails.test(request)) {
                        return new ReviewOutcome.FailedToReview(ReviewOutcome.FailureKind.TRANSPORT, "connection refused");
                    }
                    return healthy.review(request);
                }
            };
        };
    }

    static String key(String reviewer, String item, String text) {
        return reviewer + "|" + item + "|" + text;
    }

    int callsOf(String reviewer, String item, String text) {
        AtomicInteger n = calls.get(key(reviewer, item, text));
        return n == null ? 0 : n.get();
    }

    public static List<List<String>> markedRows(int n) {
        List<List<String>> rows = new ArrayList<>();
        for (List<String> r : TestJobsAccess.rows(n)) {
            List<String> row = new ArrayList<>(r);
            if (Integer.parseInt(row.get(0).substring(1)) % 5 == 0) {
                row.set(7, row.get(7) + MARKER);
            }
            rows.add(row);
        }
        return rows;
    }

    public static Extensions extensions(ReviewerType b, ReviewerType c) {
        return new Extensions(Map.of("lexical", b, "semantic", c),
                request -> new FixOutcome.Fixed(request.content().replace(MARKER, "")));
    }

    @Test
    void anItemResampledAfterAFailedReviewReusesTheOtherReviewersStoredReview() throws Exception {
        // given 60 items (fewer than 100: every eligible item is reviewed each round), every fifth
        // carrying the marker; reviewer C fails to review T0001 and T0002 the first time only
        List<List<String>> rows = markedRows(60);
        Path catalog = TestJobsAccess.writeCatalog(dir.resolve("in.csv"), rows);
        Path job = TestJobsAccess.writeJob(dir, "loop", catalog, 10);
        Files.writeString(job, Files.readString(job) + "sampling:\n  seed: 7\n");
        Set<String> flaky = Set.of("T0001", "T0002");
        Map<String, AtomicInteger> cCalls = new ConcurrentHashMap<>();
        String wording = "carries the shop-now boilerplate sentence";
        ReviewerType b = counting(wording, r -> false);
        ReviewerType c = counting(wording, r -> flaky.contains(r.itemId())
                && cCalls.computeIfAbsent(r.itemId(), k -> new AtomicInteger()).incrementAndGet() == 1);
        ByteArrayOutputStream out = new ByteArrayOutputStream();

        // when the job runs
        int exit = Extensions.run(new RunRequest(job, null, dir.resolve("out"), "r1", null), TestJobsAccess.h2(dir),
                new PrintStream(out, true, StandardCharsets.UTF_8), System.err, extensions(b, c));

        // then round 1 leaves the two items unreviewed, round 2 reviews them, and nothing is paid twice
        String output = out.toString(StandardCharsets.UTF_8);
        assertThat(exit).as(output).isZero();
        for (List<String> row : rows) {
            String id = row.get(0);
            String text = row.get(7);
            assertThat(callsOf("B", id, text)).as("B on %s's stored revision", id).isEqualTo(1);
            assertThat(callsOf("C", id, text)).as("C on %s", id).isEqualTo(flaky.contains(id) ? 2 : 1);
            if (text.contains(MARKER)) {
                String fixed = text.replace(MARKER, "");
                assertThat(callsOf("B", id, fixed)).as("fresh B after %s's fix", id).isEqualTo(1);
                assertThat(callsOf("C", id, fixed)).as("fresh C after %s's fix", id).isEqualTo(1);
            }
        }
        Map<String, Object> report = dev.santabatch.export.RunReport.read(dir.resolve("out/loop/r1/report.json"));
        // nothing left eligible after round 2's full review: fully reviewed, no bound to state
        assertThat(report.get("status")).isEqualTo("fully-reviewed");
        assertThat(output).contains("status:   FULLY-REVIEWED");
        @SuppressWarnings("unchecked")
        Map<String, Object> bound = (Map<String, Object>) ((Map<String, Object>) report.get("run")).get("bound");
        assertThat(bound.get("stated")).isEqualTo(false);
        assertThat(bound.get("why")).isEqualTo("fully reviewed, no sampling bound");
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> rounds = (List<Map<String, Object>>) report.get("rounds");
        assertThat(rounds).hasSize(2);
        assertThat(rounds.get(0).get("unreviewed")).isEqualTo(2);
        assertThat(rounds.get(1).get("sample_size")).isEqualTo(2);
        @SuppressWarnings("unchecked")
        Map<String, Object> agreement2 = (Map<String, Object>) rounds.get(1).get("agreement");
        assertThat(agreement2.get("items")).as("round 2's panel verdicts include the reused reviews").isEqualTo(2);
        // run level, each item once: 60 reviewed, 48 NICE on their first review (46 in round 1, 2 in
        // round 2), 12 NICE after one fix: first-pass 48/60, mean reviews to NICE (48 + 12*2)/60
        @SuppressWarnings("unchecked")
        Map<String, Object> run = (Map<String, Object>) report.get("run");
        assertThat((Double) run.get("first_pass_rate")).isCloseTo(48.0 / 60, within(1e-12));
        assertThat((Double) run.get("mean_reviews_to_nice")).isCloseTo(72.0 / 60, within(1e-12));
        assertThat(run.get("sampled")).isEqualTo(60);
        // per round: round 1's 58 reviewed items, 46 of them NICE first; round 2's 2 items
        assertThat((Double) rounds.get(0).get("first_pass_rate")).isCloseTo(46.0 / 58, within(1e-12));
        assertThat((Double) rounds.get(1).get("first_pass_rate")).isEqualTo(1.0);
        // the store holds one review per reviewer, item, revision and iteration
        assertThat(query("SELECT COUNT(*) FROM (SELECT item_id, rev, iteration, reviewer FROM sb_review"
                + " WHERE outcome = 'REVIEWED' GROUP BY item_id, rev, iteration, reviewer HAVING COUNT(*) > 1) d")).isZero();
        assertThat(query("SELECT COUNT(*) FROM sb_review WHERE item_id = 'T0001' AND reviewer = 'B'")).isEqualTo(1);
        assertThat(query("SELECT round_no FROM sb_review WHERE item_id = 'T0001' AND reviewer = 'C'"
                + " AND outcome = 'REVIEWED'")).isEqualTo(2);
    }

    @Test
    void anItemLeftUnreviewedAfterAFixAndResampledStoresItsRemadeFixsReviewsOnce() throws Exception {
        // given 60 items (every eligible item is reviewed each round), every fifth carrying the
        // marker; reviewer C fails to review T0005's fixed text the first time only: T0005 is left
        // unreviewed in round 1 after its fix (the fix is not kept) with B's review of the fix stored
        List<List<String>> rows = markedRows(60);
        Path catalog = TestJobsAccess.writeCatalog(dir.resolve("in.csv"), rows);
        Path job = TestJobsAccess.writeJob(dir, "loop", catalog, 10);
        Files.writeString(job, Files.readString(job) + "sampling:\n  seed: 7\n");
        AtomicInteger cOnFix = new AtomicInteger();
        String wording = "carries the shop-now boilerplate sentence";
        ReviewerType b = counting(wording, r -> false);
        ReviewerType c = counting(wording, r -> r.itemId().equals("T0005") && !r.content().contains(MARKER.strip())
                && cOnFix.incrementAndGet() == 1);
        ByteArrayOutputStream out = new ByteArrayOutputStream();

        // when the job runs: round 2 resamples T0005, reuses both first reviews and makes the fix again
        int exit = Extensions.run(new RunRequest(job, null, dir.resolve("out"), "r1", null), TestJobsAccess.h2(dir),
                new PrintStream(out, true, StandardCharsets.UTF_8), System.err, extensions(b, c));

        // then the remade fix's reviews replace the unkept fix's: no item has two stored reviews by
        // one reviewer for the same revision and iteration
        assertThat(exit).as(out.toString(StandardCharsets.UTF_8)).isZero();
        String text = rows.get(4).get(7);
        assertThat(rows.get(4).get(0)).isEqualTo("T0005");
        String fixed = text.replace(MARKER, "");
        assertThat(callsOf("B", "T0005", text)).as("B's first review reused in round 2").isEqualTo(1);
        assertThat(callsOf("B", "T0005", fixed)).as("the fix reviewed afresh in each round").isEqualTo(2);
        assertThat(query("SELECT COUNT(*) FROM sb_sample WHERE item_id = 'T0005' AND round_no = 1 AND outcome = 'UNREVIEWED'"))
                .isEqualTo(1);
        assertThat(query("SELECT COUNT(*) FROM sb_review WHERE item_id = 'T0005' AND iteration = 1 AND reviewer = 'B'"
                + " AND round_no = 2 AND outcome = 'REVIEWED'")).isEqualTo(1);
        assertThat(query("SELECT COUNT(*) FROM (SELECT item_id, rev, iteration, reviewer FROM sb_review"
                + " GROUP BY item_id, rev, iteration, reviewer HAVING COUNT(*) > 1) d")).isZero();
        assertThat(query("SELECT COUNT(*) FROM sb_revision WHERE item_id = 'T0005'")).isEqualTo(1);
    }

    @Test
    void aRestartedReviewStepReusesTheReviewsItsFailedAttemptsStored() throws Exception {
        // given 400 items (sampled), and reviewer C down for a third of the items: too many fail
        // to review, the step fails
        List<List<String>> rows = markedRows(400);
        Path catalog = TestJobsAccess.writeCatalog(dir.resolve("in.csv"), rows);
        Path job = TestJobsAccess.writeJob(dir, "loop", catalog, 50);
        Files.writeString(job, Files.readString(job) + "sampling:\n  seed: 7\nsanta:\n  max-rounds: 5\n");
        AtomicBoolean down = new AtomicBoolean(true);
        String wording = "carries the shop-now boilerplate sentence";
        ReviewerType b = counting(wording, r -> false);
        ReviewerType c = counting(wording, r -> down.get() && Integer.parseInt(r.itemId().substring(1)) % 3 == 0);
        int failed = Extensions.run(new RunRequest(job, null, dir.resolve("out"), "r1", null), TestJobsAccess.h2(dir),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8), System.err, extensions(b, c));
        assertThat(failed).isEqualTo(1);
        List<String> retried = strings("SELECT item_id FROM sb_sample WHERE round_no = 1 AND outcome = 'UNREVIEWED'");
        assertThat(retried).isNotEmpty();

        // when it is restarted with C back
        down.set(false);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int resumed = Extensions.run(new RunRequest(job, null, dir.resolve("out"), "r1", null), TestJobsAccess.h2(dir),
                new PrintStream(out, true, StandardCharsets.UTF_8), System.err, extensions(b, c));

        // then the retried items' B reviews were reused: B reviewed each round-1 item's text once
        assertThat(resumed).as(out.toString(StandardCharsets.UTF_8)).isZero();
        Map<String, String> texts = new java.util.HashMap<>();
        rows.forEach(r -> texts.put(r.get(0), r.get(7)));
        List<String> sampled = strings("SELECT item_id FROM sb_sample WHERE round_no = 1");
        for (String id : sampled) {
            assertThat(callsOf("B", id, texts.get(id))).as("B on %s", id).isEqualTo(1);
            assertThat(callsOf("C", id, texts.get(id))).as("C on %s", id)
                    .isEqualTo(retried.contains(id) ? 2 : 1);
        }
        assertThat(query("SELECT COUNT(*) FROM sb_sample WHERE round_no = 1 AND outcome = 'UNREVIEWED'")).isZero();
        assertThat(query("SELECT COUNT(*) FROM (SELECT item_id, rev, iteration, reviewer FROM sb_review"
                + " GROUP BY item_id, rev, iteration, reviewer HAVING COUNT(*) > 1) d")).isZero();
    }

    @Test
    void aFailReceivedWhenARestartAsksAgainIsKeptThoughTheExecutionFailsBeforeTheItemIsWritten() throws Exception {
        // given 60 items (all sampled), and reviewer C down for 7 of them: over the 10 % threshold,
        // the first execution fails with C's TRANSPORT rows stored for those items
        List<List<String>> rows = markedRows(60);
        Path catalog = TestJobsAccess.writeCatalog(dir.resolve("in.csv"), rows);
        Path job = TestJobsAccess.writeJob(dir, "loop", catalog, 10);
        Files.writeString(job, Files.readString(job) + "sampling:\n  seed: 7\n");
        String x = "T0001";
        Set<String> down = Set.of(x, "T0002", "T0003", "T0004", "T0006", "T0007", "T0008");
        AtomicInteger execution = new AtomicInteger(1);
        String wording = "carries the shop-now boilerplate sentence";
        ReviewerType b = counting(wording, r -> false);
        ReviewerType c = spec -> {
            Reviewer healthy = counting(wording, r -> execution.get() == 1 && down.contains(r.itemId())).create(spec);
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
                public ReviewOutcome review(ReviewRequest r) {
                    // in the second execution C fails X's unchanged text (judged as the marker's)
                    return execution.get() == 2 && r.itemId().equals(x)
                            ? healthy.review(new ReviewRequest(r.taskSpec(), r.itemId(), r.source(), r.content() + MARKER, r.rubric()))
                            : healthy.review(r);
                }
            };
        };
        Extensions ext = new Extensions(Map.of("lexical", b, "semantic", c), request -> {
            if (execution.get() == 2 && request.itemId().equals(x)) {
                throw new dev.santabatch.review.ConfigurationException("authentication failed for the fixer's model (scripted)");
            }
            return new FixOutcome.Fixed(request.content().replace(MARKER, ""));
        });
        assertThat(runOnce(job, ext)).as(printed).isEqualTo(1);

        // when the restart's C answers FAIL on X and X's fix then fails the execution before X is written
        execution.set(2);
        assertThat(runOnce(job, ext)).as(printed).isEqualTo(1);

        // then C's FAIL of X's current text is stored in place of its TRANSPORT row
        assertThat(strings("SELECT verdict FROM sb_review WHERE item_id = '" + x + "' AND reviewer = 'C'"))
                .containsExactly("FAIL");

        // and when the next restart's C would pass X, X is not shipped on that pass: the stored FAIL is reused
        execution.set(3);
        assertThat(runOnce(job, ext)).as(printed).isZero();
        String text = rows.get(0).get(7);
        assertThat(callsOf("C", x, text)).as("C on %s: down in the first execution", x).isEqualTo(1);
        assertThat(callsOf("C", x, text + MARKER)).as("C's FAIL in the second, reused by the third").isEqualTo(1);
        assertThat(strings("SELECT state FROM sb_item WHERE item_id = '" + x + "'")).doesNotContain("NICE");
        List<String> shipped = ScriptedLoopFunctionalTests.records(dir.resolve("out/loop/r1/catalog.csv")).stream()
                .map(r -> r.get("id")).toList();
        assertThat(shipped).as("catalog.csv").hasSize(59).doesNotContain(x);
    }

    /** What the last {@link #runOnce} printed. */
    String printed = "";

    int runOnce(Path job, Extensions ext) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int exit = Extensions.run(new RunRequest(job, null, dir.resolve("out"), "r1", null), TestJobsAccess.h2(dir),
                new PrintStream(out, true, StandardCharsets.UTF_8), System.err, ext);
        printed = out.toString(StandardCharsets.UTF_8);
        return exit;
    }

    @Test
    void aStopMidReviewKeepsTheAnswersAlreadyReceivedForItemsInFlight() throws Exception {
        stopMidReview(false);
    }

    /**
     * The stop arrives once every chunk that can end without the held item X has been written (the
     * review step's chunks are {@code run.concurrency} = 4 items, so 56 of the other 59): the last
     * chunk waits on X, which returns only when released after the run has ended. The pipeline
     * honours the stop while it waits.
     */
    @Test
    void aStopWhileTheLastChunkWaitsOnOneHeldItemIsHonouredWithoutWaitingForIt() throws Exception {
        stopMidReview(true);
    }

    void stopMidReview(boolean whenOnlyTheLastChunkIsLeft) throws Exception {
        // given 60 items (all sampled); reviewer C holds its first call (item X) until released,
        // while reviewer B has answered X: X is in flight
        List<List<String>> rows = markedRows(60);
        Path catalog = TestJobsAccess.writeCatalog(dir.resolve("in.csv"), rows);
        Path job = TestJobsAccess.writeJob(dir, "loop", catalog, 10);
        Files.writeString(job, Files.readString(job) + "sampling:\n  seed: 7\n");
        String wording = "carries the shop-now boilerplate sentence";
        java.util.concurrent.atomic.AtomicReference<String> held = new java.util.concurrent.atomic.AtomicReference<>();
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        AtomicBoolean healthy = new AtomicBoolean(false);
        ReviewerType b = counting(wording, r -> false);
        ReviewerType c = counting(wording, r -> {
            if (!healthy.get() && (held.compareAndSet(null, r.itemId()) || r.itemId().equals(held.get()))) {
                try {
                    release.await(120, java.util.concurrent.TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return true; // X's attempt fails to review after the stop: its result is dropped anyway
            }
            return false;
        });
        java.util.concurrent.ExecutorService runner = java.util.concurrent.Executors.newSingleThreadExecutor();
        java.util.concurrent.Future<Integer> first = runner.submit(() -> Extensions.run(new RunRequest(job, null, dir.resolve("out"), "r1", null),
                TestJobsAccess.h2(dir), new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8), System.err, extensions(b, c)));
        try {
            // when B's answer for X has arrived (kept in the store while X is still in flight) and a stop is requested
            String kept = "SELECT COUNT(*) FROM sb_review WHERE item_id = '%s' AND reviewer = 'B' AND iteration = 0 AND outcome = 'REVIEWED'";
            long found = 0;
            for (int i = 0; i < 600 && found == 0 && !first.isDone(); i++) {
                Thread.sleep(100);
                String x = held.get();
                found = x == null ? 0 : queryOrZero(kept.formatted(x));
            }
            assertThat(found).as("B's answer for %s, in flight (C held), is in the store", held.get()).isEqualTo(1);
            if (whenOnlyTheLastChunkIsLeft) {
                int chunk = 4; // run.concurrency's default
                long written = 0;
                long chunksWithoutX = (59 / chunk) * chunk;
                for (int i = 0; i < 1200 && written < chunksWithoutX && !first.isDone(); i++) {
                    Thread.sleep(100);
                    written = queryOrZero("SELECT COUNT(*) FROM sb_sample WHERE outcome IS NOT NULL");
                }
                assertThat(written).as("every chunk that can end without %s is written", held.get()).isEqualTo(chunksWithoutX);
            }
            StopSignal.request("test SIGTERM");
            assertThat(first.get(120, java.util.concurrent.TimeUnit.SECONDS)).as("stopped, restartable").isEqualTo(1);
        } finally {
            release.countDown();
            runner.shutdown();
        }
        String x = held.get();
        assertThat(query("SELECT COUNT(*) FROM sb_sample WHERE item_id = '" + x + "' AND outcome IS NOT NULL"))
                .as("%s was in flight at the stop: no outcome", x).isZero();

        // and the run is resumed with C answering
        StopSignal.reset();
        healthy.set(true);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int resumed = Extensions.run(new RunRequest(job, null, dir.resolve("out"), "r1", null), TestJobsAccess.h2(dir),
                new PrintStream(out, true, StandardCharsets.UTF_8), System.err, extensions(b, c));

        // then B's answer received before the stop is reused, not paid again; C is called again for X
        assertThat(resumed).as(out.toString(StandardCharsets.UTF_8)).isZero();
        String text = rows.stream().filter(r -> r.get(0).equals(x)).findFirst().orElseThrow().get(7);
        assertThat(callsOf("B", x, text)).as("B on %s's stored revision", x).isEqualTo(1);
        assertThat(callsOf("C", x, text)).as("C on %s: held, then called after the restart", x).isEqualTo(2);
        assertThat(query("SELECT COUNT(*) FROM sb_sample WHERE outcome = 'UNREVIEWED'")).isZero();
        assertThat(query("SELECT COUNT(*) FROM (SELECT item_id, rev, iteration, reviewer FROM sb_review"
                + " GROUP BY item_id, rev, iteration, reviewer HAVING COUNT(*) > 1) d")).isZero();
    }

    long queryOrZero(String sql) {
        try {
            return Math.max(0, query(sql));
        } catch (Exception notYet) {
            return 0; // the store or its tables are not there yet
        }
    }

    long query(String sql) throws Exception {
        List<String> s = strings(sql);
        return s.isEmpty() ? -1 : Long.parseLong(s.get(0));
    }

    List<String> strings(String sql) throws Exception {
        List<String> out = new ArrayList<>();
        try (var c = java.sql.DriverManager.getConnection(
                        "jdbc:h2:file:" + dir.toAbsolutePath().resolve("db/santa") + ";AUTO_SERVER=TRUE;IFEXISTS=TRUE", "sa", "");
                var rs = c.createStatement().executeQuery(sql)) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        }
        return out;
    }
}
