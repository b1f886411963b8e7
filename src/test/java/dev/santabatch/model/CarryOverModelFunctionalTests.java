package dev.santabatch.model;

import static org.assertj.core.api.Assertions.assertThat;

import dev.santabatch.export.RunReport;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Carry-over with model reviewers, fixer and matcher at a {@link CatalogModelServer}, which sees
 * every call: the second run of a job on the same catalog sends no call about an item the first
 * verified NICE, ships its fixed text, and counts it.
 */
class CarryOverModelFunctionalTests {

    @TempDir
    Path dir;

    @Test
    void aSecondRunSendsNoCallAboutTheItemsTheFirstVerifiedNice() throws Exception {
        LlmJobs.Catalog catalog = LlmJobs.catalog(dir, 11, 250);
        try (CatalogModelServer server = CatalogModelServer.start(CatalogModelServer.reviewerDefects(catalog.truth()))) {
            Path job = LlmJobs.writeJob(dir, "llm", catalog, server.baseUrl(), 4, "");
            LlmJobs.Result first = LlmJobs.run(dir, job, "r1");
            assertThat(first.exit()).as(first.all()).isZero();
            List<String> nice;
            List<String> fixedNice;
            JdbcTemplate store = LlmJobs.store(dir);
            try {
                nice = store.queryForList("SELECT i.item_id FROM sb_item i JOIN sb_run r ON r.run_pk = i.run_pk"
                        + " WHERE r.run_id = 'r1' AND i.state = 'NICE'", String.class);
                fixedNice = store.queryForList("SELECT DISTINCT v.item_id FROM sb_revision v JOIN sb_run r ON r.run_pk = v.run_pk"
                        + " JOIN sb_item i ON i.run_pk = v.run_pk AND i.item_id = v.item_id"
                        + " WHERE r.run_id = 'r1' AND v.cause = 'santa-fix' AND i.state = 'NICE'", String.class);
            } finally {
                LlmJobs.close(store);
            }
            assertThat(fixedNice).as("items r1 fixed and verified").isNotEmpty();
            Map<String, String> shipped1 = LlmJobs.contents(dir.resolve("out/llm/r1/catalog.csv"), "id", "description");
            Set<String> niceTexts = new HashSet<>();
            nice.forEach(id -> niceTexts.add(shipped1.get(id)));
            int before = server.calls().size();

            // when the job runs again on the same catalog
            LlmJobs.Result second = LlmJobs.run(dir, job, "r2");

            // then no call is about an item r1 verified NICE; each ships with its text of r1, and is counted
            assertThat(second.exit()).as(second.all()).isZero();
            List<CatalogModelServer.Call> calls = server.calls().subList(before, server.calls().size());
            assertThat(calls).as("r2 reviews the items it did not carry NICE").isNotEmpty();
            assertThat(calls).noneSatisfy(c -> assertThat(niceTexts).contains(c.content()));
            Map<String, String> shipped2 = LlmJobs.contents(dir.resolve("out/llm/r2/catalog.csv"), "id", "description");
            for (String id : fixedNice) {
                assertThat(shipped2.get(id)).as(id).isEqualTo(shipped1.get(id));
            }
            Map<String, Object> report = RunReport.read(dir.resolve("out/llm/r2/report.json"));
            Map<?, ?> carry = (Map<?, ?>) report.get("carry_over");
            assertThat(((Number) carry.get("nice")).intValue()).isEqualTo(nice.size());
            Map<?, ?> spent = (Map<?, ?>) ((Map<?, ?>) ((Map<?, ?>) report.get("run")).get("model_calls")).get("run");
            assertThat(((Number) spent.get("calls")).intValue()).as("calls counted by the run").isEqualTo(calls.size());
            assertThat(second.out()).contains("carried:  ").contains("from run 'r1' (nice " + nice.size());
        }
    }
}
