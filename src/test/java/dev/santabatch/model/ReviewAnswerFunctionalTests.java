package dev.santabatch.model;

import static dev.santabatch.model.LlmFaultFunctionalTests.assertCompleted;
import static dev.santabatch.model.LlmFaultFunctionalTests.errors;
import static dev.santabatch.model.LlmFaultFunctionalTests.nextWithSameBody;
import static org.assertj.core.api.Assertions.assertThat;

import dev.santabatch.model.CatalogModelServer.Call;
import dev.santabatch.model.CatalogModelServer.Fault;
import dev.santabatch.model.CatalogModelServer.Kind;
import dev.santabatch.export.RunReport;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Model reviews in the shapes the seed's contract allows, and ones that contradict it, in whole-job
 * runs against the scripted server: an answer in the seed's exact shape (free-text critical issues,
 * no {@code <criterion-id>:} prefix) is a review, its issues attributed to the failed checks and
 * counted in {@code report.json}; a PASS carrying an unprefixed critical issue is a contradiction,
 * retried once as a fresh call and counted as {@code contradiction}.
 */
class ReviewAnswerFunctionalTests {

    @TempDir
    Path dir;

    LlmJobs.Catalog catalog;

    CatalogModelServer server() throws Exception {
        catalog = LlmJobs.catalog(dir, 11, 150);
        return CatalogModelServer.start(CatalogModelServer.reviewerDefects(catalog.truth()));
    }

    Path job(CatalogModelServer server) throws Exception {
        Path job = LlmJobs.writeJob(dir, "answers", catalog, server.baseUrl(), 4, LlmFaultFunctionalTests.FAST_RETRIES);
        Files.writeString(job, Files.readString(job).replace("timeout: 2s", "timeout: 1s"));
        return job;
    }

    Map<String, Object> report() throws Exception {
        return RunReport.read(dir.resolve("out/answers/r1/report.json"));
    }

    @Test
    void reviewsInTheSeedsShapeWithUnprefixedIssuesAreAcceptedAndTheirItemsFixed() throws Exception {
        try (CatalogModelServer server = server()) {
            // given every reviewer answers in the seed's shape: correct checks, free-text issues
            server.inject(c -> c.kind() == Kind.REVIEW, Integer.MAX_VALUE, new Fault.SeedShape());

            // when
            LlmJobs.Result r = LlmJobs.run(dir, job(server), "r1");

            // then the run completes (it does not fail on the unreviewed threshold)
            assertCompleted(r);
            Map<String, Object> report = report();
            assertThat(report.get("status")).isIn("clean", "fully-reviewed");
            List<Map<String, Object>> rounds = LlmJobFunctionalTests.list(report.get("rounds"));
            assertThat(rounds).allSatisfy(round -> assertThat(round.get("unreviewed")).isEqualTo(0));
            // no answer was retried or counted invalid
            assertThat(errors(report)).doesNotContainKeys("incomplete", "contradiction", "missing-criterion", "malformed-json");
            assertThat(((Number) LlmFaultFunctionalTests.modelCalls(report).get("answer_retries")).intValue()).isZero();
            // a free-text issue with its answer's failed check: fixed for it, under that criterion
            List<Call> failing = server.calls(Kind.REVIEW).stream().filter(c -> !server.defectsIn(c.content()).isEmpty()).toList();
            assertThat(failing).as("the sample holds defective items").isNotEmpty();
            JdbcTemplate store = LlmJobs.store(dir);
            try {
                List<String> defective = new ArrayList<>();
                for (Map<String, Object> row : store.queryForList("SELECT item_id, outcome, fixes FROM sb_sample WHERE round_no = 1")) {
                    String id = (String) row.get("ITEM_ID");
                    if (server.defects().stream().anyMatch(d -> d.itemId().equals(id))) {
                        defective.add(id);
                        assertThat(row.get("OUTCOME")).as("sampled defective item %s", id).isEqualTo("NICE");
                        assertThat(((Number) row.get("FIXES")).intValue()).as("fixes of %s", id).isPositive();
                    }
                }
                assertThat(defective).as("defective items sampled in round 1").isNotEmpty();
                // the merged issues carry the failed check's criterion
                List<Map<String, Object>> issues = store.queryForList("SELECT criterion, text FROM sb_issue WHERE round_no = 1");
                assertThat(issues).isNotEmpty().allSatisfy(i -> assertThat(i.get("CRITERION"))
                        .isIn(CatalogModelServer.ON_SPEC, CatalogModelServer.ORIGINAL));
                long failReviews = store.queryForObject("SELECT COUNT(*) FROM sb_review WHERE verdict = 'FAIL'", Long.class);
                long reattributed = ((Number) LlmJobFunctionalTests.map(report.get("run")).get("issues_reattributed")).longValue();
                // every stored FAIL review had free-text issues only, each attributed (and counted) once
                assertThat(failReviews).isPositive();
                assertThat(reattributed).isGreaterThanOrEqualTo(failReviews);
                assertThat(LlmJobFunctionalTests.map(report.get("run")).get("issues_derived_from_detail")).isEqualTo(0);
                assertThat(((Number) rounds.get(0).get("issues_reattributed")).longValue()).isEqualTo(
                        store.queryForObject("SELECT SUM(issues_reattributed) FROM sb_review WHERE round_no = 1", Long.class));
            } finally {
                LlmJobs.close(store);
            }
            // the fixer was asked to fix the issue under its criterion
            assertThat(server.calls(Kind.FIX)).isNotEmpty().allSatisfy(c -> assertThat(c.user())
                    .containsPattern("\\d+\\. (" + CatalogModelServer.ON_SPEC + "|" + CatalogModelServer.ORIGINAL + "): "));
        }
    }

    @Test
    void aPassWhoseChecksAllPassButWithAnUnprefixedIssueIsAContradictionRetriedFresh() throws Exception {
        try (CatalogModelServer server = server()) {
            // given three first review requests answer PASS, every check PASS, issue "subtle problem"
            Set<String> seen = ConcurrentHashMap.newKeySet();
            server.inject(c -> c.kind() == Kind.REVIEW && seen.add(c.body()), 3, new Fault.PassWithUnprefixedIssue());

            // when
            LlmJobs.Result r = LlmJobs.run(dir, job(server), "r1");

            // then each was retried once as a fresh call, and counted as a contradiction
            assertCompleted(r);
            List<Call> bad = server.calls().stream().filter(c -> !c.fault().isEmpty()).toList();
            assertThat(bad).hasSize(3);
            for (Call c : bad) {
                Call retry = nextWithSameBody(server, c);
                assertThat(retry.fault()).isEmpty();
            }
            Map<String, Object> report = report();
            assertThat(errors(report).get("contradiction")).isEqualTo(3);
            assertThat(((Number) LlmFaultFunctionalTests.modelCalls(report).get("answer_retries")).intValue()).isEqualTo(3);
            assertThat(LlmJobFunctionalTests.list(report.get("rounds")).get(0).get("unreviewed")).isEqualTo(0);
            // and never stored as a review: no stored review carries the issue
            JdbcTemplate store = LlmJobs.store(dir);
            try {
                assertThat(store.queryForObject("SELECT COUNT(*) FROM sb_review WHERE review_json LIKE '%subtle problem%'",
                        Integer.class)).isZero();
            } finally {
                LlmJobs.close(store);
            }
        }
    }
}
