package dev.santabatch.prepass;

import dev.santabatch.persistence.Store;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.springframework.batch.infrastructure.item.ExecutionContext;
import org.springframework.batch.infrastructure.item.ItemStreamReader;

/**
 * Reads a run's items in input order, a page at a time, keyed by record index so that a restart
 * resumes after the last committed chunk without rereading or skipping. Each page may be mapped as a
 * whole (one lookup per page, not per item) to what the step processes. Not thread-safe.
 *
 * @param <T> what the step processes of an item
 */
public final class StoreItemReader<T> implements ItemStreamReader<T> {

    private final Store store;
    private final long runPk;
    private final int pageSize;
    private final String key;
    private final Function<List<Store.StoredItem>, List<T>> pages;
    private final Deque<Store.StoredItem> page = new ArrayDeque<>();
    private final Deque<T> mapped = new ArrayDeque<>();
    private long lastRead = -1;
    private long lastFetched = -1;
    private boolean exhausted;

    /**
     * @param pages maps a page of items to one value each, in order
     */
    public StoreItemReader(Store store, long runPk, int pageSize, String name, Function<List<Store.StoredItem>, List<T>> pages) {
        this.store = store;
        this.runPk = runPk;
        this.pageSize = pageSize;
        this.key = name + ".last-record-index";
        this.pages = pages;
    }

    /** A reader of the items themselves. */
    public static StoreItemReader<Store.StoredItem> of(Store store, long runPk, int pageSize, String name) {
        return new StoreItemReader<>(store, runPk, pageSize, name, p -> p);
    }

    @Override
    public void open(ExecutionContext ctx) {
        lastRead = ctx.containsKey(key) ? ctx.getLong(key) : -1;
        lastFetched = lastRead;
        page.clear();
        mapped.clear();
        exhausted = false;
    }

    @Override
    public @Nullable T read() {
        if (page.isEmpty() && !exhausted) {
            var next = store.itemsAfter(runPk, lastFetched, pageSize);
            if (next.isEmpty()) {
                exhausted = true;
            } else {
                List<T> values = pages.apply(next);
                if (values.size() != next.size()) {
                    throw new IllegalStateException("a page of " + next.size() + " items was mapped to " + values.size());
                }
                page.addAll(next);
                mapped.addAll(values);
                lastFetched = next.get(next.size() - 1).recordIndex();
            }
        }
        Store.StoredItem item = page.poll();
        if (item == null) {
            return null;
        }
        lastRead = item.recordIndex();
        return mapped.poll();
    }

    @Override
    public void update(ExecutionContext ctx) {
        ctx.putLong(key, lastRead);
    }
}
