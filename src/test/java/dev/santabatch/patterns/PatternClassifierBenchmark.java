package dev.santabatch.patterns;

import dev.santabatch.patterns.PatternClassifier.Failure;
import dev.santabatch.review.semantic.Vectors;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * Not a test: the clustering of one criterion's failures, the classifier's (Lance-Williams update)
 * beside the plain definition (each pair's mean recomputed over its members,
 * {@link PatternClassifierTests#plainClusters}), on the same vectors, for growing numbers of failures;
 * prints the median of 3 timings each and checks that both give the same clusters. Arguments:
 * failure counts (default 250 500 1000).
 */
public final class PatternClassifierBenchmark {

    public static void main(String[] args) {
        EmbeddingIssueSimilarity sim = new EmbeddingIssueSimilarity(PatternClassifierTests.THRESHOLD);
        String[] shapes = {
            "factual-accuracy: claims a %d-year warranty but the source says %d",
            "factual-accuracy: battery life stated as %d hours, source says %d",
            "factual-accuracy: price stated as $%d but the source says $%d.99",
            "factual-accuracy: the weight is given as %d kg while the source lists %d kg",
            "factual-accuracy: runtime on one charge is %d h in the text and %d h in the facts",
            "factual-accuracy: capacity of %d litres does not match the %d litres listed"};
        for (String a : args.length == 0 ? new String[] {"250", "500", "1000"} : args) {
            int n = Integer.parseInt(a);
            Random r = new Random(n);
            List<Failure> fs = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                fs.add(new Failure("P" + i, String.format(Locale.ROOT, shapes[r.nextInt(shapes.length)], 1 + r.nextInt(99), 1 + r.nextInt(99))));
            }
            fs.forEach(f -> sim.vector(f.issue())); // embedded once, outside the timings
            PatternClassifier classifier = new PatternClassifier(sim, PatternClassifierTests.THRESHOLD);
            long[] fast = new long[3];
            long[] plain = new long[3];
            int clusters = 0;
            for (int k = 0; k < 3; k++) {
                long t0 = System.nanoTime();
                clusters = classifier.cluster(fs).size();
                fast[k] = System.nanoTime() - t0;
                t0 = System.nanoTime();
                double[][] cos = new double[n][n];
                for (int i = 0; i < n; i++) {
                    for (int j = 0; j < n; j++) {
                        cos[i][j] = Vectors.dot(sim.vector(fs.get(i).issue()), sim.vector(fs.get(j).issue()));
                    }
                }
                int plainClusters = PatternClassifierTests.plainClusters(cos, PatternClassifierTests.THRESHOLD).size();
                plain[k] = System.nanoTime() - t0;
                if (plainClusters != clusters) {
                    throw new IllegalStateException("different clusters: " + clusters + " vs " + plainClusters);
                }
            }
            java.util.Arrays.sort(fast);
            java.util.Arrays.sort(plain);
            System.out.printf(Locale.ROOT, "failures %5d: %d clusters; classifier %.3f s, plain definition %.3f s (medians of 3), ratio %.1f%n",
                    n, clusters, fast[1] / 1e9, plain[1] / 1e9, (double) plain[1] / fast[1]);
        }
    }
}
