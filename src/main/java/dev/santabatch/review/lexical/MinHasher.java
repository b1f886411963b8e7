package dev.santabatch.review.lexical;

import java.util.HexFormat;

/**
 * MinHash signatures ({@link #BANDS} × {@link #ROWS} 32-bit minima) over shingle hashes and their
 * LSH band buckets. With 42 bands of 3 rows, a pair of Jaccard 0.4 shares a bucket with
 * probability 0.994, a pair of 0.3 with 0.68, a pair of 0.1 with 0.04.
 */
final class MinHasher {

    static final int BANDS = 42;
    static final int ROWS = 3;
    static final int K = BANDS * ROWS;
    private static final long[] SEEDS = new long[K];

    static {
        long s = 0x9E3779B97F4A7C15L;
        for (int i = 0; i < K; i++) {
            s = mix(s + 0x632BE59BD9B4E019L);
            SEEDS[i] = s;
        }
    }

    private MinHasher() {}

    static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /** The signature of a non-empty shingle set. */
    static int[] signature(long[] shingles) {
        int[] sig = new int[K];
        java.util.Arrays.fill(sig, Integer.MAX_VALUE);
        for (long sh : shingles) {
            for (int i = 0; i < K; i++) {
                int h = (int) (mix(sh ^ SEEDS[i]) >>> 33); // non-negative 31-bit
                if (h < sig[i]) {
                    sig[i] = h;
                }
            }
        }
        return sig;
    }

    /** One bucket key per band; the band number is mixed in, so keys of different bands never meet. */
    static long[] buckets(int[] sig) {
        long[] out = new long[BANDS];
        for (int b = 0; b < BANDS; b++) {
            long h = mix(0x5851F42D4C957F2DL * (b + 1));
            for (int r = 0; r < ROWS; r++) {
                h = mix(h ^ (sig[b * ROWS + r] & 0xFFFFFFFFL) * 0x2545F4914F6CDD1DL);
            }
            out[b] = h;
        }
        return out;
    }

    static double estimate(int[] a, int[] b) {
        int eq = 0;
        for (int i = 0; i < K; i++) {
            if (a[i] == b[i]) {
                eq++;
            }
        }
        return (double) eq / K;
    }

    static String encode(int[] sig) {
        byte[] bytes = new byte[sig.length * 4];
        for (int i = 0; i < sig.length; i++) {
            bytes[4 * i] = (byte) (sig[i] >>> 24);
            bytes[4 * i + 1] = (byte) (sig[i] >>> 16);
            bytes[4 * i + 2] = (byte) (sig[i] >>> 8);
            bytes[4 * i + 3] = (byte) sig[i];
        }
        return HexFormat.of().formatHex(bytes);
    }

    static int[] decode(String hex) {
        byte[] bytes = HexFormat.of().parseHex(hex);
        int[] sig = new int[bytes.length / 4];
        for (int i = 0; i < sig.length; i++) {
            sig[i] = ((bytes[4 * i] & 0xFF) << 24) | ((bytes[4 * i + 1] & 0xFF) << 16) | ((bytes[4 * i + 2] & 0xFF) << 8)
                    | (bytes[4 * i + 3] & 0xFF);
        }
        return sig;
    }
}
