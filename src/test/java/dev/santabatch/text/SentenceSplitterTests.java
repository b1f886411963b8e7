package dev.santabatch.text;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SentenceSplitterTests {

    /** text | sentences joined by " / ". */
    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
            A. B. C.                                          | A. / B. / C.
            It works. It lasts!  Does it? Yes.                | It works. / It lasts! / Does it? / Yes.
            Great, e.g. for tea. Also i.e. coffee.            | Great, e.g. for tea. / Also i.e. coffee.
            Ask Dr. Smith. Mr. Jones agrees.                  | Ask Dr. Smith. / Mr. Jones agrees.
            Model No. 5 is new. Buy it.                       | Model No. 5 is new. / Buy it.
            Cats vs. Dogs is a game. Fun.                     | Cats vs. Dogs is a game. / Fun.
            It weighs 2.5 kg. Light.                          | It weighs 2.5 kg. / Light.
            It costs $49.99. 2 colours.                       | It costs $49.99. / 2 colours.
            He said "wow." "Really?" she asked.               | He said "wow." / "Really?" she asked.
            ends lower. then lower again.                     | ends lower. then lower again.
            Wait... What?! Yes.                               | Wait... / What?! / Yes.
            `  Leading space. Trailing space.  `              | Leading space. / Trailing space.
            No terminal punctuation                           | No terminal punctuation
            """)
    void splits(String text, String expected) {
        assertThat(SentenceSplitter.sentences(text)).isEqualTo(Arrays.asList(expected.split(" / ")));
    }

    @Test
    void blankLineEndsASentence() {
        assertThat(SentenceSplitter.sentences("Heading\n\nBody text. More,\nsame sentence"))
                .containsExactly("Heading", "Body text.", "More,\nsame sentence");
    }

    @Test
    void emptyText() {
        assertThat(SentenceSplitter.split("")).isEmpty();
        assertThat(SentenceSplitter.split("   ")).isEmpty();
    }

    /** text | index of the sentence to remove | expected text. */
    @ParameterizedTest(name = "[{index}] {0} - #{1}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
            A. B. C.                      | 0 | B. C.
            A. B. C.                      | 1 | A. C.
            A. B. C.                      | 2 | A. B.
            `A.  B.  C.`                  | 1 | `A.  C.`
            `A. B.\n`                     | 1 | `A.\n`
            `Only one.`                   | 0 | ``
            `A.\nB.\nC.`                  | 1 | `A.\nC.`
            `A.\n\nB. C.`                  | 1 | `A.\n\nC.`
            `  A. B.`                      | 0 | `  B.`
            `A. B.  `                      | 1 | `A.  `
            """)
    void removesOneSentenceAndOneWhitespace(String text, int index, String expected) {
        String t = text.replace("\\n", "\n");
        String e = expected.replace("\\n", "\n");
        SentenceSplitter.Span s = SentenceSplitter.split(t).get(index);
        assertThat(SentenceSplitter.remove(t, s)).isEqualTo(e);
    }

    @Test
    void removesSeveralSentencesByOffset() {
        String t = "One. Two. Three. Four.";
        assertThat(SentenceSplitter.removeSentencesAt(t, List.of(6, 7, 18))).isEqualTo("One. Three.");
        assertThat(SentenceSplitter.removeSentencesAt(t, List.of(0, 5, 10, 17))).isEqualTo("");
    }

    @Test
    void sentenceAtOffset() {
        String t = "One. Two.";
        assertThat(SentenceSplitter.sentenceAt(t, 6).of(t)).isEqualTo("Two.");
        assertThat(SentenceSplitter.sentenceAt(t, 4).of(t)).isEqualTo("One.");
    }
}
