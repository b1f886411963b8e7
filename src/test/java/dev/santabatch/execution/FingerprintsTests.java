package dev.santabatch.execution;

import static org.assertj.core.api.Assertions.assertThat;

import dev.santabatch.config.JobFileLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The rubric fingerprint that decides whether a restart is allowed: a model's operational settings
 * (fixed after a failed run) leave it unchanged; the rubric, the panel's criteria and a model's
 * identity change it.
 */
class FingerprintsTests {

    @TempDir
    Path dir;

    String original;

    String fingerprint(String yaml) throws Exception {
        Path job = dir.resolve("job-" + System.nanoTime() + ".yml");
        // paths in the shipped job are relative to jobs/
        Files.writeString(job, yaml.replace("../sample-data/", Path.of("sample-data").toAbsolutePath() + "/"));
        return Fingerprints.rubric(JobFileLoader.load(job), name -> null);
    }

    String verification(String yaml, java.util.function.Function<String, String> env) throws Exception {
        Path job = dir.resolve("job-" + System.nanoTime() + ".yml");
        Files.writeString(job, yaml.replace("../sample-data/", Path.of("sample-data").toAbsolutePath() + "/"));
        return Fingerprints.verification(JobFileLoader.load(job), env);
    }

    String verificationWith(String from, String to) throws Exception {
        assertThat(original).contains(from);
        return verification(original.replaceFirst(java.util.regex.Pattern.quote(from), java.util.regex.Matcher.quoteReplacement(to)),
                name -> null);
    }

    String fingerprintWith(String from, String to) throws Exception {
        assertThat(original).contains(from);
        return fingerprint(original.replaceFirst(java.util.regex.Pattern.quote(from), java.util.regex.Matcher.quoteReplacement(to)));
    }

    @Test
    void aModelsOperationalSettingsAreNotPartOfTheRubric() throws Exception {
        original = Files.readString(Path.of("jobs/product-descriptions-llm.yml"));
        String base = fingerprint(original);

        assertThat(fingerprintWith("api-key-env: LOCAL_MODEL_KEY", "api-key-env: OTHER_KEY")).isEqualTo(base);
        assertThat(fingerprintWith("timeout: 120s", "timeout: 300s")).isEqualTo(base);
        assertThat(fingerprintWith("price-input-per-million: 0.15", "price-input-per-million: 0.30")).isEqualTo(base);
        assertThat(fingerprintWith("max-output-tokens: 1024", "max-output-tokens: 4096")).isEqualTo(base);
        assertThat(fingerprintWith("temperature: 0.0", "temperature: 0.2")).isEqualTo(base);
        // a reasoning model's effort (which takes the temperature's place) may change on a restart
        assertThat(fingerprintWith("temperature: 0.0", "reasoning-effort: high")).isEqualTo(base);
        assertThat(fingerprintWith("structured-output: json-object", "structured-output: prompt")).isEqualTo(base);
        // the fixer and matcher models do not judge: not part of the rubric either
        assertThat(fingerprintWith("model: FIXER-MODEL", "model: OTHER-FIXER")).isEqualTo(base);
    }

    @Test
    void theVerificationFingerprintIsWhatAVerdictDependsOnNotTheRulesNorTheLimits() throws Exception {
        // carry-over (docs/carry-over.md): rules run on every item, carried ones too
        original = Files.readString(Path.of("jobs/product-descriptions-llm.yml"));
        String base = verification(original, name -> null);

        assertThat(verificationWith("          risk-free: low-risk", "          risk-free: careful")).isEqualTo(base);
        assertThat(verificationWith("pass: Between 40 and 2000 characters.", "pass: Between 50 and 2000 characters."))
                .as("a criterion checked by rules only").isEqualTo(base);
        assertThat(verificationWith("            keywords: [warranty,", "            keywords: [cover, warranty,"))
                .as("the rules of a criterion checked by both").isEqualTo(base);
        assertThat(verificationWith("  max-rounds: 5\n", "  max-rounds: 8\n")).isEqualTo(base);
        assertThat(verificationWith("  max-rounds: 5\n", "  max-rounds: 5\n  canary-share: 0.1\n")).isEqualTo(base);
        assertThat(verificationWith("model: FIXER-MODEL", "model: OTHER-FIXER")).isEqualTo(base);
        assertThat(verificationWith("timeout: 120s", "timeout: 300s")).isEqualTo(base);

        assertThat(verificationWith("Make no medical or absolute claims.", "Make no medical claims.")).isNotEqualTo(base);
        assertThat(verificationWith("pass: Every sentence is about this item's own product.",
                "pass: Every sentence is about this product.")).isNotEqualTo(base);
        assertThat(verificationWith("pass: Every stated warranty and battery life equals the source facts.",
                "pass: Every stated warranty equals the source facts.")).as("a criterion checked by both").isNotEqualTo(base);
        assertThat(verificationWith("model: REVIEWER-C-MODEL", "model: ANOTHER-MODEL")).isNotEqualTo(base);
        assertThat(verificationWith("base-url: http://localhost:11434/v1", "base-url: http://localhost:8000/v1"))
                .isNotEqualTo(base);
        assertThat(verificationWith("  - id: C\n    type: llm", "  - id: D\n    type: llm")).isNotEqualTo(base);
        // a reviewer without a base URL is called at OPENAI_BASE_URL
        String unset = original.replace("      base-url: http://localhost:11434/v1\n", "");
        assertThat(verification(unset, name -> null)).isNotEqualTo(verification(unset,
                name -> name.equals("OPENAI_BASE_URL") ? "http://gateway:8080/v1" : null));
    }

    @Test
    void theRubricThePanelsCriteriaAndAModelsIdentityAre() throws Exception {
        original = Files.readString(Path.of("jobs/product-descriptions-llm.yml"));
        String base = fingerprint(original);

        assertThat(fingerprintWith("pass: Between 40 and 2000 characters.", "pass: Between 50 and 2000 characters."))
                .isNotEqualTo(base);
        assertThat(fingerprintWith("Make no medical or absolute claims.", "Make no medical claims.")).isNotEqualTo(base);
        assertThat(fingerprintWith("model: REVIEWER-C-MODEL", "model: ANOTHER-MODEL")).isNotEqualTo(base);
        assertThat(fingerprintWith("base-url: http://localhost:11434/v1", "base-url: http://localhost:8000/v1"))
                .isNotEqualTo(base);
        assertThat(fingerprintWith("  - id: C\n    type: llm", "  - id: D\n    type: llm")).isNotEqualTo(base);
        // the canaries that measure the panel, and the limits it must meet to fit
        assertThat(fingerprintWith("    fail-signal: The text is a copy or paraphrase of another item's text.\n",
                "    fail-signal: The text is a copy or paraphrase of another item's text.\n    canaries: []\n"))
                .isNotEqualTo(base);
        assertThat(fingerprintWith("  max-rounds: 5\n", "  max-rounds: 5\n  min-panel-sensitivity: 0.5\n")).isNotEqualTo(base);
        assertThat(fingerprintWith("  max-rounds: 5\n", "  max-rounds: 5\n  canary-share: 0.1\n")).isNotEqualTo(base);
        // raising the rounds is how a not-clean run is resumed
        assertThat(fingerprintWith("  max-rounds: 5\n", "  max-rounds: 8\n")).isEqualTo(base);
    }
}
