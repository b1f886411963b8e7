package dev.santabatch.review.semantic;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/** Vector arithmetic and the store's portable encoding (base64 of little-endian float32s). */
public final class Vectors {

    private Vectors() {}

    /** A copy scaled to unit length (a zero vector stays zero). */
    public static float[] normalise(float[] v) {
        double s = 0;
        for (float x : v) {
            s += x * x;
        }
        float[] out = v.clone();
        if (s > 0) {
            float inv = (float) (1 / Math.sqrt(s));
            for (int i = 0; i < out.length; i++) {
                out[i] *= inv;
            }
        }
        return out;
    }

    /**
     * Dot product; the cosine of two unit vectors. Four independent sums (the products are float,
     * each sum double, as before): one running sum makes every addition wait for the previous one,
     * four keep the core's adders busy; the hot loop of typicality and of every candidate check.
     */
    public static double dot(float[] a, float[] b) {
        double s0 = 0;
        double s1 = 0;
        double s2 = 0;
        double s3 = 0;
        int n = a.length;
        int i = 0;
        for (; i + 3 < n; i += 4) {
            s0 += a[i] * b[i];
            s1 += a[i + 1] * b[i + 1];
            s2 += a[i + 2] * b[i + 2];
            s3 += a[i + 3] * b[i + 3];
        }
        for (; i < n; i++) {
            s0 += a[i] * b[i];
        }
        return (s0 + s1) + (s2 + s3);
    }

    /** Cosine similarity of any two vectors. */
    public static double cosine(float[] a, float[] b) {
        double d = 0;
        double na = 0;
        double nb = 0;
        for (int i = 0; i < a.length; i++) {
            d += a[i] * b[i];
            na += a[i] * a[i];
            nb += b[i] * b[i];
        }
        return na == 0 || nb == 0 ? 0 : d / Math.sqrt(na * nb);
    }

    /**
     * A probe: the vector as one signed byte per component, scaled by its largest magnitude, after a
     * 4-byte float step (the value of one unit). 4 + n bytes instead of 4n (a quarter of the float
     * vector), so the near-neighbour search reads a compact table; see {@link #probeDot} for how it
     * is used without changing any result.
     */
    public static byte[] probe(float[] v) {
        float max = 0;
        for (float x : v) {
            max = Math.max(max, Math.abs(x));
        }
        float step = max == 0 ? 0 : max / 127f;
        ByteBuffer b = ByteBuffer.allocate(4 + v.length).order(ByteOrder.LITTLE_ENDIAN);
        b.putFloat(step);
        for (float x : v) {
            b.put((byte) (step == 0 ? 0 : Math.round(x / step)));
        }
        return b.array();
    }

    /**
     * The dot product of an exact query vector with a probe. Each component of the probe is within half
     * a step of the vector's, so the true dot product lies within {@link #probeBound} of this estimate.
     * A candidate whose estimate plus the bound is below a threshold is below it exactly; any other is
     * checked with its float vector, so a search over probes returns exactly what it did over float
     * vectors.
     */
    public static double probeEstimate(float[] query, byte[] probe) {
        float step = ByteBuffer.wrap(probe, 0, 4).order(ByteOrder.LITTLE_ENDIAN).getFloat();
        double s0 = 0;
        double s1 = 0;
        int n = Math.min(query.length, probe.length - 4);
        int i = 0;
        for (; i + 1 < n; i += 2) {
            s0 += query[i] * probe[4 + i];
            s1 += query[i + 1] * probe[5 + i];
        }
        for (; i < n; i++) {
            s0 += query[i] * probe[4 + i];
        }
        return (s0 + s1) * step;
    }

    /** How far {@link #probeEstimate} can be from the true dot product: sum|query_i| times half a step, plus a margin for rounding. */
    public static double probeBound(double queryL1, byte[] probe) {
        float step = ByteBuffer.wrap(probe, 0, 4).order(ByteOrder.LITTLE_ENDIAN).getFloat();
        return queryL1 * step / 2 + 1e-5;
    }

    /** Sum of absolute components. */
    public static double l1(float[] v) {
        double s = 0;
        for (float x : v) {
            s += Math.abs(x);
        }
        return s;
    }

    public static String encode(float[] v) {
        ByteBuffer b = ByteBuffer.allocate(v.length * 4).order(ByteOrder.LITTLE_ENDIAN);
        for (float x : v) {
            b.putFloat(x);
        }
        return Base64.getEncoder().encodeToString(b.array());
    }

    public static float[] decode(String s) {
        // ISO-8859-1 bytes of the base64 text (one byte per char, no charset lookup), decoded and
        // copied in bulk: the hot path of every near-neighbour query and every stored vector read
        FloatBuffer b = ByteBuffer.wrap(Base64.getDecoder().decode(s.getBytes(StandardCharsets.ISO_8859_1)))
                .order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer();
        float[] v = new float[b.remaining()];
        b.get(v);
        return v;
    }

    /** Doubles as base64 of little-endian float64s (exact: a stored typicality compares with a threshold as computed). */
    public static String encodeDoubles(double[] v) {
        ByteBuffer b = ByteBuffer.allocate(v.length * 8).order(ByteOrder.LITTLE_ENDIAN);
        for (double x : v) {
            b.putDouble(x);
        }
        return Base64.getEncoder().encodeToString(b.array());
    }

    public static double[] decodeDoubles(String s) {
        ByteBuffer b = ByteBuffer.wrap(Base64.getDecoder().decode(s)).order(ByteOrder.LITTLE_ENDIAN);
        double[] v = new double[b.remaining() / 8];
        for (int i = 0; i < v.length; i++) {
            v[i] = b.getDouble();
        }
        return v;
    }

    /** Mean of unit vectors, normalised (a centroid direction). */
    public static float[] mean(Iterable<float[]> vs, int dim) {
        return normalise(sum(vs, dim));
    }

    /** Component-wise sum of vectors (not normalised). */
    public static float[] sum(Iterable<float[]> vs, int dim) {
        float[] m = new float[dim];
        for (float[] v : vs) {
            for (int i = 0; i < dim; i++) {
                m[i] += v[i];
            }
        }
        return m;
    }

    /**
     * A member's coherence with the rest of its set: the cosine of {@code v} to the sum of the other
     * members ({@code sum} minus {@code v}), 0 when nothing else is left.
     */
    public static double coherence(float[] v, float[] sum) {
        float[] rest = new float[v.length];
        for (int i = 0; i < v.length; i++) {
            rest[i] = sum[i] - v[i];
        }
        return cosine(v, rest);
    }
}
