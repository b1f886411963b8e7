package dev.santabatch.model;

import static org.assertj.core.api.Assertions.assertThat;

import dev.santabatch.eval.PlantedDefect;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class DefectTextTests {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "It runs for 3 hours. | 3 hours | true",
            "It runs for 3 hours! | 3 HOURS. | true",
            "We ship fast  and every order is packed with care! | We ship fast and every order is packed with care. | true",
            "It runs for 23 hours. | 3 hours | false",
            "It runs for twenty-three hours. | three hours | false",
            "It costs €45 per person. | $45 | false",
            "It costs $45 per person. | $45 | true",
            "A risk-free trial. | risk-free | true"})
    void evidenceIsFoundIgnoringCasePunctuationAndSpacingAtWordBoundaries(String text, String evidence, boolean carried) {
        assertThat(DefectText.carries(text, new PlantedDefect("P1", "k", evidence, "", ""))).isEqualTo(carried);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "Take two scoops. | true",
            "Take two scoops. These statements have not been evaluated by the FDA! | false"})
    void anAbsenceIsCarriedWhileItsAppendixIsMissing(String text, boolean carried) {
        PlantedDefect missing = new PlantedDefect("P1", "missing", "", "", "These statements have not been evaluated by the FDA.");
        assertThat(DefectText.carries(text, missing)).isEqualTo(carried);
    }
}
