package dev.santabatch.model;

import static org.assertj.core.api.Assertions.assertThat;

import dev.santabatch.cli.Cli;
import dev.santabatch.export.RunReport;
import dev.santabatch.run.Launcher;
import dev.santabatch.eval.PlantedDefect;
import dev.santabatch.eval.SampleCatalogGenerator;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Canaries measure a model panel: with realistic judges that miss 25 % (B) and 30 % (C) of the
 * defects they see, the canaries' sensitivity per reviewer is close to 1 minus its miss rate.
 */
class CanaryModelPanelFunctionalTests {

    @TempDir
    Path dir;

    @Test
    @SuppressWarnings("unchecked")
    void aModelPanelsCanarySensitivityIsCloseToOneMinusItsMissRates() throws Exception {
        // given a generated product catalog and judges that miss 25 % (B) and 30 % (C) of visible defects,
        // noticing canaries' copied sentences and changed numbers as they notice planted defects
        Path csv = dir.resolve("catalog.csv");
        Path truth = dir.resolve("catalog.truth.csv");
        SampleCatalogGenerator.write(5, 300, SampleCatalogGenerator.Vocabulary.SAMPLE, csv, truth);
        List<PlantedDefect> defects = SampleCatalogGenerator.plantedDefects(truth, csv);
        RealisticJudges judges = RealisticJudges.forCatalog(csv, "id", defects, SampleCatalogGenerator.benchmarkCriteria(),
                RealisticJudges.Settings.defaults(5)).noticingAlteredText("description");
        try (CatalogModelServer server = CatalogModelServer.start(judges)) {
            // one round of half the catalog, with canaries for half the sample (75: 19 clean copies)
            String template;
            try (InputStream in = getClass().getClassLoader().getResourceAsStream("bench/products-llm.yml")) {
                template = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
            Path job = dir.resolve("job.yml");
            Files.writeString(job, template.replace("@CSV@", csv.toAbsolutePath().toString())
                    .replace("@BASE_URL@", server.baseUrl()).replace("@RATE@", "0.5").replace("@MAX_ROUNDS@", "1")
                    .replace("  pattern-similarity: 0.45\n", "  pattern-similarity: 0.45\n  canary-share: 0.5\n"));
            ByteArrayOutputStream log = new ByteArrayOutputStream();

            // when the job runs
            int exit = Cli.run(new String[] {"run", job.toString(), "--out", dir.resolve("out").toString(), "--run-id", "r1"},
                    Map.of("spring.datasource.url", "jdbc:h2:file:" + dir.resolve("db/santa") + ";AUTO_SERVER=TRUE;WRITE_DELAY=0",
                            Launcher.ENV_PROPERTY_PREFIX + "BENCH_MODEL_KEY", "none"),
                    new PrintStream(log, true, StandardCharsets.UTF_8), System.err);

            // then each reviewer's canary sensitivity is within its 95 % interval of 1 - its miss rate,
            // and within 0.15 of it (the half-width of a 95 % interval at p = 0.75, n = 56 is about 0.12)
            String output = log.toString(StandardCharsets.UTF_8);
            assertThat(exit).as(output).isIn(0, 3);
            assertThat(judges.unmatchedRequests()).isZero();
            Map<String, Object> report = RunReport.read(dir.resolve("out/products-llm/r1/report.json"));
            Map<String, Object> canaries = (Map<String, Object>) report.get("canaries");
            Map<String, Object> reviewers = (Map<String, Object>) canaries.get("reviewers");
            for (var e : Map.of("B", 0.75, "C", 0.70).entrySet()) {
                Map<String, Object> s = (Map<String, Object>) ((Map<String, Object>) reviewers.get(e.getKey())).get("sensitivity");
                assertThat(((Number) s.get("of")).intValue()).as(e.getKey()).isGreaterThanOrEqualTo(50);
                List<Double> ci = (List<Double>) s.get("interval_95");
                assertThat(e.getValue()).as(e.getKey() + " " + s).isBetween(ci.get(0), ci.get(1));
                assertThat((Double) s.get("estimate")).as(e.getKey() + " " + s)
                        .isCloseTo(e.getValue(), org.assertj.core.api.Assertions.within(0.15));
            }
            // the panel fails a canary when either does: 1 - 0.25 x 0.30 = 0.925
            Map<String, Object> panel = (Map<String, Object>) ((Map<String, Object>) canaries.get("panel")).get("sensitivity");
            List<Double> ci = (List<Double>) panel.get("interval_95");
            assertThat(0.925).as(panel.toString()).isBetween(ci.get(0), ci.get(1));
            assertThat(output).contains("canaries: panel caught");
            output.lines().filter(l -> l.contains("canaries: panel")).forEach(System.out::println);
        }
    }
}
