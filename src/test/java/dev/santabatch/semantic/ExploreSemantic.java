package dev.santabatch.semantic;

import dev.santabatch.offline.SnapshotItem;
import dev.santabatch.rules.SentenceSplitter;
import java.util.*;
import java.util.concurrent.*;
import org.junit.jupiter.api.Test;

class ExploreSemantic {

    static String sourceText(SnapshotItem it) {
        Map<String, String> s = it.source();
        return s.get("name") + " by " + s.get("brand") + ", " + s.get("category");
    }

    static double auc(List<Double> pos, List<Double> neg) {
        long w = 0; long t = 0;
        for (double p : pos) for (double n : neg) { if (p > n) w += 2; else if (p == n) w += 1; t += 2; }
        return (double) w / t;
    }

    @Test
    void explore() throws Exception {
        TestCatalog cat = TestCatalog.sample(1);
        List<SnapshotItem> items = cat.items();
        ExecutorService pool = Executors.newFixedThreadPool(2);
        Embedder e = Embedder.shared();
        List<String> sents = new ArrayList<>(); List<Integer> owner = new ArrayList<>();
        List<String> srcs = new ArrayList<>(); List<String> whole = new ArrayList<>();
        for (int i = 0; i < items.size(); i++) {
            for (String s : SentenceSplitter.sentences(items.get(i).content())) { sents.add(s); owner.add(i); }
            srcs.add(sourceText(items.get(i))); whole.add(items.get(i).content());
        }
        long t0 = System.nanoTime();
        List<float[]> sv = e.embedAll(sents, pool);
        List<float[]> srcv = e.embedAll(srcs, pool);
        List<float[]> wv = e.embedAll(whole, pool);
        System.out.printf("embedded %d sentences + %d + %d in %d ms%n", sents.size(), srcs.size(), whole.size(), (System.nanoTime()-t0)/1_000_000);
        // category centroids of sentences
        Map<String, List<float[]>> byCat = new HashMap<>();
        for (int k = 0; k < sents.size(); k++) byCat.computeIfAbsent(items.get(owner.get(k)).category(), c -> new ArrayList<>()).add(sv.get(k));
        Map<String, float[]> cent = new HashMap<>();
        byCat.forEach((c, l) -> cent.put(c, Vectors.mean(l, 384)));
        // on-spec sentence-level
        List<Double> posS = new ArrayList<>(), negS = new ArrayList<>(), posC = new ArrayList<>(), negC = new ArrayList<>(), posM = new ArrayList<>(), negM = new ArrayList<>();
        for (int kk = 0; kk < sents.size(); kk++) {
            final int k = kk;
            String id = items.get(owner.get(k)).id();
            boolean drift = cat.truth.getOrDefault(id, List.of()).stream().anyMatch(t -> t.kind().startsWith("drift") && t.truth().startsWith("topic:") && t.wrong().contains(sents.get(k)));
            boolean clean = cat.clean(id);
            if (!drift && !clean) continue;
            double ss = Vectors.dot(sv.get(k), srcv.get(owner.get(k)));
            double sc = Vectors.dot(sv.get(k), cent.get(items.get(owner.get(k)).category()));
            (drift ? posS : negS).add(-ss); (drift ? posC : negC).add(-sc); (drift ? posM : negM).add(-Math.max(ss, sc));
        }
        System.out.printf("on-spec sentence AUC: src %.3f cat %.3f max %.3f (pos %d neg %d)%n", auc(posS, negS), auc(posC, negC), auc(posM, negM), posS.size(), negS.size());
        printQ("drift max", posM); printQ("clean max", negM);
        // whole text nearest neighbour
        List<Double> pw = new ArrayList<>(), nw = new ArrayList<>();
        for (int i = 0; i < items.size(); i++) {
            String id = items.get(i).id();
            if (!cat.paraphrase(id) && !cat.clean(id)) continue;
            double best = -1;
            for (int j = 0; j < items.size(); j++) if (j != i) best = Math.max(best, Vectors.dot(wv.get(i), wv.get(j)));
            (cat.paraphrase(id) ? pw : nw).add(best);
        }
        System.out.printf("whole-text NN AUC paraphrase vs clean %.3f%n", auc(pw, nw));
        printQ("para", pw); printQ("clean", nw);
        // sentence-level: per item, max over other items of count of its sentences matched >= t
        for (double th : new double[]{0.6, 0.7, 0.8}) {
            List<Double> ps = new ArrayList<>(), ns = new ArrayList<>();
            Map<Integer, List<Integer>> sentOf = new HashMap<>();
            for (int k = 0; k < sents.size(); k++) sentOf.computeIfAbsent(owner.get(k), x -> new ArrayList<>()).add(k);
            for (int i = 0; i < items.size(); i++) {
                String id = items.get(i).id();
                if (!cat.paraphrase(id) && !cat.clean(id)) continue;
                Map<Integer, Double> matched = new HashMap<>();
                for (int k : sentOf.get(i)) {
                    Map<Integer, Double> bestPer = new HashMap<>();
                    for (int m = 0; m < sents.size(); m++) { int o = owner.get(m); if (o == i) continue; double c = Vectors.dot(sv.get(k), sv.get(m)); if (c >= th) bestPer.merge(o, c, Math::max);}
                    // weight by (1 - sim to own source): boilerplate is not about the product
                    double w = 1 - Math.max(0, Vectors.dot(sv.get(k), srcv.get(i)));
                    bestPer.forEach((o, c) -> matched.merge(o, w, Double::sum));
                }
                double best = matched.values().stream().mapToDouble(d -> d).max().orElse(0);
                (cat.paraphrase(id) ? ps : ns).add(best);
            }
            System.out.printf("sentence-match th %.1f AUC %.3f%n", th, auc(ps, ns));
            printQ(" para", ps); printQ(" clean", ns);
        }
        pool.shutdown();
    }

    static void printQ(String n, List<Double> l) {
        List<Double> s = new ArrayList<>(l); Collections.sort(s);
        if (s.isEmpty()) return;
        System.out.printf("  %s n=%d min %.3f p05 %.3f p25 %.3f p50 %.3f p75 %.3f p95 %.3f max %.3f%n", n, s.size(), s.get(0), s.get((int)(s.size()*0.05)), s.get(s.size()/4), s.get(s.size()/2), s.get(s.size()*3/4), s.get((int)(s.size()*0.95)), s.get(s.size()-1));
    }
}
