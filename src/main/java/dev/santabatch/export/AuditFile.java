package dev.santabatch.export;

import dev.santabatch.ingest.CatalogCsvWriter;
import dev.santabatch.ingest.CsvRecordSplitter;
import dev.santabatch.ingest.CsvFields;
import dev.santabatch.ingest.CsvRecordSplitter.RawRecord;
import dev.santabatch.export.AuditFileException.Problem;
import dev.santabatch.stats.ClopperPearson;
import dev.santabatch.stats.ConfidenceInterval;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Random;
import org.jspecify.annotations.Nullable;

/**
 * {@code audit.csv}: the human spot-check of shipped items, and its filled-in copy handed back.
 *
 * <h2>Writing</h2>
 *
 * <p>A seeded random sample of the shipped items (the rows of catalog.csv; size from the job file,
 * default 20), drawn in one pass with reservoir sampling (Algorithm R: the i-th item offered, 0-based,
 * replaces a random kept one with probability size/(i+1)), so memory holds only {@code size}
 * items whatever the catalog's size. A {@link java.util.Random} seeded from the given seed (scrambled by SplitMix64) makes
 * the draw reproducible for the same items in the same order. Rows keep the offer order.
 *
 * <p>Columns {@code item_id,content,verdict,note}, verdict and note empty. Written with {@link
 * CatalogCsvWriter#neutralising}: a cell starting with {@code =}, {@code +}, {@code -}, {@code @},
 * TAB or CR gets a leading {@code '} so a spreadsheet does not run it as a formula (item ids too).
 *
 * <h2>Reading a filled-in copy</h2>
 *
 * <ul>
 *   <li>UTF-8 (a BOM is skipped), comma-separated, RFC 4180 quoting; the first non-empty record is
 *       the header. Columns are found by name (trimmed, case-insensitive) in any order; {@code
 *       item_id} and {@code verdict} are required, {@code note} is optional, others (content) are
 *       ignored.
 *   <li>{@code verdict}, trimmed and case-insensitive: {@code ok} or {@code defective}; empty means
 *       "not audited" and the row is excluded from the rate.
 *   <li>{@code item_id}, trimmed, must be an id of this run's audit sample or of its held items ({@code sampleIds});
 *       the neutralised form written to the file ({@code '=7} for {@code =7}) is accepted too, an
 *       exact id taking precedence.
 *   <li>Errors, all collected and each naming the line where its record starts: missing column
 *       (in the header, or a row with too few fields), unknown verdict, unknown item id,
 *       duplicate row (an item id on two rows), invalid UTF-8, broken quoting. Wholly empty rows
 *       are skipped.
 * </ul>
 *
 * <p>The result: audited = rows with a verdict, defective = rows marked defective, escape rate =
 * defective / audited with its 95 % Clopper-Pearson interval (both absent when nothing was audited).
 */
public final class AuditFile {

    public static final List<String> HEADER = List.of("item_id", "content", "verdict", "note");
    public static final int DEFAULT_SIZE = 20;

    private static final int MAX_PROBLEMS = 100;

    /**
     * A shipped item offered to the audit sample.
     *
     * @param id the item id
     * @param content the shipped text
     */
    public record ShippedItem(String id, String content) {
        public ShippedItem {
            Objects.requireNonNull(id, "id");
            Objects.requireNonNull(content, "content");
        }
    }

    /** A person's verdict on a shipped item. */
    public enum Verdict {
        OK,
        DEFECTIVE
    }

    /**
     * One audited row.
     *
     * @param line the line where the row starts
     * @param itemId the item (as in the sample, not neutralised)
     * @param verdict ok or defective
     * @param note the note, trimmed; empty when none
     */
    public record AuditedItem(long line, String itemId, Verdict verdict, String note) {}

    /**
     * A filled-in audit file.
     *
     * @param rows data rows read (empty rows not counted)
     * @param notAudited rows with an empty verdict, excluded
     * @param audited rows with a verdict
     * @param defective rows marked defective
     * @param items the audited rows, in file order
     */
    public record AuditResult(int rows, int notAudited, int audited, int defective, List<AuditedItem> items) {
        public AuditResult {
            items = List.copyOf(items);
        }

        /** defective / audited; empty when nothing was audited. */
        public OptionalDouble escapeRate() {
            return audited == 0 ? OptionalDouble.empty() : OptionalDouble.of((double) defective / audited);
        }

        /** The 95 % Clopper-Pearson interval of the escape rate; empty when nothing was audited. */
        public Optional<ConfidenceInterval> interval() {
            return audited == 0 ? Optional.empty() : Optional.of(ClopperPearson.interval(defective, audited));
        }
    }

    /**
     * Keeps a seeded uniform random sample of at most {@code size} of the items offered, in O(size)
     * memory. Not thread-safe.
     */
    public static final class Reservoir {
        private record Kept(long index, ShippedItem item) {}

        private final int size;
        private final Random random;
        private final List<Kept> kept;
        private long offered;

        public Reservoir(int size, long seed) {
            if (size < 0) {
                throw new IllegalArgumentException("audit size must be >= 0, was " + size);
            }
            this.size = size;
            this.random = new Random(scramble(seed));
            this.kept = new ArrayList<>(Math.min(size, 10_000));
        }

        /**
         * SplitMix64's finaliser: java.util.Random's first draws are correlated for nearby seeds
         * (1, 2, 3 ...), so the seed is scrambled first.
         */
        private static long scramble(long z) {
            z += 0x9e3779b97f4a7c15L;
            z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
            z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
            return z ^ (z >>> 31);
        }

        public void offer(ShippedItem item) {
            long i = offered++;
            if (i < size) {
                kept.add(new Kept(i, item));
                return;
            }
            if (size == 0) {
                return;
            }
            if (i >= Integer.MAX_VALUE) {
                throw new IllegalStateException("more than " + Integer.MAX_VALUE + " shipped items");
            }
            int j = random.nextInt((int) i + 1);
            if (j < size) {
                kept.set(j, new Kept(i, item));
            }
        }

        public long offered() {
            return offered;
        }

        /** The sample, in offer order. */
        public List<ShippedItem> sample() {
            return kept.stream().sorted(Comparator.comparingLong(Kept::index)).map(Kept::item).toList();
        }
    }

    private AuditFile() {}

    /** Draws the sample from {@code shipped} and writes it; returns the sample. */
    public static List<ShippedItem> write(Path target, Iterable<ShippedItem> shipped, int size, long seed)
            throws IOException {
        Reservoir r = new Reservoir(size, seed);
        shipped.forEach(r::offer);
        List<ShippedItem> sample = r.sample();
        write(target, sample);
        return sample;
    }

    /** Writes {@code sample} to {@code target} (atomically), verdict and note empty, neutralised. */
    public static void write(Path target, List<ShippedItem> sample) throws IOException {
        try (CatalogCsvWriter w = CatalogCsvWriter.neutralising(target, HEADER)) {
            for (ShippedItem item : sample) {
                w.writeRow(item.id(), item.content(), "", "");
            }
            w.commit();
        }
    }

    /**
     * Reads a filled-in audit file.
     *
     * @param filled the file handed back
     * @param sampleIds the item ids of this run's audit sample
     * @throws AuditFileException with every problem found, each naming its line
     */
    public static AuditResult read(Path filled, Collection<String> sampleIds) throws IOException, AuditFileException {
        Map<String, String> idByCell = new HashMap<>();
        for (String id : sampleIds) {
            idByCell.putIfAbsent(CatalogCsvWriter.neutralise(id), id);
        }
        for (String id : sampleIds) {
            idByCell.put(id, id); // an exact id wins over another id's neutralised form
        }
        List<Problem> problems = new ArrayList<>();
        Map<String, Long> firstLine = new HashMap<>();
        List<AuditedItem> items = new ArrayList<>();
        int rows = 0;
        int notAudited = 0;
        int defective = 0;
        try (InputStream in = Files.newInputStream(filled);
                CsvRecordSplitter splitter = new CsvRecordSplitter(in)) {
            CsvFields parser = new CsvFields();
            RawRecord rec = splitter.next();
            if (rec == null) {
                throw new AuditFileException(filled.toString(), List.of(new Problem(1, "empty file: no header")));
            }
            List<String> header = fields(parser, rec, problems);
            if (header == null) {
                throw new AuditFileException(filled.toString(), problems);
            }
            int idCol = -1;
            int verdictCol = -1;
            int noteCol = -1;
            for (int i = 0; i < header.size(); i++) {
                String name = header.get(i).trim().toLowerCase(Locale.ROOT);
                int before = name.equals("item_id") ? idCol : name.equals("verdict") ? verdictCol
                        : name.equals("note") ? noteCol : -1;
                if (before >= 0) {
                    problems.add(new Problem(rec.firstLine(), "duplicate column '" + name + "'"));
                }
                switch (name) {
                    case "item_id" -> idCol = i;
                    case "verdict" -> verdictCol = i;
                    case "note" -> noteCol = i;
                    default -> { }
                }
            }
            if (idCol < 0) {
                problems.add(new Problem(rec.firstLine(), "missing column 'item_id'"));
            }
            if (verdictCol < 0) {
                problems.add(new Problem(rec.firstLine(), "missing column 'verdict'"));
            }
            if (!problems.isEmpty()) {
                throw new AuditFileException(filled.toString(), problems);
            }
            while ((rec = splitter.next()) != null && problems.size() < MAX_PROBLEMS) {
                long line = rec.firstLine();
                List<String> f = fields(parser, rec, problems);
                if (f == null) {
                    continue;
                }
                if (f.stream().allMatch(String::isBlank)) {
                    continue;
                }
                rows++;
                if (f.size() <= idCol) {
                    problems.add(new Problem(line, "missing column 'item_id' (the row has " + f.size() + " fields)"));
                    continue;
                }
                if (f.size() <= verdictCol) {
                    problems.add(new Problem(line, "missing column 'verdict' (the row has " + f.size() + " fields)"));
                    continue;
                }
                String cell = f.get(idCol).trim();
                String id = idByCell.get(cell);
                if (id == null) {
                    problems.add(new Problem(line, "unknown item id '" + cell + "' (not in this run's audit.csv or escalations.csv)"));
                    continue;
                }
                Long seen = firstLine.putIfAbsent(id, line);
                if (seen != null) {
                    problems.add(new Problem(line, "duplicate row for item '" + id + "' (first at line " + seen + ")"));
                    continue;
                }
                String v = f.get(verdictCol).trim().toLowerCase(Locale.ROOT);
                String note = noteCol >= 0 && noteCol < f.size() ? f.get(noteCol).trim() : "";
                switch (v) {
                    case "" -> notAudited++;
                    case "ok" -> items.add(new AuditedItem(line, id, Verdict.OK, note));
                    case "defective" -> {
                        items.add(new AuditedItem(line, id, Verdict.DEFECTIVE, note));
                        defective++;
                    }
                    default -> problems.add(new Problem(line, "unknown verdict '" + f.get(verdictCol).trim()
                            + "' (expected ok or defective, or empty for not audited)"));
                }
            }
        }
        if (!problems.isEmpty()) {
            throw new AuditFileException(filled.toString(), problems);
        }
        return new AuditResult(rows, notAudited, items.size(), defective, items);
    }

    /** The record's fields, or {@code null} after adding a problem. */
    private static @Nullable List<String> fields(CsvFields parser, RawRecord rec, List<Problem> problems) {
        if (rec.unterminatedQuote()) {
            problems.add(new Problem(rec.firstLine(), "unterminated quoted field (lines " + rec.firstLine() + "-"
                    + rec.lastLine() + ")"));
            return null;
        }
        if (rec.truncated()) {
            problems.add(new Problem(rec.firstLine(), "record too long"));
            return null;
        }
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(rec.bytes()))
                    .toString();
        } catch (CharacterCodingException e) {
            problems.add(new Problem(rec.firstLine(), "not valid UTF-8 (save the file as UTF-8 CSV)"));
            return null;
        }
        try {
            return parser.parse(rec, text);
        } catch (IllegalArgumentException e) {
            problems.add(new Problem(rec.firstLine(), e.getMessage()));
            return null;
        }
    }

}
