package dev.santabatch.batchfix;

import dev.santabatch.review.offline.StoreSnapshot;
import com.zaxxer.hikari.HikariDataSource;
import dev.santabatch.config.JobDefinition;
import dev.santabatch.config.JobFileLoader;
import dev.santabatch.review.offline.SnapshotItem;
import dev.santabatch.config.SourceFields;
import dev.santabatch.rounds.LoopStore;
import dev.santabatch.persistence.Store;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The batch fix's offline narrowing checks side by side: the round's source vectors read once in
 * pages ({@link OfflineNarrowingChecks}) against one query per item and per neighbour (as before),
 * alternately, on the store of a {@code LoopBenchmark --model} run (a copy: its round-1 indexes are
 * found stored, nothing is embedded). Not a test: prints each pass's seconds, the medians, and
 * whether both give the same flags. In package {@code loop} for the switch it flips. An untimed pass
 * first warms the store's cache.
 *
 * <p>Arguments: the run's folder ({@code .../model-N/sampled}, holding {@code job.yml} and
 * {@code db/santa.mv.db}, copied while no process has it open), how many of the round's unsampled
 * items to check, passes per way (default 3).
 */
public final class NarrowingChecksBenchmark {

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        int limit = Integer.parseInt(args[1]);
        int passes = args.length > 2 ? Integer.parseInt(args[2]) : 3;
        // pooled, as in a run (a connection per statement would also close and compact the file each time)
        HikariDataSource ds = new HikariDataSource();
        ds.setJdbcUrl("jdbc:h2:file:" + dir.resolve("db/santa").toAbsolutePath() + ";DB_CLOSE_ON_EXIT=FALSE");
        ds.setUsername("sa");
        JdbcTemplate jdbc = new JdbcTemplate(ds);
        long runPk = jdbc.queryForObject("SELECT MIN(run_pk) FROM sm_round WHERE round = 1", Long.class);
        JobDefinition job = JobFileLoader.load(dir.resolve("job.yml"));
        List<String> header;
        try (CSVParser p = CSVFormat.DEFAULT.builder().setHeader().get().parse(Files.newBufferedReader(job.input().path()))) {
            header = p.getHeaderNames();
        }
        StoreSnapshot snapshot = new StoreSnapshot(new Store(ds), runPk, 1, new SourceFields(job, header),
                header.indexOf(job.input().categoryColumn()));
        Set<String> sampled = new HashSet<>();
        new LoopStore(jdbc).sample(runPk, 1).forEach(s -> sampled.add(s.itemId()));
        List<SnapshotItem> items = new ArrayList<>();
        snapshot.forEach(it -> {
            if (items.size() < limit && !sampled.contains(it.id())) {
                items.add(it);
            }
        });
        Set<String> criteria = Set.of("on-specification", "original");
        OfflineNarrowingChecks checks = new OfflineNarrowingChecks(job, ds, Runnable::run);
        checks.check(snapshot, items, criteria); // untimed: prepares both indexes (found stored) and warms the store's cache
        System.out.printf("run %d, round 1 (%,d items), %,d unsampled items checked per pass, %d passes per way%n", runPk,
                snapshot.size(), items.size(), passes);
        double[][] seconds = new double[2][passes];
        PatternNarrowing.Offline[] flags = new PatternNarrowing.Offline[2];
        for (int p = 0; p < passes; p++) {
            for (int way = 0; way < 2; way++) {
                checks.sourcesReadOnce = way == 1;
                long t0 = System.nanoTime();
                flags[way] = checks.check(snapshot, items, criteria);
                seconds[way][p] = (System.nanoTime() - t0) / 1e9;
                System.out.printf(Locale.ROOT, "  pass %d %-28s %8.1f s (%.1f items/s)%n", p + 1,
                        way == 1 ? "source vectors read once" : "one query per source vector", seconds[way][p],
                        items.size() / seconds[way][p]);
            }
            System.out.println("  same flags both ways: " + flags[0].equals(flags[1]));
        }
        System.out.printf(Locale.ROOT, "median: one query per source vector %.1f s, read once %.1f s%n", median(seconds[0]),
                median(seconds[1]));
    }

    private static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }

    private NarrowingChecksBenchmark() {}
}
