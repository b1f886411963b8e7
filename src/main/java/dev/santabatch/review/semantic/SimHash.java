package dev.santabatch.review.semantic;

import java.util.Random;

/**
 * Random-hyperplane LSH (SimHash) with banding: {@code bands} bands of {@code rows} sign bits each.
 * Two vectors at angle θ agree on one bit with probability 1 − θ/π, so they share at least one band
 * bucket with probability 1 − (1 − (1 − θ/π)^rows)^bands. Deterministic for a seed.
 */
final class SimHash {

    private final int bands;
    private final int rows;
    private final float[][] planes;

    public SimHash(int dim, int bands, int rows, long seed) {
        if (rows < 1 || rows > 40) {
            throw new IllegalArgumentException("rows must be 1-40");
        }
        this.bands = bands;
        this.rows = rows;
        Random r = new Random(seed);
        planes = new float[bands * rows][dim];
        for (float[] p : planes) {
            for (int i = 0; i < dim; i++) {
                p[i] = (float) r.nextGaussian();
            }
        }
    }

    public int bands() {
        return bands;
    }

    /** One bucket per band; the band number is folded into the high bits, so buckets of different bands never collide. */
    public long[] buckets(float[] v) {
        long[] out = new long[bands];
        for (int b = 0; b < bands; b++) {
            long bits = 0;
            for (int r = 0; r < rows; r++) {
                if (Vectors.dot(planes[b * rows + r], v) >= 0) {
                    bits |= 1L << r;
                }
            }
            out[b] = ((long) b << 48) | bits;
        }
        return out;
    }

    /** Probability that two unit vectors with this cosine become candidates. */
    public double candidateProbability(double cosine) {
        double p = 1 - Math.acos(Math.max(-1, Math.min(1, cosine))) / Math.PI;
        return 1 - Math.pow(1 - Math.pow(p, rows), bands);
    }
}
