package dev.santabatch.batchfix.induction;

import java.util.ArrayList;
import java.util.List;

/** The edit script between two sequences: the hunks of a longest common subsequence. */
final class Edits {

    /** {@code a[aFrom, aTo)} was replaced by {@code b[bFrom, bTo)} (either may be empty). */
    record Hunk(int aFrom, int aTo, int bFrom, int bTo) {

        boolean deletion() {
            return bFrom == bTo;
        }

        boolean insertion() {
            return aFrom == aTo;
        }
    }

    private Edits() {}

    static <T> List<Hunk> hunks(List<T> a, List<T> b) {
        int n = a.size();
        int m = b.size();
        int[][] lcs = new int[n + 1][m + 1];
        for (int i = n - 1; i >= 0; i--) {
            for (int j = m - 1; j >= 0; j--) {
                lcs[i][j] = a.get(i).equals(b.get(j)) ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
            }
        }
        List<Hunk> out = new ArrayList<>();
        int i = 0;
        int j = 0;
        int ai = -1;
        int bj = -1;
        while (i < n || j < m) {
            if (i < n && j < m && a.get(i).equals(b.get(j))) {
                if (ai >= 0) {
                    out.add(new Hunk(ai, i, bj, j));
                    ai = -1;
                }
                i++;
                j++;
                continue;
            }
            if (ai < 0) {
                ai = i;
                bj = j;
            }
            if (j >= m || i < n && lcs[i + 1][j] >= lcs[i][j + 1]) {
                i++;
            } else {
                j++;
            }
        }
        if (ai >= 0) {
            out.add(new Hunk(ai, n, bj, m));
        }
        return out;
    }
}
