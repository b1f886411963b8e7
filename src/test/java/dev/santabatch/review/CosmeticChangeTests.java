package dev.santabatch.review;

import dev.santabatch.text.Words;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CosmeticChangeTests {

    static final String BOILERPLATE = "Crafted with care for discerning buyers, it makes every day a little better.";

    @ParameterizedTest(name = "[{index}] {0} -> {1}: {2}")
    @CsvSource(delimiter = '|', textBlock = """
            a b c d         | a b c d         | 0
            a b c d         | a x c d         | 1
            a b c d         | a c d           | 1
            a b c d         | a b c d e       | 1
            a b c d         | b a c d         | 2
            a b c d         | x y c d         | 2
            a b c d         | x y z d         | 3
            a b c d e f g h | h g f e d c b a | 3
            ''              | a b             | 2
            """)
    void wordEditsCountsWholeWordInsertionsDeletionsAndSubstitutionsUpToTheLimit(String a, String b, int expected) {
        assertThat(CosmeticChange.wordEdits(Words.of(a), Words.of(b), 2)).isEqualTo(expected);
    }

    @Test
    void wordEditsIsExactWithinALargerLimit() {
        List<String> a = Words.of("one two three four five six");
        List<String> b = Words.of("one 2 three 4 five 6 seven");
        assertThat(CosmeticChange.wordEdits(a, b, 10)).isEqualTo(4);
    }

    @Test
    void whitespacePunctuationAndCaseAreCosmetic() {
        assertThat(CosmeticChange.isCosmetic(BOILERPLATE,
                "crafted with care for discerning buyers -- it makes every day a little better!\n")).isTrue();
    }

    @Test
    void aWordOrTwoReworded() {
        assertThat(CosmeticChange.isCosmetic(BOILERPLATE,
                "Made with care for discerning buyers, it makes each day a little better.")).isTrue();
        assertThat(CosmeticChange.isCosmetic(BOILERPLATE,
                "Made with love for discerning shoppers, it makes each day a little better.")).isFalse();
    }

    @Test
    void aRemovedSentenceIsNotCosmetic() {
        assertThat(CosmeticChange.isCosmetic("A steel kettle. " + BOILERPLATE, "A steel kettle.")).isFalse();
    }

    @Test
    void aChangedNumberIsNeverCosmetic() {
        assertThat(CosmeticChange.isCosmetic("Rated 3 stars by guests.", "Rated 4 stars by guests.")).isFalse();
        assertThat(CosmeticChange.isCosmetic("It is 4.5 km away.", "It is 45 km away.")).isFalse();
        assertThat(CosmeticChange.isCosmetic("Sleeps three.", "Sleeps 3.")).isFalse();
        assertThat(CosmeticChange.isCosmetic("Up to five guests.", "Up to four guests.")).isFalse();
        assertThat(CosmeticChange.isCosmetic("It costs $45.00 a head.", "It costs €45.00 a head.")).isFalse();
    }

    @Test
    void numbersAndContractionsAreWholeWords() {
        assertThat(Words.of("Don't miss it: 1,200 m² at 4.5 km.")).containsExactly("don't", "miss", "it", "1,200", "m2", "at", "4.5", "km");
        assertThat(Words.of("From $45.00!")).containsExactly("from", "$", "45.00");
    }
}
