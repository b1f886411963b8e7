package dev.santabatch.ingest;

import dev.santabatch.config.InputSpec;
import java.io.IOException;
import java.nio.file.Path;
import org.jspecify.annotations.Nullable;
import org.springframework.batch.infrastructure.item.ExecutionContext;
import org.springframework.batch.infrastructure.item.ItemStreamException;
import org.springframework.batch.infrastructure.item.ItemStreamReader;

/**
 * Spring Batch reader over a {@link CatalogReader}: every data record, row or reject, is one item.
 *
 * <p>{@link #update} saves the position after the last record returned under {@code
 * catalog.reader.offset}, {@code .line} and {@code .index} (the prefix can be changed); {@link
 * #open} resumes from them when present, so a restarted step skips the committed records without
 * rereading them. <strong>Not thread-safe</strong>: use it from one thread (wrap it in a {@code
 * SynchronizedItemStreamReader} for a multi-threaded step, which then loses exact restart).
 */
public final class CatalogItemReader implements ItemStreamReader<CatalogRecord> {

    /** Default prefix of the execution context keys. */
    public static final String DEFAULT_PREFIX = "catalog.reader.";

    private final Path file;
    private final InputSpec spec;
    private final String prefix;
    private @Nullable CatalogReader reader;

    public CatalogItemReader(InputSpec spec) {
        this(spec.path(), spec, DEFAULT_PREFIX);
    }

    public CatalogItemReader(Path file, InputSpec spec, String keyPrefix) {
        this.file = file;
        this.spec = spec;
        this.prefix = keyPrefix;
    }

    String offsetKey() {
        return prefix + "offset";
    }

    String lineKey() {
        return prefix + "line";
    }

    String indexKey() {
        return prefix + "index";
    }

    @Override
    public void open(ExecutionContext ctx) throws ItemStreamException {
        close();
        CatalogPosition from = null;
        if (ctx.containsKey(offsetKey())) {
            from = new CatalogPosition(ctx.getLong(offsetKey()), ctx.getLong(lineKey()), ctx.getLong(indexKey()));
        }
        try {
            reader = CatalogReader.open(file, spec, from);
        } catch (CatalogException e) {
            throw new ItemStreamException(e.getMessage(), e);
        }
    }

    @Override
    public @Nullable CatalogRecord read() throws IOException {
        if (reader == null) {
            throw new IllegalStateException("CatalogItemReader for " + file + " is not open");
        }
        return reader.next();
    }

    @Override
    public void update(ExecutionContext ctx) throws ItemStreamException {
        if (reader != null) {
            CatalogPosition p = reader.position();
            ctx.putLong(offsetKey(), p.byteOffset());
            ctx.putLong(lineKey(), p.nextLine());
            ctx.putLong(indexKey(), p.nextRecordIndex());
        }
    }

    /** The header of the open file. */
    public java.util.List<String> header() {
        if (reader == null) {
            throw new IllegalStateException("CatalogItemReader for " + file + " is not open");
        }
        return reader.header();
    }

    @Override
    public void close() throws ItemStreamException {
        if (reader != null) {
            try {
                reader.close();
            } catch (IOException e) {
                throw new ItemStreamException("cannot close " + file, e);
            } finally {
                reader = null;
            }
        }
    }
}
