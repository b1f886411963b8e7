package dev.santabatch.export;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.santabatch.export.AuditFile.AuditResult;
import dev.santabatch.export.AuditFile.AuditedItem;
import dev.santabatch.export.AuditFile.ShippedItem;
import dev.santabatch.export.AuditFile.Verdict;
import dev.santabatch.export.AuditFileException.Problem;
import dev.santabatch.stats.ConfidenceInterval;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVPrinter;
import org.apache.commons.csv.CSVRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AuditFileTests {

    @TempDir
    Path dir;

    static List<ShippedItem> shipped(int n) {
        List<ShippedItem> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(new ShippedItem(String.format("P%04d", i), "Description " + i + ", with a comma."));
        }
        return out;
    }

    static List<List<String>> readRaw(Path file) throws Exception {
        List<List<String>> out = new ArrayList<>();
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            for (CSVRecord rec : CSVFormat.RFC4180.parse(r)) {
                out.add(rec.toList());
            }
        }
        return out;
    }

    static void writeRaw(Path file, List<List<String>> rows) throws Exception {
        try (CSVPrinter p = new CSVPrinter(Files.newBufferedWriter(file, StandardCharsets.UTF_8), CSVFormat.RFC4180)) {
            for (List<String> row : rows) {
                p.printRecord(row);
            }
        }
    }

    Path file(String name, String text) throws Exception {
        Path p = dir.resolve(name);
        Files.writeString(p, text, StandardCharsets.UTF_8);
        return p;
    }

    @Test
    void roundTripGivesEscapeRateAndInterval() throws Exception {
        Path audit = dir.resolve("audit.csv");
        List<ShippedItem> sample = AuditFile.write(audit, shipped(500), 22, 2025L);
        assertThat(sample).hasSize(22).doesNotHaveDuplicates();
        List<List<String>> rows = readRaw(audit);
        assertThat(rows.get(0)).isEqualTo(AuditFile.HEADER);
        assertThat(rows).hasSize(23);
        for (int i = 1; i < rows.size(); i++) {
            assertThat(rows.get(i).get(0)).isEqualTo(sample.get(i - 1).id());
            assertThat(rows.get(i).get(1)).isEqualTo(sample.get(i - 1).content());
            assertThat(rows.get(i).subList(2, 4)).containsExactly("", "");
        }
        // a person fills it in: 19 ok (in various spellings), 1 defective with a note, 2 left empty
        List<String> okSpellings = List.of("ok", "OK", " Ok ", "oK");
        for (int i = 1; i < rows.size(); i++) {
            List<String> row = new ArrayList<>(rows.get(i));
            if (i == 5) {
                row.set(2, " Defective");
                row.set(3, "  states a 3-year warranty, the source says 2  ");
            } else if (i == 7 || i == 8) {
                row.set(2, "   ");
            } else {
                row.set(2, okSpellings.get(i % okSpellings.size()));
            }
            rows.set(i, row);
        }
        Path filled = dir.resolve("filled.csv");
        writeRaw(filled, rows);

        AuditResult r = AuditFile.read(filled, sample.stream().map(ShippedItem::id).toList());
        assertThat(r.rows()).isEqualTo(22);
        assertThat(r.notAudited()).isEqualTo(2);
        assertThat(r.audited()).isEqualTo(20);
        assertThat(r.defective()).isEqualTo(1);
        assertThat(r.escapeRate().getAsDouble()).isCloseTo(0.05, within(1e-12));
        ConfidenceInterval ci = r.interval().orElseThrow();
        assertThat(ci.lower()).isCloseTo(0.0013, within(5e-5));
        assertThat(ci.upper()).isCloseTo(0.2487, within(5e-5));
        AuditedItem bad = r.items().stream().filter(i -> i.verdict() == Verdict.DEFECTIVE).findFirst().orElseThrow();
        assertThat(bad.itemId()).isEqualTo(sample.get(4).id());
        assertThat(bad.line()).isEqualTo(6);
        assertThat(bad.note()).isEqualTo("states a 3-year warranty, the source says 2");
    }

    @Test
    void nothingAuditedHasNoRate() throws Exception {
        Path audit = dir.resolve("audit.csv");
        List<ShippedItem> sample = AuditFile.write(audit, shipped(5), 20, 1L);
        assertThat(sample).isEqualTo(shipped(5)); // fewer shipped than the size: all of them, in order
        AuditResult r = AuditFile.read(audit, sample.stream().map(ShippedItem::id).toList());
        assertThat(r.rows()).isEqualTo(5);
        assertThat(r.audited()).isZero();
        assertThat(r.escapeRate()).isEmpty();
        assertThat(r.interval()).isEmpty();
    }

    @Test
    void sampleIsSeededAndUniform() throws Exception {
        AuditFile.Reservoir a = new AuditFile.Reservoir(20, 9L);
        AuditFile.Reservoir b = new AuditFile.Reservoir(20, 9L);
        AuditFile.Reservoir c = new AuditFile.Reservoir(20, 10L);
        for (ShippedItem i : shipped(1000)) {
            a.offer(i);
            b.offer(i);
            c.offer(i);
        }
        assertThat(a.sample()).isEqualTo(b.sample()).isNotEqualTo(c.sample());
        assertThat(a.offered()).isEqualTo(1000);
        // each of 10 items kept with probability 3/10 over many seeds
        int[] hits = new int[10];
        for (long seed = 0; seed < 10_000; seed++) {
            AuditFile.Reservoir r = new AuditFile.Reservoir(3, seed);
            shipped(10).forEach(r::offer);
            r.sample().forEach(s -> hits[Integer.parseInt(s.id().substring(1))]++);
        }
        for (int h : hits) {
            assertThat(h).isBetween(2800, 3200);
        }
    }

    @Test
    void formulaLikeCellsAreNeutralisedAndIdsStillMatch() throws Exception {
        List<ShippedItem> items = List.of(
                new ShippedItem("=7", "=HYPERLINK(\"http://x\")"),
                new ShippedItem("P1", "+1 more"),
                new ShippedItem("P2", "-20 % off"),
                new ShippedItem("P3", "@mention"),
                new ShippedItem("P4", "\ttabbed"),
                new ShippedItem("P5", "\rreturn"),
                new ShippedItem("P6", "plain, 'quoted' text"));
        Path audit = dir.resolve("audit.csv");
        AuditFile.write(audit, items);
        List<List<String>> rows = readRaw(audit);
        assertThat(rows.subList(1, rows.size())).extracting(r -> r.get(0))
                .containsExactly("'=7", "P1", "P2", "P3", "P4", "P5", "P6");
        assertThat(rows.subList(1, rows.size())).extracting(r -> r.get(1)).containsExactly(
                "'=HYPERLINK(\"http://x\")", "'+1 more", "'-20 % off", "'@mention", "'\ttabbed", "'\rreturn",
                "plain, 'quoted' text");

        rows.get(1).set(2, "defective");
        writeRaw(dir.resolve("filled.csv"), rows);
        AuditResult r = AuditFile.read(dir.resolve("filled.csv"), items.stream().map(ShippedItem::id).toList());
        assertThat(r.items()).singleElement().satisfies(i -> assertThat(i.itemId()).isEqualTo("=7"));
    }

    static List<Problem> problems(Path file, List<String> ids) {
        try {
            AuditFile.read(file, ids);
        } catch (AuditFileException e) {
            return e.problems();
        } catch (Exception e) {
            throw new AssertionError(e);
        }
        throw new AssertionError("no error");
    }

    static final List<String> IDS = List.of("A1", "A2", "A3");

    @Test
    void unknownVerdictNamesItsLine() throws Exception {
        Path f = file("f.csv", "item_id,content,verdict,note\r\nA1,x,ok,\r\nA2,\"two\nlines\",maybe,\r\nA3,x,,\r\n");
        assertThat(problems(f, IDS)).containsExactly(
                new Problem(3, "unknown verdict 'maybe' (expected ok or defective, or empty for not audited)"));
        assertThatThrownBy(() -> AuditFile.read(f, IDS)).hasMessageContaining("f.csv: line 3: unknown verdict 'maybe'");
    }

    @Test
    void unknownItemIdNamesItsLine() throws Exception {
        // the content of A1 spans lines 2-3, so B9 starts on line 4
        Path f = file("f.csv", "item_id,content,verdict,note\nA1,\"one\ntwo\",ok,\nB9,x,ok,\n");
        assertThat(problems(f, IDS)).containsExactly(
                new Problem(4, "unknown item id 'B9' (not in this run's audit.csv or escalations.csv)"));
    }

    @Test
    void missingColumnNamesItsLine() throws Exception {
        Path noVerdict = file("a.csv", "item_id,content,note\nA1,x,\n");
        assertThat(problems(noVerdict, IDS)).containsExactly(new Problem(1, "missing column 'verdict'"));
        Path noId = file("b.csv", "\n\nid,content,verdict\nA1,x,ok\n");
        assertThat(problems(noId, IDS)).containsExactly(new Problem(3, "missing column 'item_id'"));
        Path shortRow = file("c.csv", "item_id,content,verdict,note\nA1,x,ok,\nA2,x\n");
        assertThat(problems(shortRow, IDS)).containsExactly(
                new Problem(3, "missing column 'verdict' (the row has 2 fields)"));
        Path empty = file("d.csv", "");
        assertThat(problems(empty, IDS)).containsExactly(new Problem(1, "empty file: no header"));
    }

    @Test
    void duplicateRowNamesBothLines() throws Exception {
        Path f = file("f.csv", "item_id,content,verdict,note\nA1,x,ok,\nA2,x,ok,\n A1 ,x,defective,\n");
        assertThat(problems(f, IDS)).containsExactly(
                new Problem(4, "duplicate row for item 'A1' (first at line 2)"));
    }

    @Test
    void collectsEveryProblemAndToleratesSpreadsheetHabits() throws Exception {
        Path bad = file("f.csv", "item_id,content,verdict,note\nZ1,x,ok,\nA1,x,nope,\n");
        assertThat(problems(bad, IDS)).extracting(Problem::line).containsExactly(2L, 3L);
        // BOM, reordered and upper-case headers, no note column, blank lines, CRLF
        Path ok = file("g.csv", "\uFEFFVerdict , Item_ID\r\n\r\nDEFECTIVE,A2\r\nok,A1\r\n,,\r\n");
        AuditResult r = AuditFile.read(ok, IDS);
        assertThat(r.audited()).isEqualTo(2);
        assertThat(r.defective()).isEqualTo(1);
        assertThat(r.items()).extracting(AuditedItem::itemId).containsExactly("A2", "A1");
        assertThat(r.items().get(0).line()).isEqualTo(3);
        assertThat(r.items().get(0).note()).isEmpty();
        // not UTF-8 (a spreadsheet's Windows-1252 save)
        Path latin = dir.resolve("h.csv");
        Files.write(latin, "item_id,content,verdict,note\nA1,caf\u00e9,ok,\n".getBytes(StandardCharsets.ISO_8859_1));
        assertThat(problems(latin, IDS)).containsExactly(
                new Problem(2, "not valid UTF-8 (save the file as UTF-8 CSV)"));
    }
}
