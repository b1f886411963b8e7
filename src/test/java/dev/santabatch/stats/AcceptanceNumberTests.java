package dev.santabatch.stats;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class AcceptanceNumberTests {

    /** Binomial(n, 3.96 %): the smallest c with P(X ≤ c) ≥ 0.90. n = 100: P(X ≤ 6) = 0.888, P(X ≤ 7) = 0.949. */
    @ParameterizedTest
    @CsvSource({"1, 0", "2, 0", "3, 1", "5, 1", "13, 1", "20, 2", "50, 4", "100, 7", "200, 12", "500, 25"})
    void cIsTheNinetiethPercentileOfCleanFailures(int n, int c) {
        assertThat(AcceptanceNumber.forSampleSize(n)).isEqualTo(c);
        assertThat(ClopperPearson.binomialCdf(c, n, AcceptanceNumber.PANEL_FALSE_FAILURE)).isGreaterThanOrEqualTo(0.90);
        if (c > 0) {
            assertThat(ClopperPearson.binomialCdf(c - 1, n, AcceptanceNumber.PANEL_FALSE_FAILURE)).isLessThan(0.90);
        }
    }

    @Test
    void binomialCdfMatchesTheSumOfTerms() {
        // n = 10, p = 0.3: P(X ≤ 2) = 0.7^10 + 10·0.3·0.7^9 + 45·0.09·0.7^8 = 0.028248 + 0.121061 + 0.233474
        assertThat(ClopperPearson.binomialCdf(2, 10, 0.3)).isCloseTo(0.382783, org.assertj.core.data.Offset.offset(1e-6));
        assertThat(ClopperPearson.binomialCdf(10, 10, 0.3)).isEqualTo(1);
    }

    @Test
    void theDocumentedTableIsTheFunction() throws IOException {
        String doc = Files.readString(Path.of("docs/acceptance-number.md"));
        Matcher row = Pattern.compile("(?m)^\\| (\\d+) \\| (\\d+) \\|").matcher(doc);
        int rows = 0;
        while (row.find()) {
            assertThat(AcceptanceNumber.forSampleSize(Integer.parseInt(row.group(1)))).as("n = %s", row.group(1))
                    .isEqualTo(Integer.parseInt(row.group(2)));
            rows++;
        }
        assertThat(rows).isGreaterThan(5);
    }
}
