package dev.santabatch.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.santabatch.config.Criterion.CheckedBy;
import dev.santabatch.config.ModelSpec.StructuredOutput;
import dev.santabatch.config.RuleSpec.FixKind;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class JobFileLoaderTests {

    /** A minimal valid job: one Santa criterion, judged by the default reviewers. Lines 1-10. */
    private static final String BASE = """
            name: t
            input:
              path: data.csv
              id-column: id
              content-column: text
            task-spec: Write things.
            rubric:
              - id: tone
                pass: Friendly.
                fail-signal: Rude.
            """;

    @TempDir
    Path dir;

    @BeforeEach
    void data() throws IOException {
        Files.writeString(dir.resolve("data.csv"), "id,text\n1,hello\n");
    }

    private Path write(String yaml) throws IOException {
        Path file = dir.resolve("job.yml");
        Files.writeString(file, yaml, StandardCharsets.UTF_8);
        return file;
    }

    @Test
    void defaultJobFileLoadsWithItsValuesAndDefaults() throws Exception {
        // given the bundled job file, with its sample data beside it as in the repository
        Path jobs = Files.createDirectories(dir.resolve("jobs"));
        Path sample = Files.createDirectories(dir.resolve("sample-data"));
        Files.writeString(sample.resolve("products.csv"), "id,name\n");
        Files.writeString(sample.resolve("products.truth.csv"), "id,defect\n");
        Path file = Files.copy(Path.of("jobs/product-descriptions.yml"), jobs.resolve("product-descriptions.yml"));

        // when
        JobFileLoader.Result result = JobFileLoader.loadWithWarnings(file);
        JobDefinition job = result.definition();

        // then
        assertThat(result.warnings()).isEmpty();
        assertThat(job.file()).isEqualTo(file);
        assertThat(job.name()).isEqualTo("product-descriptions");
        assertThat(job.input().path()).isEqualTo(sample.resolve("products.csv").toAbsolutePath().normalize());
        assertThat(job.input().groundTruth()).isEqualTo(sample.resolve("products.truth.csv").toAbsolutePath().normalize());
        assertThat(job.input().idColumn()).isEqualTo("id");
        assertThat(job.input().contentColumn()).isEqualTo("description");
        assertThat(job.input().categoryColumn()).isEqualTo("category");
        assertThat(job.input().sourceColumns())
                .containsExactly("name", "brand", "category", "price", "warranty_years", "battery_hours");
        assertThat(job.taskSpec()).startsWith("Write a product description");

        assertThat(job.rubric()).extracting(Criterion::id)
                .containsExactly("compliance", "disclaimer", "factual-accuracy", "length", "on-specification", "original");
        assertThat(job.rubric()).extracting(Criterion::checkedBy).containsExactly(
                CheckedBy.RULES, CheckedBy.RULES, CheckedBy.RULES, CheckedBy.RULES, CheckedBy.SANTA, CheckedBy.SANTA);
        assertThat(job.criterion("length").orElseThrow().name()).isEqualTo("Length");

        var forbidden = (RuleSpec.ForbiddenTerms) job.criterion("compliance").orElseThrow().rules().get(0);
        assertThat(forbidden.id()).isEqualTo("forbidden-claims");
        assertThat(forbidden.terms()).hasSize(5).contains("clinically proven");
        assertThat(forbidden.patterns()).isEmpty();
        assertThat(forbidden.replacements()).containsEntry("miracle", "remarkable").hasSize(5);
        assertThat(forbidden.fix()).isEqualTo(FixKind.SUBSTITUTE);

        var phrase = (RuleSpec.RequiredPhrase) job.criterion("disclaimer").orElseThrow().rules().get(0);
        assertThat(phrase.column()).isEqualTo("category");
        assertThat(phrase.values()).containsExactly("supplements");
        assertThat(phrase.phrase()).startsWith("These statements").endsWith("Administration.");
        assertThat(phrase.fix()).isEqualTo(FixKind.APPEND);

        var grounding = (RuleSpec.NumberGrounding) job.criterion("factual-accuracy").orElseThrow().rules().get(0);
        assertThat(grounding.attributes()).extracting(RuleSpec.GroundedAttribute::unit).containsExactly(Unit.YEAR, Unit.HOUR);
        assertThat(grounding.attributes().get(1).keywords()).contains("battery life");
        assertThat(grounding.fix()).isEqualTo(FixKind.CORRECT);

        var length = (RuleSpec.Length) job.criterion("length").orElseThrow().rules().get(0);
        assertThat(length.min()).isEqualTo(40);
        assertThat(length.max()).isEqualTo(2000);
        assertThat(length.fix()).isEqualTo(FixKind.NONE);

        assertThat(job.sampling()).isEqualTo(new SamplingSpec(0.12, false, 5, 100, 20261130L));
        assertThat(job.santa()).isEqualTo(new SantaSpec(3, 5, 2, 0.10, 0.4, 0.45, 20, null));
        // every threshold at its default (SemanticSettingsTests.theDefaultJobFileListsEveryThresholdAtItsDefault)
        assertThat(job.reviewers()).extracting(ReviewerSpec::id, ReviewerSpec::type, ReviewerSpec::criteria).containsExactly(
                org.assertj.core.groups.Tuple.tuple("B", "lexical", List.of("on-specification", "original")),
                org.assertj.core.groups.Tuple.tuple("C", "semantic", List.of("on-specification", "original")));
        assertThat(job.reviewers().get(0).thresholds()).containsEntry("near-duplicate-jaccard", 0.40).containsEntry("source-overlap-margin", 0.30);
        assertThat(job.reviewers().get(1).thresholds()).containsEntry("topic-similarity", 0.46).containsEntry("passage-cosine", 0.55)
                .containsEntry("copy-cosine", 0.97).containsEntry("min-category-peers", 40.0);
        assertThat(job.reviewers()).allMatch(r -> r.model() == null);
        assertThat(job.fixer()).isEqualTo(new FixerSpec("offline", null));
        assertThat(job.run()).isEqualTo(new RunSpec(500, 4));
        assertThat(job.budget()).isEqualTo(new BudgetSpec(null, null, null, null, null, null));
    }

    @Test
    void defaultJobFileLoadsInPlaceWhenTheSampleDataExists() throws Exception {
        Path file = Path.of("jobs/product-descriptions.yml");
        Assumptions.assumeTrue(Files.isRegularFile(Path.of("sample-data/products.csv")), "sample data not generated yet");

        assertThat(JobFileLoader.load(file).name()).isEqualTo("product-descriptions");
    }

    @Test
    void llmJobFileLoadsWithModelReviewersOfTwoFamiliesAFixerAndAMatcher() throws Exception {
        // given the bundled llm job file, with its sample data beside it as in the repository
        Path jobs = Files.createDirectories(dir.resolve("jobs"));
        Path sample = Files.createDirectories(dir.resolve("sample-data"));
        Files.writeString(sample.resolve("products.csv"), "id,name\n");
        Files.writeString(sample.resolve("products.truth.csv"), "id,defect\n");
        Path file = Files.copy(Path.of("jobs/product-descriptions-llm.yml"), jobs.resolve("product-descriptions-llm.yml"));

        // when
        JobFileLoader.Result result = JobFileLoader.loadWithWarnings(file);
        JobDefinition job = result.definition();

        // then
        assertThat(result.warnings()).isEmpty();
        assertThat(job.name()).isEqualTo("product-descriptions-llm");
        assertThat(job.modelPanel()).isTrue();
        assertThat(job.reviewers()).extracting(ReviewerSpec::id).containsExactly("B", "C");
        assertThat(job.reviewers()).allSatisfy(r -> assertThat(r.criteria())
                .containsExactly("factual-accuracy", "on-specification", "original"));
        assertThat(job.sameModelReviewers()).isEmpty();
        assertThat(job.reviewers().get(0).model().model()).isEqualTo("REVIEWER-B-MODEL");
        assertThat(job.reviewers().get(1).model().structuredOutput()).isEqualTo(StructuredOutput.JSON_OBJECT);
        assertThat(job.fixer().type()).isEqualTo("llm");
        assertThat(job.matcher().fromFixer()).isFalse();
        assertThat(job.matcher().model().model()).isEqualTo("MATCHER-MODEL");
        assertThat(job.run().concurrency() * job.reviewers().size()).isEqualTo(32);
        assertThat(job.governor().maxInFlightPerEndpoint()).isEqualTo(32);
        assertThat(job.budget().maxCalls()).isEqualTo(5000L);
        // the same input and rubric as the default job, apart from the models' extra criterion
        JobDefinition offline = JobFileLoader.load(Files.copy(Path.of("jobs/product-descriptions.yml"),
                jobs.resolve("product-descriptions.yml")));
        assertThat(job.input()).isEqualTo(offline.input());
        assertThat(job.rubric()).extracting(Criterion::id).isEqualTo(offline.rubric().stream().map(Criterion::id).toList());
    }

    @Test
    void minimalJobGetsEveryDefault() throws Exception {
        // given
        Path file = write(BASE);

        // when
        JobFileLoader.Result result = JobFileLoader.loadWithWarnings(file);
        JobDefinition job = result.definition();

        // then
        assertThat(result.warnings()).isEmpty();
        assertThat(job.input().categoryColumn()).isNull();
        assertThat(job.input().sourceColumns()).isEmpty();
        assertThat(job.input().groundTruth()).isNull();
        Criterion tone = job.rubric().get(0);
        assertThat(tone.name()).isEqualTo("tone");
        assertThat(tone.checkedBy()).isEqualTo(CheckedBy.SANTA);
        assertThat(tone.rules()).isEmpty();
        assertThat(job.sampling()).isEqualTo(new SamplingSpec(0.12, false, 5, 100, null));
        assertThat(job.santa()).isEqualTo(new SantaSpec(3, 5, 2, 0.10, 0.4, 0.45, 20, null));
        assertThat(job.reviewers()).extracting(ReviewerSpec::id).containsExactly("B", "C");
        assertThat(job.reviewers()).extracting(ReviewerSpec::type).containsExactly("lexical", "semantic");
        assertThat(job.reviewers()).allSatisfy(r -> assertThat(r.criteria()).containsExactly("tone"));
        assertThat(job.fixer()).isEqualTo(new FixerSpec("offline", null));
        assertThat(job.run()).isEqualTo(new RunSpec(500, 4));
    }

    @Test
    void aRateOutsideTheRangeIsAcceptedOnlyWithTheOverrideKey() throws Exception {
        JobDefinition job = JobFileLoader.load(write(BASE + "sampling:\n  rate: 0.2\n  allow-rate-outside-range: true\n"));
        assertThat(job.sampling()).isEqualTo(new SamplingSpec(0.2, true, 5, 100, null));
        // even with the override a rate must be a share of the items
        JobFileException e = catchThrowableOfType(JobFileException.class,
                () -> JobFileLoader.load(write(BASE + "sampling:\n  rate: 1.5\n  allow-rate-outside-range: true\n")));
        assertThat(e.getMessage()).contains("sampling.rate").contains("greater than 0 and at most 1");
    }

    @Test
    void llmModelSpecGetsDefaultsAndParsesDurations() throws Exception {
        // given
        Path file = write(BASE + """
                reviewers:
                  - id: B
                    type: llm
                    model:
                      model: gpt-4o-mini
                  - id: C
                    type: llm
                    model:
                      base-url: http://localhost:11434/v1
                      model: qwen2.5
                      api-key-env: OLLAMA_KEY
                      temperature: 0.3
                      timeout: 2m
                      max-output-tokens: 2048
                      structured-output: prompt
                      price-input-per-million: 0.15
                fixer:
                  type: llm
                  model:
                    model: gpt-4o
                    timeout: PT30S
                budget:
                  max-calls: 1000
                  max-cost: 2.5
                """);

        // when
        JobDefinition job = JobFileLoader.load(file);

        // then
        ModelSpec b = job.reviewers().get(0).model();
        assertThat(b).isEqualTo(new ModelSpec(null, "gpt-4o-mini", "OPENAI_API_KEY", 0.0, Duration.ofSeconds(60), 1024,
                StructuredOutput.JSON_SCHEMA, null, null));
        ModelSpec c = job.reviewers().get(1).model();
        assertThat(c).isEqualTo(new ModelSpec("http://localhost:11434/v1", "qwen2.5", "OLLAMA_KEY", 0.3,
                Duration.ofMinutes(2), 2048, StructuredOutput.PROMPT, 0.15, null));
        assertThat(job.reviewers()).allSatisfy(r -> assertThat(r.criteria()).containsExactly("tone"));
        assertThat(job.fixer().model().timeout()).isEqualTo(Duration.ofSeconds(30));
        assertThat(job.budget()).isEqualTo(new BudgetSpec(1000L, null, 2.5, null, null, null));
        // the matcher defaults to the llm fixer's model; the governor to its defaults
        assertThat(job.matcher()).isEqualTo(new MatcherSpec(job.fixer().model(), true, 0.25, MatcherSpec.DEFAULT_MIN_SIMILARITY));
        assertThat(job.governor()).isEqualTo(GovernorSpec.DEFAULTS);
        assertThat(job.modelPanel()).isTrue();
    }

    @Test
    void reasoningEffortIsReadAndRefusesATemperatureOrAnUnknownEffort() throws Exception {
        String reviewers = """
                reviewers:
                  - id: B
                    type: llm
                    model:
                      model: o4-mini
                      reasoning-effort: %s
                  - id: C
                    type: llm
                    model:
                      model: gpt-4o-mini
                """;
        JobDefinition job = JobFileLoader.load(write(BASE + reviewers.formatted("medium")));
        assertThat(job.reviewers().get(0).model().reasoningEffort()).isEqualTo(ModelSpec.ReasoningEffort.MEDIUM);
        assertThat(job.reviewers().get(1).model().reasoningEffort()).isEqualTo(ModelSpec.ReasoningEffort.NONE);

        JobFileException unknown = catchThrowableOfType(JobFileException.class,
                () -> JobFileLoader.load(write(BASE + reviewers.formatted("extreme"))));
        assertThat(unknown.getMessage()).contains("reasoning-effort").contains("none").contains("high").contains(":");
        JobFileException temperature = catchThrowableOfType(JobFileException.class, () -> JobFileLoader.load(write(BASE
                + reviewers.formatted("low").replace("reasoning-effort: low", "reasoning-effort: low\n      temperature: 0.2"))));
        assertThat(temperature.getMessage()).contains("temperature").contains("reasoning");
    }

    @Test
    void matcherModelAndGovernorKeysAreRead() throws Exception {
        // given a matcher of its own and every governor key
        Path file = write(BASE + """
                reviewers:
                  - id: B
                    type: llm
                    model:
                      model: gpt-4o-mini
                  - id: C
                    type: llm
                    model:
                      base-url: http://localhost:11434/v1
                      model: qwen2.5
                matcher:
                  model:
                    model: gpt-4o-mini
                    max-output-tokens: 700
                  max-candidate-share: 0.2
                  min-similarity: 0.6
                governor:
                  max-in-flight-per-endpoint: 64
                  max-in-flight-per-model: 32
                  requests-per-minute-per-model: 500
                  max-attempts: 3
                  initial-backoff: 250ms
                  max-backoff: 10s
                  jitter: 0.1
                  max-retry-after: 1m
                  log-requests: true
                  circuit-breaker-failures: 7
                """);

        // when
        JobFileLoader.Result result = JobFileLoader.loadWithWarnings(file);
        JobDefinition job = result.definition();

        // then
        assertThat(result.warnings()).isEmpty();
        assertThat(job.matcher().fromFixer()).isFalse();
        assertThat(job.matcher().model().model()).isEqualTo("gpt-4o-mini");
        assertThat(job.matcher().model().maxOutputTokens()).isEqualTo(700);
        assertThat(job.matcher().maxCandidateShare()).isEqualTo(0.2);
        assertThat(job.matcher().minSimilarity()).isEqualTo(0.6);
        assertThat(job.governor()).isEqualTo(new GovernorSpec(64, 32, 500, 3, Duration.ofMillis(250),
                Duration.ofSeconds(10), 0.1, Duration.ofMinutes(1), true, 7));
    }

    @Test
    void twoReviewersOnTheSameEndpointAndModelAreAWarning() throws Exception {
        // given B and C on one model at one endpoint (one URL with a trailing slash)
        Path file = write(BASE + """
                reviewers:
                  - id: B
                    type: llm
                    model:
                      base-url: http://localhost:8000/v1
                      model: llama-3.1-8b
                  - id: C
                    type: llm
                    model:
                      base-url: http://localhost:8000/v1/
                      model: llama-3.1-8b
                      temperature: 0.7
                fixer:
                  type: llm
                  model:
                    model: gpt-4o
                """);

        // when
        JobFileLoader.Result result = JobFileLoader.loadWithWarnings(file, NO_ENV);

        // then
        assertThat(result.definition().sameModelReviewers(NO_ENV))
                .containsExactly("B and C: model 'llama-3.1-8b' at http://localhost:8000/v1");
        assertThat(result.warnings()).containsExactly(file + ":12: key 'reviewers': reviewers B and C: model 'llama-3.1-8b'"
                + " at http://localhost:8000/v1 use the same endpoint and model: they share its biases, so their"
                + " agreement says little; use models of different families (see README, 'Model reviewers')");
    }

    @Test
    void differentModelsOrEndpointsAreNoWarning() throws Exception {
        Path file = write(BASE + """
                reviewers:
                  - id: B
                    type: llm
                    model:
                      model: llama-3.1-8b
                  - id: C
                    type: llm
                    model:
                      base-url: http://localhost:8000/v1
                      model: llama-3.1-8b
                  - id: D
                    type: llm
                    model:
                      model: qwen2.5-7b
                fixer:
                  type: llm
                  model:
                    model: gpt-4o
                """);

        JobFileLoader.Result result = JobFileLoader.loadWithWarnings(file, NO_ENV);

        assertThat(result.definition().sameModelReviewers(NO_ENV)).isEmpty();
        assertThat(result.warnings()).isEmpty();
    }

    static final java.util.function.Function<String, String> NO_ENV = name -> null;

    static final String OPENAI_AND_DEFAULT = BASE + """
            reviewers:
              - id: B
                type: llm
                model:
                  model: gpt-4o
              - id: C
                type: llm
                model:
                  base-url: HTTPS://api.openai.com/v1/
                  model: gpt-4o
              - id: D
                type: llm
                model:
                  base-url: http://localhost:8000/v1/
                  model: gpt-4o
            fixer:
              type: llm
              model:
                model: gpt-4o-mini
            """;

    @Test
    void aMissingBaseUrlIsTheDefaultEndpointWhenTheSameModelIsCompared() throws Exception {
        // given B without base-url and C with OpenAI's own URL (other case, trailing slash), no OPENAI_BASE_URL
        Path file = write(OPENAI_AND_DEFAULT);

        JobFileLoader.Result result = JobFileLoader.loadWithWarnings(file, NO_ENV);

        // then B and C are one endpoint and model; D at a local server is not
        assertThat(result.definition().sameModelReviewers(NO_ENV))
                .containsExactly("B and C: model 'gpt-4o' at https://api.openai.com/v1");
        assertThat(result.warnings()).singleElement().asString()
                .contains("reviewers B and C: model 'gpt-4o' at https://api.openai.com/v1 use the same endpoint and model");
    }

    @Test
    void aMissingBaseUrlIsTheEnvironmentsOpenAiBaseUrlWhenTheSameModelIsCompared() throws Exception {
        // given OPENAI_BASE_URL points at the local server D names (without D's trailing slash)
        Path file = write(OPENAI_AND_DEFAULT);
        java.util.function.Function<String, String> env =
                name -> name.equals("OPENAI_BASE_URL") ? " http://localhost:8000/v1 " : null;

        JobFileLoader.Result result = JobFileLoader.loadWithWarnings(file, env);

        // then B is D's endpoint, and C (OpenAI's) is no longer B's
        assertThat(result.definition().sameModelReviewers(env))
                .containsExactly("B and D: model 'gpt-4o' at http://localhost:8000/v1");
        assertThat(result.warnings()).singleElement().asString().contains("reviewers B and D: model 'gpt-4o'");
    }

    @Test
    void aMixedPanelBatchFixesWithTheModelMatcherWhenOneExistsAndIsWarnedAboutOtherwise() throws Exception {
        // given a mixed panel: a model reviewer beside an offline one, and an llm fixer
        String mixed = BASE + """
                reviewers:
                  - id: B
                    type: llm
                    model:
                      model: gpt-4o-mini
                  - id: C
                    type: lexical
                """;
        Path file = write(mixed + """
                fixer:
                  type: llm
                  model:
                    model: gpt-4o
                """);

        JobFileLoader.Result withFixer = JobFileLoader.loadWithWarnings(file);

        // then the batch fix uses the model matcher (the fixer's model), not the full scan
        assertThat(withFixer.definition().modelPanel()).isFalse();
        assertThat(withFixer.definition().anyModelReviewer()).isTrue();
        assertThat(withFixer.definition().batchFixByModelMatcher()).isTrue();
        assertThat(withFixer.warnings()).noneMatch(w -> w.contains("matcher"));

        // given the same panel with an offline fixer and no matcher model
        JobFileLoader.Result without = JobFileLoader.loadWithWarnings(write(mixed));

        // then it would scan in full, calling the model reviewer on every eligible item: a warning
        assertThat(without.definition().batchFixByModelMatcher()).isFalse();
        assertThat(without.warnings()).anySatisfy(w -> assertThat(w).contains("key 'matcher'")
                .contains("no matcher model is named").contains("its model calls included"));

        // and an all-offline panel never uses the model matcher, whatever the fixer
        JobFileLoader.Result offline = JobFileLoader.loadWithWarnings(write(BASE + """
                reviewers:
                  - id: B
                    type: lexical
                  - id: C
                    type: semantic
                fixer:
                  type: llm
                  model:
                    model: gpt-4o
                """));
        assertThat(offline.definition().batchFixByModelMatcher()).isFalse();
        assertThat(offline.warnings()).noneMatch(w -> w.contains("matcher"));
    }

    @Test
    void aModelPanelWithoutAMatcherModelIsAWarning() throws Exception {
        Path file = write(BASE + """
                reviewers:
                  - id: B
                    type: llm
                    model:
                      model: gpt-4o-mini
                  - id: C
                    type: llm
                    model:
                      model: qwen2.5
                """);

        JobFileLoader.Result result = JobFileLoader.loadWithWarnings(file);

        assertThat(result.definition().matcher()).isEqualTo(new MatcherSpec(null, false, 0.25, MatcherSpec.DEFAULT_MIN_SIMILARITY));
        assertThat(result.warnings()).singleElement().asString().contains("key 'matcher'")
                .contains("no matcher model is named");
    }

    @Test
    void criterionJudgedByOneReviewerIsAWarning() throws Exception {
        // given two Santa criteria, 'style' judged only by B
        Path file = write(BASE + """
                  - id: style
                    pass: Plain.
                    fail-signal: Ornate.
                    checked-by: santa
                reviewers:
                  - id: B
                    type: lexical
                    criteria: [tone, style]
                  - id: C
                    type: semantic
                    criteria: [tone]
                """);

        // when
        JobFileLoader.Result result = JobFileLoader.loadWithWarnings(file);

        // then
        assertThat(result.warnings()).containsExactly(file + ":14: key 'rubric[1].checked-by': criterion 'style' is "
                + "judged by only one reviewer (B); it is not dual-reviewed");
    }

    @Test
    void carryOverIsOnWithAMaxAgeOfSevenRunsAndATargetBoundOfFivePercentUnlessTheJobSaysOtherwise() throws Exception {
        assertThat(JobFileLoader.load(write(BASE)).carryOver()).isEqualTo(new CarryOverSpec(true, 7, 0.05));
        assertThat(JobFileLoader.load(write(BASE + "carry-over:\n  enabled: false\n  max-age: 3\n  target-bound: 0.02\n"))
                .carryOver()).isEqualTo(new CarryOverSpec(false, 3, 0.02));
    }

    @Test
    void anAcceptanceNumberLoads() throws Exception {
        assertThat(JobFileLoader.load(write(BASE + "santa:\n  acceptance-number: 0\n")).santa().acceptanceNumber())
                .isZero();
    }

    @Test
    void canaryKeysLoadWithTheirDefaultsAndTheDefaultJobsCriteriaGetTheirCanaries() throws Exception {
        JobDefinition defaults = JobFileLoader.load(write(BASE));
        assertThat(defaults.santa().fit()).isEqualTo(new FitSpec(0.05, 4, 0.8, 0.05, 0.5));
        // "tone" says nothing a canary kind tests
        assertThat(defaults.canaries()).isEmpty();

        JobDefinition job = JobFileLoader.load(write(BASE.replace("    fail-signal: Rude.\n", """
                                fail-signal: Rude.
                                canaries: [boilerplate, changed-number]
                              - id: on-specification
                                pass: About the item.
                                fail-signal: About another product.
                              - id: original
                                pass: Written for it.
                                fail-signal: Copied.
                              - id: factual-accuracy
                                pass: Numbers right.
                                fail-signal: A wrong number.
                                canaries: []
                            """) + """
                santa:
                  canary-share: 0.1
                  min-canaries: 6
                  min-panel-sensitivity: 0.9
                  max-false-flag-rate: 0.1
                  max-fail-share: 0.4
                """));
        assertThat(job.santa().fit()).isEqualTo(new FitSpec(0.1, 6, 0.9, 0.1, 0.4));
        assertThat(job.canaries()).containsExactly(
                java.util.Map.entry("tone", List.of(CanaryKind.BOILERPLATE, CanaryKind.CHANGED_NUMBER)),
                java.util.Map.entry("on-specification", List.of(CanaryKind.FOREIGN_SENTENCE)),
                java.util.Map.entry("original", List.of(CanaryKind.BOILERPLATE)));
        assertThat(job.santa().fit().canaries(144)).isEqualTo(15);
        assertThat(job.santa().fit().canaries(20)).isEqualTo(6);
    }

    @Test
    void theDefaultJobsPanelCriteriaGetCanariesAndItsRulesOnlyOnesNone() throws Exception {
        JobDefinition job = JobFileLoader.load(Path.of("jobs/product-descriptions.yml"));
        assertThat(job.canaries()).containsExactly(
                java.util.Map.entry("on-specification", List.of(CanaryKind.FOREIGN_SENTENCE)),
                java.util.Map.entry("original", List.of(CanaryKind.BOILERPLATE)));
    }

    @Test
    void badCanaryKeysAreNamedWithFileLineAndKey() throws Exception {
        Path rulesOnly = write(BASE + """
                  - id: short
                    pass: Short.
                    fail-signal: Long.
                    canaries: [changed-number]
                    rules:
                      - {id: len, type: length, min: 1, max: 10}
                """);
        JobFileException e = catchThrowableOfType(JobFileException.class, () -> JobFileLoader.load(rulesOnly));
        assertThat(e.getMessage()).startsWith(rulesOnly + ":14: key 'rubric[1].canaries': criterion 'short' is checked"
                + " by rules only; canaries test the panel");

        Path unknown = write(BASE + "    canaries: [foreign-sentence, typo]\n");
        e = catchThrowableOfType(JobFileException.class, () -> JobFileLoader.load(unknown));
        assertThat(e.getMessage()).isEqualTo(unknown + ":11: key 'rubric[0].canaries[1]': unknown canary kind 'typo'"
                + " (known: foreign-sentence, boilerplate, changed-number)");

        Path range = write(BASE + "santa:\n  min-panel-sensitivity: 1.5\n");
        e = catchThrowableOfType(JobFileException.class, () -> JobFileLoader.load(range));
        assertThat(e.getMessage()).startsWith(range + ":12: key 'santa.min-panel-sensitivity'");
    }

    @Test
    void countAndDistanceUnitsLoad() throws Exception {
        // given a listing's rating, capacity and distances
        Path file = write(BASE + """
                  - id: facts
                    pass: Right.
                    fail-signal: Wrong.
                    rules:
                      - id: grounded
                        type: number-grounding
                        attributes:
                          - {column: rating, unit: count, keywords: [rating, rated]}
                          - {column: centre_km, unit: kilometre, keywords: [centre]}
                          - {column: airport_mi, unit: mile, keywords: [airport]}
                """);

        // when
        JobDefinition job = JobFileLoader.load(file);

        // then
        var grounding = (RuleSpec.NumberGrounding) job.criterion("facts").orElseThrow().rules().get(0);
        assertThat(grounding.attributes()).extracting(RuleSpec.GroundedAttribute::unit)
                .containsExactly(Unit.COUNT, Unit.KILOMETRE, Unit.MILE);
    }

    @Test
    void rulesOfASantaOnlyCriterionAreAWarning() throws Exception {
        // given
        Path file = write(BASE + """
                    checked-by: santa
                    rules:
                      - id: short
                        type: length
                        max: 100
                """);

        // when
        JobFileLoader.Result result = JobFileLoader.loadWithWarnings(file);

        // then
        assertThat(result.warnings()).containsExactly(file + ":11: key 'rubric[0].checked-by': criterion 'tone' has "
                + "rules but is checked by santa only; its rules are not run (use checked-by both)");
        assertThat(result.definition().ruleCriteria()).isEmpty();
    }

    @Test
    void missingJobFileIsNamed() {
        Path file = dir.resolve("nope.yml");

        JobFileException e = catchThrowableOfType(JobFileException.class, () -> JobFileLoader.load(file));

        assertThat(e.getMessage()).isEqualTo(file + ": job file not found");
        assertThat(e.file()).isEqualTo(file);
    }

    @Test
    void referenceDocumentsExactlyTheKeysTheLoaderAccepts() throws IOException {
        // given the key column of every table in the reference
        List<String> documented = Files.readAllLines(Path.of("docs/job-file-reference.md")).stream()
                .filter(l -> l.startsWith("| `"))
                .map(l -> l.substring(3, l.indexOf('`', 3)))
                .filter(k -> !k.contains("-terms") && !k.contains("-phrase") && !k.equals("length")
                        && !k.contains("-grounding"))
                .toList();

        // then
        assertThat(documented).doesNotHaveDuplicates();
        assertThat(documented).containsExactlyInAnyOrderElementsOf(JobFileLoader.referenceKeys());
    }

    static Stream<Arguments> brokenJobFiles() {
        return Stream.of(
                Arguments.of("unknown top-level key", BASE + "colour: red\n", "colour", 11, "unknown key"),
                Arguments.of("unknown key, suggestion", BASE + "samplng:\n  rate: 0.1\n", "samplng", 11,
                        "did you mean 'sampling'?"),
                Arguments.of("unknown nested key", BASE.replace("  path: data.csv\n", "  path: data.csv\n  encoding: utf-8\n"),
                        "input.encoding", 4, "allowed here: path, id-column"),
                Arguments.of("key of another rule type", BASE + """
                          - id: len
                            pass: Short.
                            fail-signal: Long.
                            rules:
                              - id: len-rule
                                type: length
                                max: 10
                                terms: [x]
                        """, "rubric[1].rules[0].terms", 18, "unknown key for a length rule"),
                Arguments.of("rule column outside source-columns", BASE.replace("  content-column: text\n",
                        "  content-column: text\n  source-columns: [fuel]\n") + """
                          - id: specs
                            pass: Right.
                            fail-signal: Wrong.
                            rules:
                              - id: grounded
                                type: number-grounding
                                attributes:
                                  - {column: engine_size, unit: litre, keywords: [engine]}
                        """, "rubric[1].rules[0].attributes[0].column", 19, "not in input.source-columns [fuel]"),
                Arguments.of("a unit number grounding cannot find in text", BASE + """
                          - id: prices
                            pass: Right.
                            fail-signal: Wrong.
                            rules:
                              - id: grounded
                                type: number-grounding
                                attributes:
                                  - {column: price, unit: dollar, keywords: [costs]}
                        """, "rubric[1].rules[0].attributes[0].unit", 18,
                        "number grounding cannot find 'dollar' in text; the units it finds: year, month"),
                Arguments.of("required-phrase column outside source-columns", BASE.replace("  content-column: text\n",
                        "  content-column: text\n  source-columns: [fuel]\n") + """
                          - id: note
                            pass: Has it.
                            fail-signal: Lacks it.
                            rules:
                              - id: battery
                                type: required-phrase
                                when: {column: fuell, values: [hybrid]}
                                phrase: The battery report is included.
                        """, "rubric[1].rules[0].when.column", 18, "column 'fuell' is not in input.source-columns"),
                Arguments.of("missing required key", BASE.replace("  id-column: id\n", ""),
                        "input.id-column", 3, "required key is missing"),
                Arguments.of("missing top-level key", BASE.replace("task-spec: Write things.\n", ""),
                        "task-spec", 1, "required key is missing"),
                Arguments.of("duplicate key", BASE + "name: u\n", "name", 11, "duplicate key (first given on line 1)"),
                Arguments.of("wrong type", BASE + "santa:\n  max-iterations: abc\n",
                        "santa.max-iterations", 12, "expected an integer, got 'abc'"),
                Arguments.of("wrong type, list", BASE + "run:\n  concurrency: [1]\n",
                        "run.concurrency", 12, "expected an integer, got a list"),
                Arguments.of("out of range", BASE + "santa:\n  max-iterations: 11\n",
                        "santa.max-iterations", 12, "must be between 1 and 10, got 11"),
                Arguments.of("acceptance number out of range", BASE + "santa:\n  acceptance-number: 101\n",
                        "santa.acceptance-number", 12, "must be between 0 and 100, got 101"),
                Arguments.of("rate out of range", BASE + "sampling:\n  rate: 0.2\n",
                        "sampling.rate", 12, "between 0.10 and 0.15"),
                Arguments.of("bad enum", BASE + "    checked-by: robots\n",
                        "rubric[0].checked-by", 11, "invalid value 'robots'; allowed: rules, santa, both"),
                Arguments.of("bad fix for the rule type", BASE + """
                            rules:
                              - id: len-rule
                                type: length
                                min: 10
                                fix: append
                        """, "rubric[0].rules[0].fix", 15, "allowed for this rule type: none"),
                Arguments.of("bad regex", BASE + """
                            checked-by: both
                            rules:
                              - id: banned
                                type: forbidden-terms
                                patterns: ["ok", "(unclosed"]
                        """, "rubric[0].rules[0].patterns[1]", 15, "invalid regular expression"),
                Arguments.of("missing replacement", BASE + """
                            rules:
                              - id: banned
                                type: forbidden-terms
                                terms: [miracle, cure]
                                replacements:
                                  miracle: remarkable
                                fix: substitute
                        """, "rubric[0].rules[0].replacements.cure", 16, "'cure' has none"),
                Arguments.of("duplicate criterion id", BASE + """
                          - id: tone
                            pass: A.
                            fail-signal: B.
                        """, "rubric[1].id", 11, "duplicate criterion id 'tone'"),
                Arguments.of("santa criterion judged by nobody", BASE + """
                          - id: style
                            pass: Plain.
                            fail-signal: Ornate.
                            checked-by: santa
                        reviewers:
                          - id: B
                            type: lexical
                            criteria: [tone]
                          - id: C
                            type: semantic
                            criteria: [tone]
                        """, "rubric[1].checked-by", 14, "no reviewer judges it"),
                Arguments.of("reviewer naming a rules-only criterion", BASE + """
                          - id: len
                            pass: Short.
                            fail-signal: Long.
                            rules:
                              - id: len-rule
                                type: length
                                max: 10
                        reviewers:
                          - id: B
                            type: lexical
                            criteria: [tone, len]
                          - id: C
                            type: semantic
                        """, "reviewers[0].criteria[1]", 21, "checked by rules only"),
                Arguments.of("reviewer naming an unknown criterion", BASE + """
                        reviewers:
                          - id: B
                            type: lexical
                            criteria: [tone, mood]
                          - id: C
                            type: semantic
                        """, "reviewers[0].criteria[1]", 14, "no criterion 'mood'"),
                Arguments.of("unknown lexical threshold", BASE + """
                        reviewers:
                          - id: B
                            type: lexical
                            thresholds:
                              near-dupe: 0.5
                          - id: C
                            type: semantic
                        """, "reviewers[0].thresholds", 15, "unknown lexical threshold 'near-dupe'"),
                Arguments.of("semantic threshold out of its range", BASE + """
                        reviewers:
                          - id: B
                            type: lexical
                          - id: C
                            type: semantic
                            thresholds:
                              passage-cosine: 5
                        """, "reviewers[1].thresholds", 17, "semantic threshold 'passage-cosine' must lie in [-1, 1] (a cosine), was 5.0"),
                Arguments.of("semantic count threshold not a whole number", BASE + """
                        reviewers:
                          - id: B
                            type: lexical
                          - id: C
                            type: semantic
                            thresholds:
                              min-sentence-words: 2.5
                        """, "reviewers[1].thresholds", 17, "semantic threshold 'min-sentence-words' must be a whole number, was 2.5"),
                Arguments.of("lexical count threshold not a whole number", BASE + """
                        reviewers:
                          - id: B
                            type: lexical
                            thresholds:
                              stop-shingle-min-df: 2.5
                          - id: C
                            type: semantic
                        """, "reviewers[0].thresholds", 15, "lexical threshold 'stop-shingle-min-df' must be a whole number, was 2.5"),
                Arguments.of("lexical minimum shared passage below one", BASE + """
                        reviewers:
                          - id: B
                            type: lexical
                            thresholds:
                              near-duplicate-min-shared: 0
                          - id: C
                            type: semantic
                        """, "reviewers[0].thresholds", 15, "near-duplicate-min-shared must be at least 1, was 0"),
                Arguments.of("lexical minimum shared passage not a whole number", BASE + """
                        reviewers:
                          - id: B
                            type: lexical
                            thresholds:
                              near-duplicate-min-shared: 7.5
                          - id: C
                            type: semantic
                        """, "reviewers[0].thresholds", 15, "lexical threshold 'near-duplicate-min-shared' must be a whole number, was 7.5"),
                Arguments.of("llm reviewer without model", BASE + """
                        reviewers:
                          - id: B
                            type: llm
                          - id: C
                            type: semantic
                        """, "reviewers[0].model", 12, "required for an llm reviewer"),
                Arguments.of("one reviewer", BASE + """
                        reviewers:
                          - id: B
                            type: lexical
                        """, "reviewers", 12, "expected 2 or 3 reviewers, got 1"),
                Arguments.of("api key literal as a key", BASE + """
                        reviewers:
                          - id: B
                            type: llm
                            model:
                              model: gpt-4o
                              api-key: sk-abc123def456
                          - id: C
                            type: semantic
                        """, "reviewers[0].model.api-key", 16, "job files name the environment variable, never the key"),
                Arguments.of("api key literal as the env name", BASE + """
                        fixer:
                          type: llm
                          model:
                            model: gpt-4o
                            api-key-env: sk-proj-abc123def456ghi789
                        """, "fixer.model.api-key-env", 15, "job files name the environment variable, never the key"),
                Arguments.of("bad timeout", BASE + """
                        fixer:
                          type: llm
                          model:
                            model: gpt-4o
                            timeout: soon
                        """, "fixer.model.timeout", 15, "expected a duration"),
                Arguments.of("bad base url", BASE + """
                        fixer:
                          type: llm
                          model:
                            model: gpt-4o
                            base-url: ftp://example.com
                        """, "fixer.model.base-url", 15, "must be an http or https URL"),
                Arguments.of("unknown governor key", BASE + """
                        governor:
                          max-atempts: 8
                        """, "governor.max-atempts", 12, "did you mean 'max-attempts'?"),
                Arguments.of("carry-over max-age out of range", BASE + """
                        carry-over:
                          max-age: 0
                        """, "carry-over.max-age", 12, "must be between 1 and 1000"),
                Arguments.of("carry-over switch not a boolean", BASE + """
                        carry-over:
                          enabled: sometimes
                        """, "carry-over.enabled", 12, "expected"),
                Arguments.of("governor value out of range", BASE + """
                        governor:
                          max-in-flight-per-model: 0
                        """, "governor.max-in-flight-per-model", 12, "must be between 1 and 1024"),
                Arguments.of("circuit breaker count not a whole number", BASE + """
                        governor:
                          circuit-breaker-failures: many
                        """, "governor.circuit-breaker-failures", 12, "expected"),
                Arguments.of("circuit breaker count out of range", BASE + """
                        governor:
                          circuit-breaker-failures: -1
                        """, "governor.circuit-breaker-failures", 12, "must be between 0 and 100000"),
                Arguments.of("backoff cap below the first backoff", BASE + """
                        governor:
                          initial-backoff: 5s
                          max-backoff: 2s
                        """, "governor.max-backoff", 13, "is less than initial-backoff"),
                Arguments.of("matcher share out of range", BASE + """
                        matcher:
                          max-candidate-share: 1.5
                        """, "matcher.max-candidate-share", 12, "must be between 0 and 1"),
                Arguments.of("matcher floor out of range", BASE + """
                        matcher:
                          min-similarity: 1.2
                        """, "matcher.min-similarity", 12, "must be between 0 and 1"),
                Arguments.of("missing input file", BASE.replace("path: data.csv", "path: missing.csv"),
                        "input.path", 3, "file not found"),
                Arguments.of("unsafe name", BASE.replace("name: t", "name: ../etc"), "name", 1, "safe path segment"),
                Arguments.of("YAML syntax error", BASE + "sampling: [0.1\nrun:\n  chunk-size: 5\n", null, 12,
                        "invalid YAML"),
                Arguments.of("not a mapping", "- just\n- a list\n", null, 1, "expected a mapping"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("brokenJobFiles")
    void brokenJobFileNamesKeyAndLine(String caseName, String yaml, String key, int line, String problem)
            throws IOException {
        // given
        Path file = write(yaml);

        // when
        JobFileException e = catchThrowableOfType(JobFileException.class, () -> JobFileLoader.load(file));

        // then
        assertThat(e).as(caseName).isNotNull();
        assertEquals(key, e.key(), e.getMessage());
        assertEquals(line, e.line(), e.getMessage());
        String prefix = file + ":" + line + ": " + (key == null ? "" : "key '" + key + "': ");
        assertThat(e.getMessage()).startsWith(prefix).contains(problem);
    }

    @Test
    void theSuggestionIsTheNearestKeyWithinAThirdOfTheKeysLength() {
        List<String> keys = List.of("input", "sampling", "rubric", "governor");
        // one deletion, one substitution, case ignored
        assertThat(JobFileLoader.closest("samplng", keys)).isEqualTo("sampling");
        assertThat(JobFileLoader.closest("Rubrik", keys)).isEqualTo("rubric");
        // at most max(2, length / 3) edits: 3 of 9 is suggested, 4 of 9 is not; nothing near "colour"
        assertThat(JobFileLoader.closest("abcdefghi", List.of("abcdefxyz"))).isEqualTo("abcdefxyz");
        assertThat(JobFileLoader.closest("abcdefghi", List.of("abcdewxyz"))).isNull();
        assertThat(JobFileLoader.closest("ab", List.of("xy"))).isEqualTo("xy");
        assertThat(JobFileLoader.closest("colour", keys)).isNull();
        // a tie goes to the first candidate; no candidates, no suggestion
        assertThat(JobFileLoader.closest("ab", List.of("ax", "ay"))).isEqualTo("ax");
        assertThat(JobFileLoader.closest("key", List.of())).isNull();
    }
}
