package dev.santabatch.batch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.santabatch.cli.Cli;
import dev.santabatch.export.RunReport;
import dev.santabatch.eval.SampleCatalogGenerator;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The default job's offline panel with every threshold loosened as far as it goes (the semantic
 * reviewer then passes nearly everything; the lexical one keeps its threshold-free checks), on a
 * catalog of the generator's fresh pool: its canaries show it misses the defects it is there to
 * find, and the run ends {@code panel-does-not-fit}, not clean.
 */
class BlindOfflinePanelFunctionalTests {

    @TempDir
    Path dir;

    /** Every threshold that makes a reviewer fail something, at the value that makes it fail least. */
    static final Map<String, String> BLIND = Map.ofEntries(
            Map.entry("near-duplicate-jaccard", "1.0"), Map.entry("source-overlap-margin", "1.0"),
            Map.entry("topic-similarity", "0.0"), Map.entry("whole-text-share", "1.0"),
            Map.entry("other-source-similarity", "1.0"), Map.entry("copy-cosine", "1.0"), Map.entry("passage-cosine", "1.0"),
            Map.entry("anchor-score", "0.0"), Map.entry("coherent-anchor-score", "0.0"), Map.entry("catalog-anchor-score", "0.0"),
            Map.entry("whole-text-source", "0.0"));

    @Test
    @SuppressWarnings("unchecked")
    void anOfflinePanelLoosenedToPassEverythingItCanEndsPanelDoesNotFit() throws Exception {
        // given a fresh-pool catalog and the default job with blind thresholds and a canary share of 25 %
        Path csv = dir.resolve("fresh.csv");
        Path truth = dir.resolve("fresh.truth.csv");
        SampleCatalogGenerator.write(11, 400, SampleCatalogGenerator.Vocabulary.FRESH, csv, truth);
        String job = Files.readString(Path.of("jobs/product-descriptions.yml"))
                .replace("path: ../sample-data/products.csv", "path: " + csv)
                .replace("ground-truth: ../sample-data/products.truth.csv", "ground-truth: " + truth)
                .replace("  max-rounds: 5\n", "  max-rounds: 5\n  canary-share: 0.25\n");
        for (var e : BLIND.entrySet()) {
            Matcher m = Pattern.compile("(\n      " + Pattern.quote(e.getKey()) + ": )[0-9.]+").matcher(job);
            assertThat(m.find()).as(e.getKey()).isTrue();
            job = m.replaceFirst("$1" + e.getValue());
        }
        Path jobFile = dir.resolve("blind.yml");
        Files.writeString(jobFile, job);
        ByteArrayOutputStream out = new ByteArrayOutputStream();

        // when it runs
        int exit = Cli.run(new String[] {"run", jobFile.toString(), "--out", dir.resolve("out").toString(), "--run-id", "b1"},
                Map.of("spring.datasource.url", "jdbc:h2:file:" + dir.resolve("db/santa") + ";AUTO_SERVER=TRUE;WRITE_DELAY=0"),
                new PrintStream(out, true, StandardCharsets.UTF_8), System.err);

        // then it does not end clean: the panel does not fit, on its sensitivity
        String output = out.toString(StandardCharsets.UTF_8);
        output.lines().filter(l -> l.contains("canaries:") || l.contains("fit:") || l.contains("status:"))
                .forEach(System.out::println);
        assertThat(exit).as(output).isEqualTo(3);
        Map<String, Object> report = RunReport.read(dir.resolve("out/product-descriptions/b1/report.json"));
        assertThat(report.get("reason")).isEqualTo("panel-does-not-fit");
        List<Map<String, Object>> figures = (List<Map<String, Object>>) ((Map<String, Object>) report.get("panel_fit")).get("figures");
        assertThat(figures).filteredOn(f -> Boolean.TRUE.equals(f.get("fails"))).extracting(f -> f.get("figure"))
                .contains("sensitivity");
        Map<String, Object> panel = (Map<String, Object>) ((Map<String, Object>) ((Map<String, Object>) report.get("canaries"))
                .get("panel")).get("sensitivity");
        assertThat(((Number) panel.get("estimate")).doubleValue()).isLessThan(0.8);
        assertThat(report.get("status")).isEqualTo("not-clean");
        assertThat(dir.resolve("out/product-descriptions/b1/catalog.csv")).doesNotExist();
    }
}
