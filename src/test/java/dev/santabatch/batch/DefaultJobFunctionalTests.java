package dev.santabatch.batch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.santabatch.cli.Cli;
import dev.santabatch.export.RunReport;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.commons.csv.CSVRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What {@code ./mvnw spring-boot:run} runs (the pom's arguments: {@code run
 * jobs/product-descriptions.yml}): the whole loop on the bundled sample with the rules pre-pass
 * and the two offline reviewers reaches a clean sample and exits 0; {@code changes.csv} holds
 * batch-fix revisions; the escape rates against the ground truth are in {@code report.json}; a
 * second {@code run} with the same id is refused (exit 2).
 *
 * <p>The store is a real PostgreSQL when SANTA_TEST_PG_URL (and _USER, _PASSWORD) is set, as
 * {@code .ci/run} does after starting a private instance; under CI=true it must be set, so CI can
 * never pass without the PostgreSQL run. Elsewhere the store is H2 in file mode. One run of the
 * default job serves both purposes, which keeps the suite's time down.
 */
class DefaultJobFunctionalTests {

    @TempDir
    Path dir;

    @Test
    @SuppressWarnings("unchecked")
    void theDefaultJobReachesACleanSampleWithBatchFixesAndGroundTruthEscapeRates() throws Exception {
        Map<String, Object> store = store(dir);
        String runId = "d" + System.nanoTime();
        String[] args = {"run", "jobs/product-descriptions.yml", "--out", dir.resolve("out").toString(), "--run-id", runId};
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int exit = Cli.run(args, store, new PrintStream(out, true, StandardCharsets.UTF_8), System.err);

        String output = out.toString(StandardCharsets.UTF_8);
        assertThat(exit).as(output).isZero();
        assertThat(output).contains("status:   CLEAN");
        Path run = dir.resolve("out/product-descriptions/" + runId);
        List<CSVRecord> batch = HeldOutFunctionalTests.records(run.resolve("changes.csv")).stream()
                .filter(c -> c.get("cause").equals("batch-fix")).toList();
        assertThat(batch).isNotEmpty().allSatisfy(c -> {
            assertThat(Integer.parseInt(c.get("round"))).isPositive();
            assertThat(c.get("pattern")).isNotBlank();
            assertThat(c.get("after")).isNotEqualTo(c.get("before"));
        });
        Map<String, Object> report = RunReport.read(run.resolve("report.json"));
        assertThat(report.keySet().iterator().next()).isEqualTo("status");
        assertThat(report.get("status")).isEqualTo("clean");
        Map<String, Object> truth = (Map<String, Object>) report.get("escape_rates_against_ground_truth");
        assertThat(truth).containsKeys("escape_rate", "false_hold_rate", "by_kind");
        // issue 4: on the generator's catalogs no clean item is altered (a false positive may only hold it)
        assertThat(((Number) truth.get("clean_items_changed")).longValue()).as("clean items changed").isZero();
        Map<String, Object> byKind = (Map<String, Object>) truth.get("by_kind");
        assertThat(byKind.keySet()).containsAll(Set.of("forbidden-term", "missing-disclaimer", "wrong-number",
                "drift-sentence", "drift-text", "boilerplate"));
        for (String k : HeldOutFunctionalTests.RULE_KINDS) {
            assertThat(((Number) ((Map<String, Object>) byKind.get(k)).get("escaped")).longValue()).as(k).isZero();
        }
        assertThat(HeldOutFunctionalTests.records(run.resolve("catalog.csv")).size()).isGreaterThan(900);
        // issue 18: the offline panel is measured by canaries every round and fits the bundled sample
        Map<String, Object> canaries = (Map<String, Object>) report.get("canaries");
        Map<String, Object> sensitivity = (Map<String, Object>) ((Map<String, Object>) canaries.get("panel")).get("sensitivity");
        assertThat(((Number) sensitivity.get("of")).intValue()).isGreaterThanOrEqualTo(4);
        assertThat(((Map<String, Object>) report.get("panel_fit")).get("fits")).isEqualTo(true);
        assertThat(output).contains("canaries: panel caught");

        ByteArrayOutputStream again = new ByteArrayOutputStream();
        assertThat(Cli.run(args, store, new PrintStream(again, true, StandardCharsets.UTF_8), System.err))
                .as("a completed run is not run again").isEqualTo(2);
    }

    /** PostgreSQL from the environment (required under CI=true), else H2 in file mode under {@code dir}. */
    private static Map<String, Object> store(Path dir) {
        String url = System.getenv("SANTA_TEST_PG_URL");
        if (url == null || url.isBlank()) {
            if ("true".equalsIgnoreCase(System.getenv("CI"))) {
                fail("CI=true but SANTA_TEST_PG_URL is not set: PostgreSQL did not start");
            }
            return Map.of("spring.datasource.url", "jdbc:h2:file:" + dir.resolve("db/santa") + ";AUTO_SERVER=TRUE;WRITE_DELAY=0");
        }
        return Map.of("spring.datasource.url", url,
                "spring.datasource.username", System.getenv().getOrDefault("SANTA_TEST_PG_USER", "postgres"),
                "spring.datasource.password", System.getenv().getOrDefault("SANTA_TEST_PG_PASSWORD", ""));
    }
}
