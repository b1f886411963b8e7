package dev.santabatch.review.semantic;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.junit.jupiter.api.Test;

class VectorsTests {

    private static float[] unit(Random r, float[] near, double noise) {
        float[] v = new float[Embedder.DIMENSION];
        for (int i = 0; i < v.length; i++) {
            v[i] = (float) ((near == null ? 0 : near[i]) + noise * r.nextGaussian());
        }
        return Vectors.normalise(v);
    }

    @Test
    void aProbeIsAQuarterOfTheFloatVectorAndItsEstimateStaysWithinItsBound() {
        Random r = new Random(3);
        double worst = 0;
        double plain = 0;
        for (int k = 0; k < 2000; k++) {
            float[] a = unit(r, null, 1);
            // pairs from unrelated to near-identical, and one component much larger than the rest
            float[] b = unit(r, a, k % 4 == 0 ? 10 : k % 4 == 1 ? 0.5 : k % 4 == 2 ? 0.05 : 0.001);
            if (k % 7 == 0) {
                b[k % b.length] *= 20;
                b = Vectors.normalise(b);
            }
            byte[] probe = Vectors.probe(b);
            assertThat(probe).hasSize(4 + Embedder.DIMENSION);
            double exact = Vectors.dot(a, b);
            double estimate = Vectors.probeEstimate(a, probe);
            double bound = Vectors.probeBound(Vectors.l1(a), probe);
            assertThat(Math.abs(estimate - exact)).as("pair %d", k).isLessThanOrEqualTo(bound);
            worst = Math.max(worst, bound);
            if (k % 7 != 0) {
                plain = Math.max(plain, bound);
            }
        }
        // tight enough to rule out most candidates: a few hundredths (more for a vector with one large component)
        assertThat(worst).isLessThan(0.1);
        assertThat(plain).isLessThan(0.03);
    }

    @Test
    void aZeroVectorHasAZeroProbe() {
        byte[] probe = Vectors.probe(new float[Embedder.DIMENSION]);
        float[] q = unit(new Random(1), null, 1);
        assertThat(Vectors.probeEstimate(q, probe)).isZero();
        assertThat(Vectors.probeBound(Vectors.l1(q), probe)).isLessThan(1e-4);
    }

    @Test
    void fourSumsGiveTheDotProductOfOneSum() {
        Random r = new Random(9);
        for (int k = 0; k < 200; k++) {
            float[] a = unit(r, null, 1);
            float[] b = unit(r, a, 0.3);
            double one = 0;
            for (int i = 0; i < a.length; i++) {
                one += a[i] * b[i];
            }
            assertThat(Vectors.dot(a, b)).isCloseTo(one, org.assertj.core.data.Offset.offset(1e-12));
        }
    }
}
