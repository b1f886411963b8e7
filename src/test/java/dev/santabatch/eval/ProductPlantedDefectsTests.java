package dev.santabatch.eval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class ProductPlantedDefectsTests {

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(SampleCatalogGenerator.Vocabulary.class)
    void everyTruthRowIsADefectItsItemCarriesAndItsCorrectionRemoves(SampleCatalogGenerator.Vocabulary pool) throws IOException {
        Path csv = dir.resolve("c.csv");
        Path truth = dir.resolve("t.csv");
        SampleCatalogGenerator.Summary s = SampleCatalogGenerator.write(17L, 1500, pool, csv, truth);
        Map<String, String> texts = descriptions(csv);

        List<PlantedDefect> defects = SampleCatalogGenerator.plantedDefects(truth, csv);

        assertThat(defects).hasSize(s.truthRows());
        assertThat(defects).extracting(PlantedDefect::kind).containsAll(SampleCatalogGenerator.KINDS);
        for (PlantedDefect d : defects) {
            String text = texts.get(d.itemId());
            if (!d.evidence().isEmpty()) {
                assertThat(text).as("%s", d).contains(d.evidence());
                assertThat(text.replace(d.evidence(), d.correction())).as("%s", d).doesNotContain(d.evidence());
                assertThat(d.appendix()).isEmpty();
            } else {
                assertThat(text).as("%s", d).doesNotContain(d.appendix());
                assertThat(d.appendix()).isNotEmpty();
            }
        }
    }

    @Test
    void aWrongNumberIsFoundInTheTextInItsOwnFormAndCorrectedInTheSameForm() throws IOException {
        Path csv = write("c.csv", String.join("\n", SampleCatalogGenerator.CATALOG_HEADER_LINE,
                "P1,A,B,kitchen,9.99,3,,Warm. You are covered for one year against defects.",
                "P2,A,B,kitchen,9.99,3,,Warm. Coverage runs for five full years.",
                "P3,A,B,kitchen,9.99,3,,Warm for 5 hours. The purchase includes 60 months of warranty coverage.",
                "P4,A,B,fitness,9.99,3,12,A 3-year warranty. The 40-hour battery outlasts a long day.",
                "P5,A,B,fitness,9.99,3,12,Sleek. Fans call it a MIRACLE answer. Miracle results show up.",
                "P6,A,B,fitness,9.99,3,23,It runs for 3 hours before it needs the charger."));
        Path truth = write("t.csv", String.join("\n", SampleCatalogGenerator.TRUTH_HEADER_LINE,
                "P1,wrong-number,warranty_years,1,3,", "P2,wrong-number,warranty_years,5,3,",
                "P3,wrong-number,warranty_years,5,3,", "P4,wrong-number,battery_hours,40,12,",
                "P5,forbidden-term,miracle,MIRACLE,remarkable,", "P6,wrong-number,battery_hours,3,23,"));

        assertThat(SampleCatalogGenerator.plantedDefects(truth, csv)).containsExactly(
                new PlantedDefect("P1", "wrong-number", "one year", "three years", ""),
                new PlantedDefect("P2", "wrong-number", "five full years", "three full years", ""),
                new PlantedDefect("P3", "wrong-number", "60 months", "36 months", ""),
                new PlantedDefect("P4", "wrong-number", "40-hour", "12-hour", ""),
                new PlantedDefect("P5", "forbidden-term", "MIRACLE", "remarkable", ""),
                new PlantedDefect("P6", "wrong-number", "for 3 hours", "for 23 hours", ""));
    }

    @Test
    void aWrongNumberTheTextDoesNotStateIsAnError() throws IOException {
        Path csv = write("c.csv", SampleCatalogGenerator.CATALOG_HEADER_LINE + "\nP1,A,B,kitchen,9.99,3,,A 3-year warranty.\n");
        Path truth = write("t.csv", SampleCatalogGenerator.TRUTH_HEADER_LINE + "\nP1,wrong-number,warranty_years,5,3,\n");

        assertThatThrownBy(() -> SampleCatalogGenerator.plantedDefects(truth, csv))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("P1");
    }

    private Path write(String name, String text) throws IOException {
        return Files.writeString(dir.resolve(name), text + "\n");
    }

    private static Map<String, String> descriptions(Path csv) throws IOException {
        Map<String, String> out = new HashMap<>();
        try (Reader in = Files.newBufferedReader(csv, StandardCharsets.UTF_8);
                var p = CSVFormat.DEFAULT.builder().setHeader().setSkipHeaderRecord(true).get().parse(in)) {
            for (CSVRecord r : p) {
                out.put(r.get("id"), r.get("description"));
            }
        }
        return out;
    }
}
