package dev.santabatch.persistence;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** The stored names of causes are data in existing stores and in changes.csv and escalations.csv. */
class CauseTests {

    @Test
    void causesAreStoredUnderTheirNamesOfEarlierVersions() {
        assertThat(Arrays.stream(Cause.values()).map(Cause::value))
                .containsExactly("rules", "carry-over", "santa-fix", "batch-fix");
    }
}
