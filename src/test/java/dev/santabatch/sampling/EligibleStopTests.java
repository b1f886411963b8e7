package dev.santabatch.sampling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.santabatch.execution.PreparationStoppedException;
import dev.santabatch.persistence.Store;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.springframework.batch.core.job.JobInterruptedException;

/**
 * A stop requested while sample walks the eligible items (its two scans, {@link Eligible#forEach})
 * ends the scan before the next page, as a stop (the step ends STOPPED); a restart's scan offers the
 * same items in the same order as an uninterrupted one, so the same sample is drawn.
 */
class EligibleStopTests {

    static final int PAGE = 3;
    static final int ITEMS = 10;

    /** Pages of {@value #PAGE} items out of {@value #ITEMS}, record indexes 0.., every third one covered. */
    static List<Store.EligibleItem> pageAfter(long after, AtomicInteger fetched) {
        fetched.incrementAndGet();
        return LongStream.range(after + 1, Math.min(ITEMS, after + 1 + PAGE))
                .mapToObj(i -> new Store.EligibleItem(new Store.StoredItem("i" + i, i, i + 2, "", "NEW", 0, null),
                        i % 2 == 0 ? "even" : "odd", false))
                .toList();
    }

    static Set<String> covered(long after, long last) {
        Set<String> s = new java.util.HashSet<>();
        for (long i = after + 1; i <= last; i++) {
            if (i % 3 == 0) {
                s.add("i" + i);
            }
        }
        return s;
    }

    static List<String> scan(java.util.function.BooleanSupplier stop, java.util.function.Consumer<String> onItem,
            AtomicInteger fetched) {
        List<String> seen = new ArrayList<>();
        Eligible.forEach(after -> pageAfter(after, fetched), EligibleStopTests::covered, stop, "sample, round 1: counting",
                (item, key, isCovered) -> {
                    seen.add(item.id() + "/" + Eligible.label(key) + "/" + isCovered);
                    onItem.accept(item.id());
                });
        return seen;
    }

    @Test
    void aStopDuringTheScanEndsItBeforeTheNextPageAndARestartScansTheSameItems() {
        // given the items an uninterrupted scan offers
        List<String> reference = scan(() -> false, id -> {}, new AtomicInteger());
        assertThat(reference).hasSize(ITEMS);

        // when a stop is requested while the first page's second item is handled
        AtomicBoolean stop = new AtomicBoolean();
        AtomicInteger fetched = new AtomicInteger();
        List<String> partial = new ArrayList<>();

        // then the scan ends as a stop after that page, without reading another
        assertThatThrownBy(() -> partial.addAll(scan(stop::get, id -> {
            if (id.equals("i1")) {
                stop.set(true);
            }
        }, fetched)))
                .isInstanceOf(PreparationStoppedException.class)
                .hasMessageContaining("sample, round 1: counting: " + PAGE + " eligible items scanned")
                .hasCauseInstanceOf(JobInterruptedException.class);
        assertThat(fetched).as("pages read").hasValue(1);

        // and a restart (the flag reset) scans every item as the uninterrupted scan did
        assertThat(scan(() -> false, id -> {}, new AtomicInteger())).isEqualTo(reference);
    }

    @Test
    void aStopRequestedBeforeTheScanReadsNoPage() {
        AtomicInteger fetched = new AtomicInteger();
        assertThatThrownBy(() -> scan(() -> true, id -> {}, fetched)).isInstanceOf(PreparationStoppedException.class);
        assertThat(fetched).hasValue(0);
    }
}
