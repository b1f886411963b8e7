package dev.santabatch.semantic;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** Spherical k-means (cosine) with k-means++ seeding, deterministic for a seed. */
final class KMeans {

    record Cluster(float[] centroid, int members) {}

    private KMeans() {}

    static List<Cluster> cluster(List<float[]> points, int k, int iterations, long seed) {
        int n = points.size();
        if (n == 0) {
            return List.of();
        }
        k = Math.min(k, n);
        int dim = points.get(0).length;
        Random r = new Random(seed);
        List<float[]> centroids = new ArrayList<>();
        centroids.add(points.get(r.nextInt(n)));
        double[] d = new double[n];
        while (centroids.size() < k) {
            double sum = 0;
            for (int i = 0; i < n; i++) {
                double best = Double.MAX_VALUE;
                for (float[] c : centroids) {
                    best = Math.min(best, 1 - Vectors.dot(points.get(i), c));
                }
                d[i] = best * best;
                sum += d[i];
            }
            double x = r.nextDouble() * sum;
            int pick = 0;
            for (; pick < n - 1; pick++) {
                x -= d[pick];
                if (x <= 0) {
                    break;
                }
            }
            centroids.add(points.get(pick));
        }
        int[] assign = new int[n];
        int[] counts = new int[k];
        for (int it = 0; it < iterations; it++) {
            for (int i = 0; i < n; i++) {
                int best = 0;
                double bestSim = -2;
                for (int c = 0; c < k; c++) {
                    double s = Vectors.dot(points.get(i), centroids.get(c));
                    if (s > bestSim) {
                        bestSim = s;
                        best = c;
                    }
                }
                assign[i] = best;
            }
            float[][] sums = new float[k][dim];
            counts = new int[k];
            for (int i = 0; i < n; i++) {
                counts[assign[i]]++;
                float[] p = points.get(i);
                for (int j = 0; j < dim; j++) {
                    sums[assign[i]][j] += p[j];
                }
            }
            for (int c = 0; c < k; c++) {
                if (counts[c] > 0) {
                    centroids.set(c, Vectors.normalise(sums[c]));
                }
            }
        }
        List<Cluster> out = new ArrayList<>();
        for (int c = 0; c < k; c++) {
            out.add(new Cluster(centroids.get(c), counts[c]));
        }
        return out;
    }
}
