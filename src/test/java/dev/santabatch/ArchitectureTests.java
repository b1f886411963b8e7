package dev.santabatch;

import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.library.Architectures.LayeredArchitecture;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The main code's shape: no cycles among packages, each layer uses only the layers below
 * it, and no class over {@value #MAX_LINES} lines unless {@link #LARGE_CLASSES} says why.
 */
class ArchitectureTests {

    private static final JavaClasses MAIN = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.santabatch");

    /**
     * The layers, top to bottom, each a list of packages under {@code dev.santabatch} (a package
     * here is one package, not its subpackages). A layer may use the layers below it, never one above
     * it; within a layer, packages may use one another as long as no cycle forms. Read top to bottom,
     * the phases come in the reverse order of the flow: a later phase builds on what earlier ones left.
     */
    private static final List<List<String>> LAYERS = List.of(
            List.of("cli"),
            // the run's lifecycle: run row, lock, heartbeat, restart, exit codes; the sample-catalog
            // generators (santa-batch generate), here so that nothing on the shipping path can use them
            List.of("run", "eval"),
            // the Spring Batch job: its flow, steps and decider as beans
            List.of("batch"),
            // what is written from a run or before one: outputs, report.json and report.html; santa-batch plan
            List.of("export", "plan"),
            // the phases, last first: decide; batch fix and canaries; review; classify
            List.of("decide"),
            List.of("batchfix", "canary"),
            List.of("review.step"),
            List.of("patterns"),
            // ingest, pre-pass (with carry-over) and sampling
            List.of("ingest", "prepass", "carry", "sampling"),
            // the reviewers (model, lexical, semantic) and what the offline ones share; rule induction
            List.of("review.llm", "review.lexical", "review.semantic", "review.offline", "batchfix.induction"),
            // the loop's record of a run; what running steps share
            List.of("rounds", "execution"),
            // model calls; the store; statistics; the rules; run history
            List.of("model", "model.http", "persistence", "stats", "prepass.rules", "history"),
            // the review's contract: reviewer, review, panel, gate, Santa processor
            List.of("review"),
            // the job file bound to records; text utilities
            List.of("config", "text"));

    private static final int MAX_LINES = 400;

    /** Main classes over {@value #MAX_LINES} lines, by path under src/main/java, with why. */
    private static final Map<String, String> LARGE_CLASSES = Map.ofEntries(
            Map.entry("dev/santabatch/review/semantic/SemanticIndex.java",
                    "one round's semantic index: embeddings, category references, passages and three LSH families with their tables"),
            Map.entry("dev/santabatch/run/Launcher.java",
                    "the run's lifecycle (run row, lock, heartbeat, recovery, restart checks, exit status) and the status, history, plan and audit commands; the commands to move out"),
            Map.entry("dev/santabatch/export/RunReport.java",
                    "builds report.json's typed record from the store, section by section; the sections still built as maps are to be typed"),
            Map.entry("dev/santabatch/config/JobFileLoader.java",
                    "the job file's defaults, ranges and cross-key checks with their file:line:key messages"),
            Map.entry("dev/santabatch/eval/SampleCatalogGenerator.java",
                    "test-data generator: the product catalog and its planted defects, one seeded sequence"),
            Map.entry("dev/santabatch/export/HtmlReport.java",
                    "report.html: one renderer per section of the report map; follows the typed report"),
            Map.entry("dev/santabatch/review/lexical/LexicalIndex.java",
                    "the lexical reviewer's MinHash/LSH index with its tables, bucket caps and stop shingles"),
            Map.entry("dev/santabatch/persistence/Store.java",
                    "one repository for runs, items, revisions and rejects; to become a repository per aggregate"),
            Map.entry("dev/santabatch/model/CallGovernor.java",
                    "every model call's rate limits, permits, budgets, retries and circuit breakers, in one place by design"),
            Map.entry("dev/santabatch/batchfix/LearnedRules.java",
                    "the learned-rule stage: induction, validation, re-validation and the review check"),
            Map.entry("dev/santabatch/eval/CatalogVocabulary.java",
                    "word lists of the sample generator: data, not logic"),
            Map.entry("dev/santabatch/rounds/LoopStore.java",
                    "the SQL of the loop's tables (rounds, samples, reviews, flags, issues, patterns); to become a repository per aggregate"),
            Map.entry("dev/santabatch/plan/Plan.java",
                    "the plan's cost model, one formula per part of a round, and its text"),
            Map.entry("dev/santabatch/prepass/rules/NumberGroundingRule.java",
                    "number grounding: the parser of quantities, ranges and units and their matching to attributes"),
            Map.entry("dev/santabatch/eval/ListingComposer.java",
                    "test-data generator: the listings domain's texts and planted defects"),
            Map.entry("dev/santabatch/review/step/ReviewStep.java",
                    "the review step's reader, pipeline hand-off, review reuse and writer"),
            Map.entry("dev/santabatch/config/JobFileYaml.java",
                    "YAML to the job file's records with the line of every key, and the scalar parsers"),
            Map.entry("dev/santabatch/eval/RecipeCatalogGenerator.java",
                    "test-data generator: the recipe domain's cards and planted defects"),
            Map.entry("dev/santabatch/batchfix/ModelBatchFix.java",
                    "the model batch fix's reader, matcher calls and writer"),
            Map.entry("dev/santabatch/review/semantic/SemanticReviewer.java",
                    "the semantic reviewer's decision rules for its two criteria"));

    @Test
    void packagesAreFreeOfCycles() {
        slices().matching("dev.santabatch.(**)").should().beFreeOfCycles().check(MAIN);
    }

    @Test
    void noLayerReachesIntoAHigherOne() {
        layers().check(MAIN);
    }

    private static LayeredArchitecture layers() {
        LayeredArchitecture architecture = layeredArchitecture().consideringOnlyDependenciesInLayers()
                // the Spring Boot application class (dev.santabatch itself) starts the command line
                // and is started by the launcher: it belongs to no layer
                .ensureAllClassesAreContainedInArchitectureIgnoring("dev.santabatch");
        for (List<String> layer : LAYERS) {
            architecture = architecture.layer(name(layer))
                    .definedBy(layer.stream().map(p -> "dev.santabatch." + p).toArray(String[]::new));
        }
        architecture = architecture.whereLayer(name(LAYERS.get(0))).mayNotBeAccessedByAnyLayer();
        for (int i = 1; i < LAYERS.size(); i++) {
            architecture = architecture.whereLayer(name(LAYERS.get(i)))
                    .mayOnlyBeAccessedByLayers(LAYERS.subList(0, i).stream().map(ArchitectureTests::name).toArray(String[]::new));
        }
        return architecture;
    }

    private static String name(List<String> layer) {
        return String.join("+", layer);
    }

    @Test
    void largeClassesSayWhy() throws IOException {
        Path root = Path.of("src/main/java");
        Map<String, Long> large = new TreeMap<>();
        try (Stream<Path> files = Files.walk(root)) {
            files.filter(p -> p.toString().endsWith(".java")).forEach(p -> {
                long lines = lines(p);
                if (lines > MAX_LINES) {
                    large.put(root.relativize(p).toString().replace('\\', '/'), lines);
                }
            });
        }
        List<String> unexplained = new ArrayList<>();
        large.forEach((path, lines) -> {
            if (!LARGE_CLASSES.containsKey(path)) {
                unexplained.add(path + " (" + lines + " lines)");
            }
        });
        assertThat(unexplained).as("main classes over %d lines without a reason in LARGE_CLASSES", MAX_LINES).isEmpty();
        assertThat(LARGE_CLASSES.keySet().stream().filter(path -> !large.containsKey(path)).sorted())
                .as("LARGE_CLASSES entries no longer over %d lines (or gone): remove them", MAX_LINES)
                .isEmpty();
    }

    private static long lines(Path file) {
        try (Stream<String> lines = Files.lines(file)) {
            return lines.count();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
