package dev.santabatch.eval;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVRecord;

/**
 * The {@link PlantedDefect}s of a product catalog written by {@link SampleCatalogGenerator}, from its
 * ground truth and (for the one kind whose span the truth does not give) its catalog. See
 * {@link SampleCatalogGenerator#plantedDefects(Path, Path)} for the mapping per kind.
 */
final class ProductPlantedDefects {

    private static final CSVFormat HEADED = CSVFormat.DEFAULT.builder().setHeader().setSkipHeaderRecord(true).get();

    private ProductPlantedDefects() {}

    static List<PlantedDefect> read(Path truthCsv, Path catalogCsv) throws IOException {
        List<CSVRecord> truth = records(truthCsv);
        Map<String, String> texts = truth.stream().anyMatch(r -> r.get("kind").equals(SampleCatalogGenerator.WRONG_NUMBER))
                ? descriptions(catalogCsv) : Map.of();
        List<PlantedDefect> out = new ArrayList<>(truth.size());
        for (CSVRecord r : truth) {
            String id = r.get("id");
            String kind = r.get("kind");
            String wrong = r.get("wrong");
            out.add(switch (kind) {
                case SampleCatalogGenerator.FORBIDDEN_TERM -> new PlantedDefect(id, kind, wrong, caseOf(wrong, r.get("truth")), "");
                case SampleCatalogGenerator.MISSING_DISCLAIMER -> new PlantedDefect(id, kind, "", "", r.get("detail"));
                case SampleCatalogGenerator.WRONG_NUMBER -> wrongNumber(id, r.get("detail"), Integer.parseInt(wrong),
                        Integer.parseInt(r.get("truth")), texts.getOrDefault(id, ""));
                case SampleCatalogGenerator.DRIFT_SENTENCE, SampleCatalogGenerator.DRIFT_TEXT, SampleCatalogGenerator.BOILERPLATE ->
                        new PlantedDefect(id, kind, wrong, "", "");
                default -> throw new IllegalArgumentException(truthCsv + ": unknown kind " + kind + " for " + id);
            });
        }
        return out;
    }

    /**
     * The wrong number as the text states it: the value (digits or number words), or for a warranty
     * twelve times it in months, followed by its unit word, hyphenated or not, with at most one word
     * between ("5-year", "five years", "60 months", "five full years"); the correction is the same
     * phrase with the true value in the same form. When the correction contains the evidence ("three
     * hours" in "twenty-three hours"), both start a word earlier until it does not.
     */
    private static PlantedDefect wrongNumber(String id, String column, int wrong, int truth, String text) {
        boolean warranty = column.equals("warranty_years");
        List<Form> forms = warranty
                ? List.of(new Form(wrong, truth, "year"), new Form(wrong * 12, truth * 12, "month"))
                : List.of(new Form(wrong, truth, "hour"));
        for (Form f : forms) {
            for (boolean inWords : new boolean[] {false, true}) {
                String number = inWords ? SampleCatalogGenerator.words(f.wrong()) : Integer.toString(f.wrong());
                Matcher m = Pattern.compile("(?<![\\w.-])(" + Pattern.quote(number) + ")(-| )((?:[a-z]+ )?)(" + f.unit() + "s?)\\b",
                        Pattern.CASE_INSENSITIVE).matcher(text);
                if (m.find()) {
                    String value = inWords ? SampleCatalogGenerator.words(f.truth()) : Integer.toString(f.truth());
                    if (Character.isUpperCase(m.group(1).charAt(0))) {
                        value = Character.toUpperCase(value.charAt(0)) + value.substring(1);
                    }
                    String unit = m.group(4);
                    if (m.group(2).equals(" ")) { // "one year" becomes "three years"; "5-year" stays singular
                        unit = f.truth() == 1 ? f.unit() : f.unit() + "s";
                    }
                    String evidence = m.group();
                    String correction = value + m.group(2) + m.group(3) + unit;
                    // "three hours" is inside "twenty-three hours": widen both by a word until it is not
                    int start = m.start();
                    while (correction.contains(evidence) && start > 0) {
                        start = text.lastIndexOf(' ', start - 2) + 1;
                        evidence = text.substring(start, m.end());
                        correction = text.substring(start, m.start()) + value + m.group(2) + m.group(3) + unit;
                    }
                    return new PlantedDefect(id, SampleCatalogGenerator.WRONG_NUMBER, evidence, correction, "");
                }
            }
        }
        throw new IllegalStateException("wrong-number " + id + ": " + column + " " + wrong + " not found in: " + text);
    }

    /** One way the text can state the wrong value: the number, the true one in the same unit, the unit's singular. */
    private record Form(int wrong, int truth, String unit) {}

    /** The replacement with the first-letter case of the term it replaces ("Miracle" gives "Remarkable"). */
    private static String caseOf(String term, String replacement) {
        boolean capitalised = term.length() > 1 && Character.isUpperCase(term.charAt(0))
                && !term.toUpperCase(Locale.ROOT).equals(term);
        return capitalised ? Character.toUpperCase(replacement.charAt(0)) + replacement.substring(1) : replacement;
    }

    private static Map<String, String> descriptions(Path catalogCsv) throws IOException {
        Map<String, String> out = new HashMap<>();
        for (CSVRecord r : records(catalogCsv)) {
            out.put(r.get("id"), r.get("description"));
        }
        return out;
    }

    private static List<CSVRecord> records(Path csv) throws IOException {
        try (Reader in = Files.newBufferedReader(csv, StandardCharsets.UTF_8); var parser = HEADED.parse(in)) {
            return parser.getRecords();
        }
    }
}
