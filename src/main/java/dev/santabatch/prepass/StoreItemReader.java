package dev.santabatch.prepass;

import dev.santabatch.store.Store;
import java.util.ArrayDeque;
import java.util.Deque;
import org.jspecify.annotations.Nullable;
import org.springframework.batch.infrastructure.item.ExecutionContext;
import org.springframework.batch.infrastructure.item.ItemStreamReader;

/**
 * Reads a run's items in input order, a page at a time, keyed by record index so that a restart
 * resumes after the last committed chunk without rereading or skipping. Not thread-safe.
 */
public final class StoreItemReader implements ItemStreamReader<Store.StoredItem> {

    private final Store store;
    private final long runPk;
    private final int pageSize;
    private final String key;
    private final Deque<Store.StoredItem> page = new ArrayDeque<>();
    private long lastRead = -1;
    private long lastFetched = -1;
    private boolean exhausted;

    public StoreItemReader(Store store, long runPk, int pageSize, String name) {
        this.store = store;
        this.runPk = runPk;
        this.pageSize = pageSize;
        this.key = name + ".last-record-index";
    }

    @Override
    public void open(ExecutionContext ctx) {
        lastRead = ctx.containsKey(key) ? ctx.getLong(key) : -1;
        lastFetched = lastRead;
        page.clear();
        exhausted = false;
    }

    @Override
    public Store.@Nullable StoredItem read() {
        if (page.isEmpty() && !exhausted) {
            var next = store.itemsAfter(runPk, lastFetched, pageSize);
            if (next.isEmpty()) {
                exhausted = true;
            } else {
                page.addAll(next);
                lastFetched = next.get(next.size() - 1).recordIndex();
            }
        }
        Store.StoredItem item = page.poll();
        if (item != null) {
            lastRead = item.recordIndex();
        }
        return item;
    }

    @Override
    public void update(ExecutionContext ctx) {
        ctx.putLong(key, lastRead);
    }
}
