package dev.santabatch.model;

import static org.assertj.core.api.Assertions.assertThat;

import dev.santabatch.export.RunReport;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * A batch fix that cannot reach its patterns: the matcher's cap lets it ask about 1 % of the
 * eligible items, so the patterns come back in the next sample; the run ends not clean at once,
 * says why and what would reach them, and a rerun with the cap raised resumes with the same run id.
 */
class UnreachablePatternFunctionalTests {

    @TempDir
    Path dir;

    @Test
    void patternsTheCapKeepsFromTheMatcherEndTheRunAndARerunWithARaisedCapResumes() throws Exception {
        LlmJobs.Catalog catalog = LlmJobs.catalog(dir, 11, 250);
        try (CatalogModelServer server = CatalogModelServer.start(CatalogModelServer.reviewerDefects(catalog.truth()))) {
            Path job = LlmJobs.writeJob(dir, "llm", catalog, server.baseUrl(), 4,
                    "santa:\n  max-rounds: 6\nmatcher:\n  max-candidate-share: 0.01\n");

            LlmJobs.Result r = LlmJobs.run(dir, job, "r1");

            assertThat(r.exit()).as(r.all()).isEqualTo(3);
            assertThat(r.out()).contains("status:   NOT-CLEAN (unreachable-pattern)")
                    .contains("to reach it: raise matcher.max-candidate-share to")
                    .contains("resume:   give the unreachable patterns what would reach them");
            Map<String, Object> report = RunReport.read(dir.resolve("out/llm/r1/report.json"));
            assertThat(report.get("reason")).isEqualTo("unreachable-pattern");
            List<Map<String, Object>> rounds = list(report.get("rounds"));
            int stopped = rounds.size();
            // at once: before santa.max-rounds
            assertThat(stopped).isLessThan(6);
            assertThat(rounds.get(stopped - 1).get("decision")).isEqualTo("unreachable-pattern");
            List<Map<String, Object>> unreachable = list(report.get("unreachable_patterns"));
            assertThat(unreachable).isNotEmpty().allSatisfy(u -> {
                double prevalence = ((Number) u.get("prevalence")).doubleValue();
                List<?> ci = (List<?>) u.get("interval_95");
                assertThat(((Number) ci.get(0)).doubleValue()).isLessThanOrEqualTo(prevalence);
                assertThat(((Number) ci.get(1)).doubleValue()).isGreaterThanOrEqualTo(prevalence);
                Map<String, Object> fell = map(u.get("batch_fix_that_fell_short"));
                assertThat(((Number) fell.get("reached")).doubleValue())
                        .isLessThan(0.2 * ((Number) fell.get("predicted_items")).doubleValue());
                assertThat(((Number) fell.get("candidates_found")).longValue())
                        .isGreaterThan(((Number) fell.get("candidates")).longValue());
                assertThat((String) u.get("would_reach_it")).startsWith("raise matcher.max-candidate-share to");
            });

            JdbcTemplate store = LlmJobs.store(dir);
            try {
                // the stopped round made no matcher calls for its unreachable patterns
                Set<Integer> unreachableNos = store.queryForList("SELECT pattern_no FROM sb_unreachable WHERE round_no = ?",
                        Integer.class, stopped).stream().collect(Collectors.toSet());
                assertThat(unreachableNos).isNotEmpty();
                assertThat(store.queryForList("SELECT pattern_no FROM sb_match_stat WHERE round_no = ?", Integer.class, stopped))
                        .doesNotContainAnyElementsOf(unreachableNos);
            } finally {
                LlmJobs.close(store);
            }

            // the operator raises the cap; the same run id resumes with a fresh batch fix
            Files.writeString(job, Files.readString(job).replace("max-candidate-share: 0.01", "max-candidate-share: 1.0"));
            LlmJobs.Result resumed = LlmJobs.run(dir, job, "r1");

            Map<String, Object> after = RunReport.read(dir.resolve("out/llm/r1/report.json"));
            List<Map<String, Object>> all = list(after.get("rounds"));
            assertThat(all.size()).as(resumed.all()).isGreaterThan(stopped);
            assertThat(all.get(stopped - 1).get("decision")).isEqualTo("continue-after-unreachable-pattern");
            JdbcTemplate again = LlmJobs.store(dir);
            try {
                Long calls = again.queryForObject("SELECT COALESCE(SUM(calls), 0) FROM sb_match_stat WHERE round_no = ?",
                        Long.class, stopped + 1);
                assertThat(calls).as("matcher calls of the resumed round").isPositive();
            } finally {
                LlmJobs.close(again);
            }
        }
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> list(Object o) {
        return (List<Map<String, Object>>) o;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object o) {
        return (Map<String, Object>) o;
    }
}
