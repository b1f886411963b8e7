package dev.santabatch.review.offline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.santabatch.text.Shingles;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.commons.csv.CSVRecord;

/**
 * The shape of the blind evaluation sets {@code fixtures/blind-clean-drift.csv} and
 * {@code fixtures/blind2-clean-drift.csv} (hand-written product
 * texts for judging a redesign of the semantic reviewer's off-topic test without its designer having
 * seen them): the catalog's columns plus {@code case} and {@code note}, 40 clean, 10 competitor-clean
 * and 15 drift texts, every category in every case, each drift note's sentences (separated by
 * {@code " | "}) quoted exactly from the text and sharing no word with another item's name or brand,
 * every number of a text one of its own source values, and no name or brand (nor a word of one) taken
 * from the sample catalog. Only the file's shape: no reviewer runs on it here.
 */
class BlindSetShapeTests {

    static final Path SAMPLE = Path.of("sample-data/products.csv");
    static final List<String> CATEGORIES = List.of("outdoor", "supplements", "headphones", "fitness", "kitchen", "laptops");
    private static final Pattern NUMBER = Pattern.compile("\\d[\\d,]*(?:\\.\\d+)?");

    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {"src/test/resources/fixtures/blind-clean-drift.csv", "src/test/resources/fixtures/blind2-clean-drift.csv", "src/test/resources/fixtures/blind3-clean-drift.csv", "src/test/resources/fixtures/blind4-clean-drift.csv", "src/test/resources/fixtures/blind5-clean-drift.csv", "src/test/resources/fixtures/blind6-clean-drift.csv", "src/test/resources/fixtures/blind7-clean-drift.csv"})
    void theBlindSetHasItsCasesCategoriesAndQuotedDrift(String file) throws Exception {
        List<CSVRecord> rows = MemorySnapshot.records(Path.of(file));
        List<CSVRecord> sample = MemorySnapshot.records(SAMPLE);
        assertThat(rows.get(0).getParser().getHeaderNames())
                .containsExactly("id", "name", "brand", "category", "price", "warranty_years", "battery_hours", "description", "case", "note");

        Map<String, Integer> perCase = new TreeMap<>();
        Map<String, Set<String>> categoriesPerCase = new TreeMap<>();
        Set<String> ids = new HashSet<>();
        Set<String> names = new HashSet<>();
        for (CSVRecord r : rows) {
            assertThat(ids.add(r.get("id"))).as("unique id %s", r.get("id")).isTrue();
            assertThat(names.add(r.get("name"))).as("unique name %s", r.get("name")).isTrue();
            assertThat(r.get("category")).isIn(CATEGORIES);
            assertThat(r.get("description").length()).as("%s length", r.get("id")).isBetween(40, 2000);
            perCase.merge(r.get("case"), 1, Integer::sum);
            categoriesPerCase.computeIfAbsent(r.get("case"), k -> new HashSet<>()).add(r.get("category"));
        }
        assertThat(perCase).containsExactlyInAnyOrderEntriesOf(Map.of("clean", 40, "competitor-clean", 10, "drift", 15));
        categoriesPerCase.forEach((c, cats) -> assertThat(cats).as("categories of %s", c).containsExactlyInAnyOrderElementsOf(CATEGORIES));

        // names and brands are invented: neither they nor any word of them is in the sample catalog's names or brands
        Set<String> sampleWords = new HashSet<>();
        Set<String> sampleNames = new HashSet<>();
        for (CSVRecord s : sample) {
            sampleNames.add(s.get("name").toLowerCase());
            sampleNames.add(s.get("brand").toLowerCase());
            sampleWords.addAll(Shingles.words(s.get("name") + " " + s.get("brand")));
        }
        List<String> taken = new ArrayList<>();
        for (CSVRecord r : rows) {
            for (String field : List.of("name", "brand")) {
                if (sampleNames.contains(r.get(field).toLowerCase())) {
                    taken.add(r.get("id") + " " + field + " " + r.get(field));
                }
                for (String w : Shingles.words(r.get(field))) {
                    if (sampleWords.contains(w)) {
                        taken.add(r.get("id") + " " + field + " word " + w);
                    }
                }
            }
        }
        assertThat(taken).as("names and brands from the sample catalog").isEmpty();

        // every number in a text is one of the item's own source values (price, warranty, battery)
        List<String> ungrounded = new ArrayList<>();
        for (CSVRecord r : rows) {
            Set<BigDecimal> values = new HashSet<>();
            for (String c : List.of("price", "warranty_years", "battery_hours")) {
                if (!r.get(c).isEmpty()) {
                    values.add(new BigDecimal(r.get(c)).stripTrailingZeros());
                }
            }
            Matcher m = NUMBER.matcher(r.get("description"));
            while (m.find()) {
                if (!values.contains(new BigDecimal(m.group().replace(",", "")).stripTrailingZeros())) {
                    ungrounded.add(r.get("id") + " " + m.group());
                }
            }
        }
        assertThat(ungrounded).as("numbers not in the item's source fields").isEmpty();

        // drift notes quote the off-topic sentences exactly; they name no other item of the sample or this set
        Map<String, String> otherNames = new LinkedHashMap<>();
        sample.forEach(s -> otherNames.put(s.get("id"), s.get("name") + " " + s.get("brand")));
        rows.forEach(r -> otherNames.put(r.get("id"), r.get("name") + " " + r.get("brand")));
        List<String> sharing = new ArrayList<>();
        int driftSentences = 0;
        for (CSVRecord r : rows) {
            if (!r.get("case").equals("drift")) {
                continue;
            }
            String[] quoted = r.get("note").split(" \\| ");
            assertThat(quoted.length).as("%s drift sentences", r.get("id")).isBetween(1, 2);
            for (String q : quoted) {
                assertThat(q).as("%s drift note", r.get("id")).isNotBlank();
                assertThat(r.get("description")).as("%s quotes its drift", r.get("id")).contains(q);
                driftSentences++;
                Set<String> words = new HashSet<>(Shingles.words(q));
                otherNames.forEach((id, nameBrand) -> {
                    if (!id.equals(r.get("id"))) {
                        Shingles.words(nameBrand).stream().filter(words::contains).forEach(w -> sharing.add(r.get("id") + " " + w + " (" + id + ")"));
                    }
                });
            }
        }
        assertThat(sharing).as("drift words shared with another item's name or brand").isEmpty();
        assertThat(driftSentences).isBetween(15, 30);
    }
}
