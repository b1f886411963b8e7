package dev.santabatch.llm;

import static org.assertj.core.api.Assertions.assertThat;

import dev.santabatch.llm.CatalogModelServer.Call;
import dev.santabatch.llm.CatalogModelServer.Kind;
import dev.santabatch.report.RunReport;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.commons.csv.CSVRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole job with model reviewers, fixer and matcher, against a scripted OpenAI-compatible server
 * on 127.0.0.1 that knows the generated catalog's planted defects.
 */
class LlmJobFunctionalTests {

    @TempDir
    Path dir;

    @Test
    void theLoopConvergesAgainstAScriptedModel() throws Exception {
        LlmJobs.Catalog catalog = LlmJobs.catalog(dir, 11, 250);
        try (CatalogModelServer server = CatalogModelServer.start(CatalogModelServer.reviewerDefects(catalog.truth()))) {
            Path job = LlmJobs.writeJob(dir, "llm", catalog, server.baseUrl(), 4, "");

            LlmJobs.Result r = LlmJobs.run(dir, job, "r1");

            System.out.println(r.all());
            assertThat(r.exit()).as(r.all()).isZero();
            Path run = dir.resolve("out/llm/r1");
            Map<String, Object> report = RunReport.read(run.resolve("report.json"));
            System.out.println(report);
            List<CSVRecord> changes = LlmJobs.records(run.resolve("changes.csv"));
            changes.forEach(c -> System.out.println(c.get("item_id") + " " + c.get("round") + " " + c.get("cause") + " " + c.get("pattern")));
            System.out.println("calls " + server.calls().size() + " review " + server.calls(Kind.REVIEW).size() + " fix "
                    + server.calls(Kind.FIX).size() + " match " + server.calls(Kind.MATCH).size());
            Map<String, String> shipped = LlmJobs.contents(run.resolve("catalog.csv"), "id", "description");
            long withDefect = shipped.values().stream().filter(t -> !server.defectsIn(t).isEmpty()).count();
            System.out.println("shipped " + shipped.size() + " with defect " + withDefect + " of defects " + server.defects().size());
            for (Call c : server.calls(Kind.REVIEW)) {
                assertThat(c.roles()).containsExactly("system", "user");
            }
        }
    }
}
