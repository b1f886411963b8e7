package dev.santabatch.review.lexical;

import dev.santabatch.config.LexicalThresholds;
import dev.santabatch.review.offline.SnapshotItem;
import dev.santabatch.eval.ListingCatalogGenerator;
import java.io.StringReader;
import java.io.StringWriter;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.apache.commons.csv.CSVRecord;

/**
 * Measurement (not a test): the lexical reviewer on a listing catalog of the {@code TUNING} pool (never
 * {@code HELD_OUT}) and on the bundled sample: per truth kind, how many items it fails on each criterion,
 * and the near-duplicate Jaccard distribution of clean items. Arguments: {@code [rows] [seed]}.
 */
public final class LexicalListingSweep {

    static final List<String> LISTING_SOURCE = List.of("name", "city", "region", "category", "rating", "distance_km", "group_size",
            "duration_hours", "price");

    public static void main(String[] args) throws Exception {
        int rows = args.length > 0 ? Integer.parseInt(args[0]) : 1500;
        long seed = args.length > 1 ? Long.parseLong(args[1]) : 11;
        StringWriter csv = new StringWriter();
        StringWriter truth = new StringWriter();
        ListingCatalogGenerator.write(seed, rows, ListingCatalogGenerator.Pool.TUNING, csv, truth);
        CsvSnapshot listings = new CsvSnapshot(1, 1, CsvSnapshot.items(CsvSnapshot.records(new StringReader(csv.toString())), "id", "listing",
                LISTING_SOURCE));
        Map<String, String> kinds = new HashMap<>();
        for (CSVRecord t : CsvSnapshot.records(new StringReader(truth.toString()))) {
            kinds.merge(t.get("id"), t.get("kind") + (t.get("kind").equals("boilerplate") ? ":" + t.get("truth") : ""), (a, b) -> a + "+" + b);
        }
        sweep("listings tuning seed " + seed, listings, kinds, true);
        CsvSnapshot sample = CsvSnapshot.products(LexicalHarness.SAMPLE, 2);
        Map<String, String> sk = new HashMap<>();
        for (CSVRecord t : CsvSnapshot.records(LexicalHarness.SAMPLE_TRUTH)) {
            String k = t.get("kind") + (t.get("kind").equals("drift-sentence") ? ":" + t.get("truth").replaceAll(":.*", "") : "");
            sk.merge(t.get("id"), k, (a, b) -> a + "+" + b);
        }
        sweep("sample", sample, sk, Boolean.getBoolean("verbose.sample"));
    }

    static void sweep(String name, CsvSnapshot snapshot, Map<String, String> kinds, boolean verbose) {
        LexicalIndex index = new LexicalIndex(LexicalHarness.h2(), LexicalThresholds.defaults());
        index.prepare(snapshot);
        LexicalReviewer reviewer = new LexicalReviewer("B", LexicalHarness.JUDGED, index);
        Map<String, int[]> byKind = new TreeMap<>();
        int[] hist = new int[11];
        int shown = 0;
        Map<String, int[]> sharedHist = new TreeMap<>();
        Map<String, java.util.Set<String>> grid = new TreeMap<>();
        for (SnapshotItem it : snapshot.items()) {
            String kind = kinds.getOrDefault(it.id(), "clean");
            var review = LexicalHarness.review(reviewer, LexicalHarness.request(it));
            boolean orig = LexicalHarness.failed(review, LexicalReviewer.ORIGINAL);
            boolean spec = LexicalHarness.failed(review, LexicalReviewer.ON_SPECIFICATION);
            int[] c = byKind.computeIfAbsent(kind, k -> new int[3]);
            c[0]++;
            c[1] += orig ? 1 : 0;
            c[2] += spec ? 1 : 0;
            {
                List<NearDuplicate> all = index.nearDuplicates(it.id(), it.content(), 0.0001);
                long[] mine = index.informative(it);
                int bestShared = 0;
                double bestJ = 0;
                int[] gridCell = null;
                for (NearDuplicate nd : all) {
                    long[] other = index.informative(snapshot.get(nd.itemId()).orElseThrow());
                    int shared = shared(mine, other);
                    int sj = Math.min(4, Math.max(0, (int) Math.floor(nd.jaccard() * 10) - 2));
                    int ss = shared >= 14 ? 4 : shared >= 12 ? 3 : shared >= 10 ? 2 : shared >= 8 ? 1 : 0;
                    if (gridCell == null || sj * 10 + ss > gridCell[0] * 10 + gridCell[1]) {
                        // the pair scoring highest on both: the worst for a clean item
                    }
                    grid.computeIfAbsent(kind.startsWith("boilerplate") ? kind.replaceAll("\\+.*", "") : kind.equals("clean") ? "clean" : "other",
                            k -> new java.util.HashSet<>()).add(it.id() + "|" + sj + "|" + ss);
                    if (shared > bestShared || (shared == bestShared && nd.jaccard() > bestJ)) {
                        bestShared = shared;
                        bestJ = nd.jaccard();
                    }
                }
                String key = kind.startsWith("boilerplate") ? kind.replaceAll("\\+.*", "") : kind.equals("clean") ? "clean" : null;
                if (key != null) {
                    sharedHist.computeIfAbsent(key, k -> new int[12])[Math.min(11, bestShared / 2)]++;
                    if (key.equals("clean") && bestShared >= Integer.getInteger("show.shared", 99) && verbose) {
                        NearDuplicate top = null;
                        for (NearDuplicate nd : all) {
                            if (shared(mine, index.informative(snapshot.get(nd.itemId()).orElseThrow())) == bestShared) { top = nd; break; }
                        }
                        System.out.println("  SHARED " + bestShared + " J " + bestJ + "\n     " + String.join(" ", Tokens.masked(it.content(), it.source()))
                                + "\n     " + String.join(" ", Tokens.masked(snapshot.get(top.itemId()).orElseThrow().content(), snapshot.get(top.itemId()).orElseThrow().source())));
                    }
                }
            }
            if (kind.equals("clean")) {
                List<NearDuplicate> d = index.nearDuplicates(it.id(), it.content(), 0.0001);
                hist[(int) Math.floor(10 * (d.isEmpty() ? 0 : d.get(0).jaccard()))]++;
                if (verbose && (orig || spec) && shown++ < 12) {
                    System.out.println("  clean flagged " + it.id() + ": " + review.criticalIssues() + "\n     " + it.content()
                            + (d.isEmpty() ? "" : "\n     nearest " + snapshot.get(d.get(0).itemId()).map(SnapshotItem::content).orElse("")));
                }
            }
        }
        System.out.println("== " + name + ": kind -> items, failed original, failed on-specification");
        byKind.forEach((k, c) -> System.out.printf(Locale.ROOT, "  %-45s %5d %5d %5d%n", k, c[0], c[1], c[2]));
        System.out.println("  clean items' best near-duplicate Jaccard, by tenths: " + java.util.Arrays.toString(hist));
        for (var e : grid.entrySet()) {
            if (e.getKey().equals("other")) continue;
            // items with some neighbour at (J >= row, shared >= col)
            System.out.println("  " + e.getKey() + ": items with a neighbour at J >= 0.3/0.4/0.5/0.6 (rows) and shared >= 0/8/10/12/14 (cols)");
            for (int sj = 1; sj <= 4; sj++) {
                StringBuilder b = new StringBuilder("    J>=" + (0.2 + sj / 10.0) + ":");
                for (int ss = 0; ss <= 4; ss++) {
                    final int fj = sj, fs = ss;
                    long n = e.getValue().stream().filter(x -> { String[] p = x.split("\\|"); return Integer.parseInt(p[1]) >= fj && Integer.parseInt(p[2]) >= fs; })
                            .map(x -> x.split("\\|")[0]).distinct().count();
                    b.append(String.format(Locale.ROOT, " %5d", n));
                }
                System.out.println(b);
            }
        }
        sharedHist.forEach((k, h) -> System.out.println("  most informative shingles shared with one other item, by twos, " + k + ": "
                + java.util.Arrays.toString(h)));
    }

    static int shared(long[] a, long[] b) {
        int i = 0, j = 0, n = 0;
        while (i < a.length && j < b.length) {
            if (a[i] == b[j]) { n++; i++; j++; } else if (a[i] < b[j]) { i++; } else { j++; }
        }
        return n;
    }
}
