package dev.santabatch.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVRecord;
import org.jspecify.annotations.Nullable;

/**
 * Escape rates against a ground-truth file (as the sample generator writes: {@code
 * id,kind,detail,wrong,truth,group}): per planted defect kind, how many planted items were shipped
 * still carrying the defect. A planted defect counts as still present in a shipped text when the
 * text is unchanged from the input, or (by kind) when it still holds the planted passage (drift,
 * boilerplate, forbidden term), still lacks the required phrase (missing disclaimer); a wrong number
 * counts as present when the text is unchanged. Also the false-hold rate: clean items held.
 */
public final class GroundTruthEscapes {

    private final Map<String, List<CSVRecord>> byItem = new HashMap<>();
    private final Map<String, long[]> perKind = new TreeMap<>(); // planted, shipped, escaped, held
    private long cleanShipped;
    private long cleanHeld;
    private long cleanChanged;

    public GroundTruthEscapes(Path truth) throws IOException {
        try (var parser = CSVFormat.RFC4180.builder().setHeader().setSkipHeaderRecord(true).get()
                .parse(Files.newBufferedReader(truth, StandardCharsets.UTF_8))) {
            for (CSVRecord r : parser) {
                byItem.computeIfAbsent(r.get("id"), k -> new ArrayList<>()).add(r);
            }
        }
    }

    /** Offers one accepted item: its input content, and its shipped content ({@code null} when held). */
    public void offer(String id, String original, @Nullable String shipped) {
        List<CSVRecord> planted = byItem.get(id);
        if (planted == null) {
            if (shipped == null) {
                cleanHeld++;
            } else {
                cleanShipped++;
                if (!shipped.equals(original)) {
                    cleanChanged++;
                }
            }
            return;
        }
        Set<String> kinds = new HashSet<>();
        for (CSVRecord t : planted) {
            String kind = t.get("kind");
            long[] c = perKind.computeIfAbsent(kind, k -> new long[4]);
            if (!kinds.add(kind + "|" + t.get("detail") + "|" + t.get("wrong"))) {
                continue;
            }
            c[0]++;
            if (shipped == null) {
                c[3]++;
                continue;
            }
            c[1]++;
            if (present(t, original, shipped)) {
                c[2]++;
            }
        }
    }

    static boolean present(CSVRecord t, String original, String shipped) {
        if (shipped.equals(original)) {
            return true;
        }
        String wrong = t.get("wrong");
        return switch (t.get("kind")) {
            case "missing-disclaimer" -> !shipped.contains(t.get("detail"));
            case "drift-sentence", "drift-text", "boilerplate" -> !wrong.isBlank() && shipped.contains(wrong.strip());
            case "forbidden-term" -> java.util.regex.Pattern.compile("\\b" + java.util.regex.Pattern.quote(wrong) + "\\b")
                    .matcher(shipped).find();
            default -> false;
        };
    }

    public Map<String, Object> result() {
        Map<String, Object> m = new LinkedHashMap<>();
        Map<String, Object> kinds = new LinkedHashMap<>();
        long shippedWithDefect = 0;
        long escaped = 0;
        for (Map.Entry<String, long[]> e : perKind.entrySet()) {
            long[] c = e.getValue();
            shippedWithDefect += c[1];
            escaped += c[2];
            kinds.put(e.getKey(), RunReport.ordered("planted", c[0], "shipped", c[1], "held", c[3], "escaped", c[2],
                    "escape_rate", c[1] == 0 ? 0.0 : c[2] / (double) c[1], "fixed_or_held_share",
                    c[0] == 0 ? 1.0 : (c[0] - c[2]) / (double) c[0]));
        }
        long clean = cleanShipped + cleanHeld;
        m.put("escape_rate", shippedWithDefect == 0 ? 0.0 : escaped / (double) shippedWithDefect);
        m.put("escaped_defects", escaped);
        m.put("false_hold_rate", clean == 0 ? 0.0 : cleanHeld / (double) clean);
        m.put("clean_items", clean);
        m.put("clean_items_held", cleanHeld);
        m.put("clean_items_changed", cleanChanged);
        m.put("by_kind", kinds);
        m.put("method", "a planted defect escapes when its item ships still carrying it (unchanged text, or the planted"
                + " passage, term or missing phrase still there)");
        return m;
    }
}
