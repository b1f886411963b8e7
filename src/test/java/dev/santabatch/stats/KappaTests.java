package dev.santabatch.stats;

import static dev.santabatch.review.Verdict.FAIL;
import static dev.santabatch.review.Verdict.PASS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.santabatch.review.Verdict;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class KappaTests {

    static List<Verdict> v(String s) {
        List<Verdict> out = new ArrayList<>();
        for (char c : s.toCharArray()) {
            out.add(c == 'P' ? PASS : FAIL);
        }
        return out;
    }

    /** Items as strings of verdicts, one per rater: "PPF" = two passes and a fail. */
    static List<List<Verdict>> items(String... perItem) {
        return java.util.Arrays.stream(perItem).map(KappaTests::v).toList();
    }

    @Test
    void cohenMatchesHandComputation() {
        // 10 items: both pass 4, A pass B fail 2, A fail B pass 1, both fail 3
        // P_o = 7/10; A passes 6, B passes 5: P_e = (6*5 + 4*5)/100 = 0.5; kappa = 0.2/0.5 = 0.4
        KappaResult k = Kappa.cohen(v("PPPPPPFFFF"), v("PPPPFFPFFF"));
        assertThat(k.method()).isEqualTo("cohen");
        assertThat(k.observedAgreement()).isCloseTo(0.7, within(1e-12));
        assertThat(k.expectedAgreement()).isCloseTo(0.5, within(1e-12));
        assertThat(k.kappa().getAsDouble()).isCloseTo(0.4, within(1e-12));
        assertThat(k.lowAgreement(0.4)).isFalse();
        assertThat(k.lowAgreement(0.5)).isTrue();
        // A passes all 4, B 3 of them: P_o = 0.75, P_e = (4*3 + 0*1)/16 = 0.75 -> kappa 0
        assertThat(Kappa.cohen(v("PPPP"), v("PPPF")).kappa().getAsDouble()).isCloseTo(0, within(1e-12));
    }

    @Test
    void cohenDegenerateCases() {
        KappaResult allPass = Kappa.cohen(v("PPPPP"), v("PPPPP"));
        assertThat(allPass.defined()).isFalse();
        assertThat(allPass.observedAgreement()).isEqualTo(1.0);
        assertThat(allPass.expectedAgreement()).isEqualTo(1.0);
        assertThat(allPass.lowAgreement(0.4)).isFalse();
        assertThat(allPass.toString()).isEqualTo("kappa undefined (cohen, 2 raters, 5 items, raw agreement 100 %)");
        assertThat(Kappa.cohen(v("FFF"), v("FFF")).defined()).isFalse();

        assertThat(Kappa.cohen(v("PFPF"), v("PFPF")).kappa().getAsDouble()).isEqualTo(1.0);
        KappaResult opposite = Kappa.cohen(v("PFPF"), v("FPFP"));
        assertThat(opposite.observedAgreement()).isZero();
        assertThat(opposite.kappa().getAsDouble()).isCloseTo(-1.0, within(1e-12));
        // one passes all, the other fails all: P_o = 0, P_e = 0 -> kappa 0
        assertThat(Kappa.cohen(v("PPP"), v("FFF")).kappa().getAsDouble()).isCloseTo(0, within(1e-12));

        KappaResult none = Kappa.cohen(List.of(), List.of());
        assertThat(none.defined()).isFalse();
        assertThat(none.observedAgreement()).isNaN();
        assertThatThrownBy(() -> Kappa.cohen(v("P"), v("PF"))).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void fleissMatchesHandComputation() {
        // passes per item 3, 0, 2, 1 of m = 3: P_i = 1, 1, 1/3, 1/3 -> P̄ = 2/3
        // p_pass = 6/12 = 0.5 -> P̄_e = 0.5; kappa = (2/3 - 1/2) / (1/2) = 1/3
        KappaResult k = Kappa.fleiss(items("PPP", "FFF", "PPF", "PFF"));
        assertThat(k.method()).isEqualTo("fleiss");
        assertThat(k.raters()).isEqualTo(3);
        assertThat(k.observedAgreement()).isCloseTo(2.0 / 3, within(1e-12));
        assertThat(k.expectedAgreement()).isCloseTo(0.5, within(1e-12));
        assertThat(k.kappa().getAsDouble()).isCloseTo(1.0 / 3, within(1e-12));
        // passes 3, 3, 3, 2: P̄ = (1+1+1+1/3)/4 = 120/144; p_pass = 11/12 -> P̄_e = 122/144; kappa = -2/22
        KappaResult skew = Kappa.fleiss(items("PPP", "PPP", "PPP", "PPF"));
        assertThat(skew.kappa().getAsDouble()).isCloseTo(-1.0 / 11, within(1e-12));
    }

    @Test
    void fleissDegenerateCases() {
        KappaResult allPass = Kappa.fleiss(items("PPP", "PPP"));
        assertThat(allPass.defined()).isFalse();
        assertThat(allPass.observedAgreement()).isEqualTo(1.0);
        assertThat(Kappa.fleiss(items("FFF", "FFF", "FFF")).defined()).isFalse();
        assertThat(Kappa.fleiss(items("PPP", "FFF", "PPP", "FFF")).kappa().getAsDouble()).isCloseTo(1.0, within(1e-12));
        // every item split 2-1: P̄ = 1/3, p_pass = 0.5 -> kappa = (1/3 - 1/2)/(1/2) = -1/3
        assertThat(Kappa.fleiss(items("PPF", "PFF", "PPF", "PFF")).kappa().getAsDouble())
                .isCloseTo(-1.0 / 3, within(1e-12));
        assertThat(Kappa.fleiss(List.of()).defined()).isFalse();
        assertThatThrownBy(() -> Kappa.fleiss(items("PPP", "PP"))).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void panelKappaPicksCohenForTwoAndFleissForThree() {
        assertThat(Kappa.of(items("PP", "PF", "FF", "PP")).method()).isEqualTo("cohen");
        assertThat(Kappa.of(items("PP", "PF", "FF", "PP")).kappa().getAsDouble())
                .isEqualTo(Kappa.cohen(v("PPFP"), v("PFFP")).kappa().getAsDouble());
        assertThat(Kappa.of(items("PPP", "FFF", "PPF", "PFF")).method()).isEqualTo("fleiss");
    }
}
