package dev.santabatch.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The semantic reviewer's thresholds as the job file gives them. */
class SemanticSettingsTests {

    @Test
    void catalogAnchorScoreDefaultsAboveAnchorScoreAndTheJobFileOverridesIt() {
        SemanticSettings d = SemanticSettings.defaults();
        // in an item written like the catalog a low typicality is evidence: its anchor bar is the higher one
        assertThat(d.catalogAnchorScore()).isEqualTo(0.45);
        assertThat(d.catalogAnchorScore()).isGreaterThan(d.anchorScore());

        SemanticSettings s = SemanticSettings.from(Map.of("catalog-anchor-score", 0.30));
        assertThat(s.catalogAnchorScore()).isEqualTo(0.30);
        assertThat(s.anchorScore()).isEqualTo(d.anchorScore());
        assertThat(SemanticSettings.NAMES).contains("catalog-anchor-score");
    }

    @Test
    void anUnknownNameIsRefusedWithTheKnownNames() {
        assertThatThrownBy(() -> SemanticSettings.from(Map.of("catalog-anchor", 0.30)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unknown semantic threshold 'catalog-anchor'")
                .hasMessageContaining("catalog-anchor-score");
    }

    /** The default job file spells out every threshold of both offline reviewers, at its default. */
    @Test
    void theDefaultJobFileListsEveryThresholdAtItsDefault() throws Exception {
        JobDefinition job = JobFileLoader.load(Path.of("jobs/product-descriptions.yml"));
        ReviewerSpec semantic = job.reviewers().stream().filter(r -> r.type().equals("semantic")).findFirst().orElseThrow();
        assertThat(semantic.thresholds().keySet()).containsExactlyInAnyOrderElementsOf(SemanticSettings.NAMES);
        assertThat(SemanticSettings.from(semantic.thresholds())).isEqualTo(SemanticSettings.defaults());
        ReviewerSpec lexical = job.reviewers().stream().filter(r -> r.type().equals("lexical")).findFirst().orElseThrow();
        assertThat(lexical.thresholds()).hasSize(5);
        assertThat(LexicalThresholds.of(lexical.thresholds())).isEqualTo(LexicalThresholds.defaults());
    }

    @Test
    void aValueOutsideItsRangeIsRefusedByName() {
        assertThatThrownBy(() -> SemanticSettings.from(Map.of("small-category-margin", 3.0)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'small-category-margin' must lie in [-2, 2]");
        assertThatThrownBy(() -> SemanticSettings.from(Map.of("whole-text-share", 0.0)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'whole-text-share' must lie in (0, 1]");
    }
}
