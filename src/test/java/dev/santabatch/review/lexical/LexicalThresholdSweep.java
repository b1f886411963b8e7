package dev.santabatch.review.lexical;

import dev.santabatch.config.LexicalThresholds;
import dev.santabatch.review.offline.SnapshotItem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * Measurement behind the lexical defaults (not a test): prints recall and precision per threshold on
 * the sample catalog and the generator's {@code HELD_OUT}-pool catalog (seed 99, 1200 rows). Run:
 * {@code java -cp target/classes:target/test-classes:<deps> dev.santabatch.review.lexical.LexicalThresholdSweep}.
 * (Its precision counts every failed item with a drift or boilerplate defect as a true positive, the
 * other method's cases included; the floor tests score a reviewer on its own cases and the clean ones.)
 *
 * <p>Tuning tool: it generates from the sample and the {@code HELD_OUT} pool only. Never point it (or any
 * other tuning run) at the generator's {@code FRESH} pool: that pool is what the held-out floor tests
 * measure on, and a figure on a catalog one has tuned on is not a held-out figure.
 */
public final class LexicalThresholdSweep {

    public static void main(String[] args) throws Exception {
        Path dir = Files.createTempDirectory("lexical-sweep");
        Path[] held = LexicalHarness.heldOut(dir);
        sweep("sample", CsvSnapshot.products(LexicalHarness.SAMPLE, 1), LexicalHarness.generatorTruth(LexicalHarness.SAMPLE_TRUTH));
        sweep("held-out", CsvSnapshot.products(held[0], 2), LexicalHarness.generatorTruth(held[1]));
    }

    static void sweep(String name, CsvSnapshot snapshot, LexicalHarness.Truth truth) {
        LexicalIndex index = new LexicalIndex(LexicalHarness.h2(), LexicalThresholds.defaults());
        index.prepare(snapshot);
        LexicalReviewer reviewer = new LexicalReviewer("B", LexicalHarness.JUDGED, index);
        int n = (int) snapshot.size();
        String[] ids = new String[n];
        double[] maxJ = new double[n];
        double[] diff = new double[n];
        boolean[] sentence = new boolean[n];
        int i = 0;
        for (SnapshotItem it : snapshot.items()) {
            ids[i] = it.id();
            List<NearDuplicate> d = index.nearDuplicates(it.id(), it.content(), 0.2);
            maxJ[i] = d.isEmpty() ? 0 : d.get(0).jaccard();
            LexicalIndex.Overlap o = index.sourceOverlap(it.id(), it.source(), it.content());
            diff[i] = o.otherId() == null ? -1 : o.other() - o.own();
            sentence[i] = !reviewer.offSpecSentences(LexicalHarness.request(it)).isEmpty();
            i++;
        }
        System.out.println("== " + name + ": original (near-duplicate-jaccard), targets = boilerplate exact/edit");
        for (double t = 0.25; t <= 0.601; t += 0.05) {
            print(ids, truth, maxJ, t);
        }
        double cleanMax = -1;
        for (int k = 0; k < n; k++) {
            if (!truth.defective().contains(ids[k])) {
                cleanMax = Math.max(cleanMax, diff[k]);
            }
        }
        System.out.printf(Locale.ROOT, "== %s: source overlap other - own: largest on an item with no drift/boilerplate defect %.3f%n", name, cleanMax);
        System.out.println("== " + name + ": on-specification (named sentences + source-overlap-margin), targets = drift naming another product");
        for (double m = 0.1; m <= 0.901; m += 0.1) {
            final double mm = m;
            int targets = 0, caught = 0, flagged = 0, fp = 0, wholeOnly = 0;
            for (int k = 0; k < n; k++) {
                boolean whole = diff[k] >= mm;
                boolean f = sentence[k] || whole;
                if (LexicalReviewer.ON_SPECIFICATION.equals(truth.targets().get(ids[k]))) {
                    targets++;
                    caught += f ? 1 : 0;
                }
                if (f) {
                    flagged++;
                    fp += truth.defective().contains(ids[k]) ? 0 : 1;
                    wholeOnly += whole && !sentence[k] ? 1 : 0;
                }
            }
            System.out.printf(Locale.ROOT, "  margin %.2f  recall %.3f (%d/%d)  precision %.3f (%d flagged, %d false, %d by whole text only)%n", mm,
                    (double) caught / targets, caught, targets, flagged == 0 ? 1 : (double) (flagged - fp) / flagged, flagged, fp, wholeOnly);
        }
    }

    private static void print(String[] ids, LexicalHarness.Truth truth, double[] maxJ, double threshold) {
        String criterion = LexicalReviewer.ORIGINAL;
        int targets = 0, caught = 0, flagged = 0, fp = 0;
        for (int k = 0; k < ids.length; k++) {
            boolean f = maxJ[k] >= threshold;
            if (criterion.equals(truth.targets().get(ids[k]))) {
                targets++;
                caught += f ? 1 : 0;
            }
            if (f) {
                flagged++;
                fp += truth.defective().contains(ids[k]) ? 0 : 1;
            }
        }
        System.out.printf(Locale.ROOT, "  jaccard %.2f  recall %.3f (%d/%d)  precision %.3f (%d flagged, %d false)%n", threshold,
                (double) caught / targets, caught, targets, flagged == 0 ? 1 : (double) (flagged - fp) / flagged, flagged, fp);
    }
}
