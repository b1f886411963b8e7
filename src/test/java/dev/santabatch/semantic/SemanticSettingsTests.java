package dev.santabatch.semantic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
}
