package dev.santabatch.export;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import dev.santabatch.text.Shingles;
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
import dev.santabatch.prepass.rules.NumberWords;
import org.jspecify.annotations.Nullable;

/**
 * Escape rates against a ground-truth file (as the sample generator writes: {@code
 * id,kind,detail,wrong,truth,group}): per planted defect kind, how many planted items were shipped
 * still carrying the defect. A planted defect counts as still present in a shipped text when the
 * text is unchanged from the input, or by kind: at least half of the planted passage's word
 * 3-shingles are still there (drift sentence, drifted text, boilerplate), the forbidden term is
 * still there, the required phrase is still missing, or the wrong number is still stated with a
 * unit of its attribute (digits, words, or months for years). Two escape rates, each naming its
 * denominator: escaped defects among the planted defects of shipped items ({@code escape_rate}),
 * and shipped items still carrying a planted defect among all shipped items ({@code
 * escape_rate_of_shipped}, what a human spot-check of shipped items measures). Two false-hold
 * rates: held among the items planted with no defect ({@code false_hold_rate}), and held among the
 * items with no planted defect left after the rules pre-pass ({@code false_hold_rate_after_prepass}:
 * those and the items whose planted defects the pre-pass all fixed, which the first rate counts
 * nowhere when they are held).
 */
public final class GroundTruthEscapes {

    private final Map<String, List<CSVRecord>> byItem = new HashMap<>();
    // planted, shipped, escaped, held (defects of the kind); shipped items carrying an escaped one
    private final Map<String, long[]> perKind = new TreeMap<>();
    private long shippedItems;
    private long escapedItems;
    /** The pre-pass's revisions of planted items. */
    private final Map<String, String> prePassed = new HashMap<>();
    private long prePassFixedAll;
    private long heldAfterPrePassFixedAll;
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

    /**
     * Offers the rules pre-pass's revision of an item (call before {@link #offer}): an item whose
     * planted defects the pre-pass all fixed is clean from then on, and if the reviewers hold it,
     * that hold is a false hold as well ({@code false_hold_rate_after_prepass}). Kept for planted
     * items only.
     */
    public void afterPrePass(String id, String content) {
        if (byItem.containsKey(id)) {
            prePassed.put(id, content);
        }
    }

    /** Whether the ground truth plants a defect in the item (only those are kept by {@link #afterPrePass}). */
    public boolean planted(String id) {
        return byItem.containsKey(id);
    }

    /** Offers one accepted item: its input content, and its shipped content ({@code null} when held). */
    public void offer(String id, String original, @Nullable String shipped) {
        if (shipped != null) {
            shippedItems++;
        }
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
        Set<String> escapedKinds = new HashSet<>();
        String prePass = prePassed.getOrDefault(id, original);
        boolean leftAfterPrePass = false;
        for (CSVRecord t : planted) {
            String kind = t.get("kind");
            long[] c = perKind.computeIfAbsent(kind, k -> new long[5]);
            if (!kinds.add(kind + "|" + t.get("detail") + "|" + t.get("wrong"))) {
                continue;
            }
            leftAfterPrePass |= present(t, original, prePass);
            c[0]++;
            if (shipped == null) {
                c[3]++;
                continue;
            }
            c[1]++;
            if (present(t, original, shipped)) {
                c[2]++;
                if (escapedKinds.add(kind)) {
                    c[4]++;
                }
            }
        }
        if (!escapedKinds.isEmpty()) {
            escapedItems++;
        }
        if (!leftAfterPrePass) {
            // every planted defect fixed by the rules pre-pass: clean for the reviewers
            prePassFixedAll++;
            if (shipped == null) {
                heldAfterPrePassFixedAll++;
            }
        }
    }

    /**
     * Whether the planted defect of ground-truth row {@code t} is still in {@code shipped} (the
     * item's {@code original} text unchanged, or the defect's own test: shingle containment for
     * planted passages, word match for terms, the stated number, the missing phrase).
     */
    public static boolean present(CSVRecord t, String original, String shipped) {
        if (shipped.equals(original)) {
            return true;
        }
        String wrong = t.get("wrong");
        return switch (t.get("kind")) {
            case "missing-disclaimer" -> !shipped.contains(t.get("detail"));
            // most of the planted passage still there (removing one sentence of a drifted text
            // or of a boilerplate passage does not fix it)
            case "drift-sentence", "drift-text", "boilerplate" -> !wrong.isBlank() && containment(wrong, shipped) >= 0.5;
            case "forbidden-term" -> java.util.regex.Pattern.compile("\\b" + java.util.regex.Pattern.quote(wrong) + "\\b")
                    .matcher(shipped).find();
            case "wrong-number" -> statesWrongNumber(t, shipped);
            default -> true;
        };
    }

    /** Share of the passage's word 3-shingles found in the text (all of its words, if shorter). */
    static double containment(String passage, String text) {
        Set<String> p = Shingles.of(passage);
        if (p.isEmpty()) {
            return text.toLowerCase(java.util.Locale.ROOT).contains(passage.strip().toLowerCase(java.util.Locale.ROOT)) ? 1 : 0;
        }
        Set<String> in = Shingles.of(text);
        long found = p.stream().filter(in::contains).count();
        return found / (double) p.size();
    }

    /** The planted wrong value still stated with a unit of its attribute (digits, words or months). */
    static boolean statesWrongNumber(CSVRecord t, String text) {
        int wrong;
        try {
            wrong = Integer.parseInt(t.get("wrong").strip());
        } catch (NumberFormatException e) {
            return true;
        }
        boolean years = t.get("detail").contains("year");
        List<String> forms = new ArrayList<>(List.of(String.valueOf(wrong), NumberWords.toWords(wrong, "-"),
                NumberWords.toWords(wrong, " ")));
        if (years) {
            forms.add(String.valueOf(wrong * 12));
            forms.add(NumberWords.toWords(wrong * 12, "-"));
        }
        String unit = years ? "(?:years?|yrs?|months?)" : "(?:hours?|hrs?|h)";
        StringBuilder alt = new StringBuilder();
        for (String f : forms) {
            alt.append(alt.length() == 0 ? "" : "|").append(java.util.regex.Pattern.quote(f));
        }
        return java.util.regex.Pattern.compile("(?i)(?<![\\p{L}\\p{N}])(?:" + alt + ")[\\s-]+(?:[a-z]+[\\s-]+)?" + unit + "\\b")
                .matcher(text).find();
    }

    /** {@code escape_rates_against_ground_truth}: each rate with its denominator in words, and per kind of defect. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Result(double escapeRate, String escapeRateDenominator, long shippedPlantedDefects,
            long escapedDefects, double escapeRateOfShipped, String escapeRateOfShippedDenominator, long shippedItems,
            long escapedItems, double falseHoldRate, String falseHoldRateDenominator, long cleanItems,
            long cleanItemsHeld, long cleanItemsChanged, double falseHoldRateAfterPrepass,
            String falseHoldRateAfterPrepassDenominator, long prepassFixedAllPlanted, long heldAfterPrepassFixedAllPlanted,
            Map<String, Kind> byKind, String method) {}

    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Kind(long planted, long shipped, long held, long escaped, double escapeRate, long escapedItems,
            double escapeRateOfShipped, double fixedOrHeldShare) {}

    public Result result() {
        Map<String, Kind> kinds = new LinkedHashMap<>();
        long shippedWithDefect = 0;
        long escaped = 0;
        for (Map.Entry<String, long[]> e : perKind.entrySet()) {
            long[] c = e.getValue();
            shippedWithDefect += c[1];
            escaped += c[2];
            kinds.put(e.getKey(), new Kind(c[0], c[1], c[3], c[2], c[1] == 0 ? 0.0 : c[2] / (double) c[1], c[4],
                    shippedItems == 0 ? 0.0 : c[4] / (double) shippedItems, c[0] == 0 ? 1.0 : (c[0] - c[2]) / (double) c[0]));
        }
        long clean = cleanShipped + cleanHeld;
        long cleanAfterPrePass = clean + prePassFixedAll;
        return new Result(shippedWithDefect == 0 ? 0.0 : escaped / (double) shippedWithDefect,
                "planted defects in shipped items (escaped defects / every planted defect of"
                + " a shipped item, fixed or not; an item planted with two counts twice); by_kind the same per kind",
                shippedWithDefect, escaped, shippedItems == 0 ? 0.0 : escapedItems / (double) shippedItems,
                "all shipped items (shipped items still carrying a planted defect"
                + " / every shipped item, planted or not: the human spot-check's measure, defective among shipped);"
                + " by_kind: items carrying an escaped defect of the kind / every shipped item",
                shippedItems, escapedItems, clean == 0 ? 0.0 : cleanHeld / (double) clean,
                "items planted with no defect (held / all of them)", clean, cleanHeld, cleanChanged,
                cleanAfterPrePass == 0 ? 0.0 : (cleanHeld + heldAfterPrePassFixedAll) / (double) cleanAfterPrePass,
                "items with no planted defect left after the pre-pass (held"
                + " / all of them): items planted with no defect, and items whose planted defects the rules pre-pass"
                + " all fixed (prepass_fixed_all_planted; held_after_prepass_fixed_all_planted of them held)",
                prePassFixedAll, heldAfterPrePassFixedAll, kinds,
                "a planted defect escapes when its item ships still carrying it (unchanged text, or the planted"
                + " passage, term or missing phrase still there)");
    }
}
