package dev.santabatch.bench;

import dev.santabatch.config.LexicalThresholds;
import dev.santabatch.config.SemanticSettings;
import dev.santabatch.review.lexical.LexicalIndex;
import dev.santabatch.review.offline.MemorySnapshot;
import dev.santabatch.execution.PreparationStoppedException;
import dev.santabatch.review.offline.StoppingSnapshot;
import dev.santabatch.eval.SampleCatalogGenerator;
import dev.santabatch.review.semantic.Embedder;
import dev.santabatch.review.semantic.SemanticIndex;
import java.io.StringReader;
import java.io.StringWriter;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.h2.jdbcx.JdbcDataSource;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Stop latency of the offline job's round-1 index preparation (issue 15: SIGTERM waited 27 s here):
 * on a generated catalog in an H2 file store, the real embedding model on a pool of one thread per
 * core, the stop flag is set in the middle of each long phase (lexical sketching, semantic
 * embedding, semantic indexing) and the time from the flag to the preparation's end is printed.
 * Target: under 5 s (Kubernetes' default grace period is 30 s). Not a test.
 *
 * <p>Arguments: the catalog size (default 3000) and the delay in seconds (default 2) between the
 * phase's first stored batch and the stop.
 */
public final class PrepareStopBenchmark {

    public static void main(String[] args) throws Exception {
        int rows = args.length > 0 ? Integer.parseInt(args[0]) : 3000;
        double delay = args.length > 1 ? Double.parseDouble(args[1]) : 2;
        int threads = Runtime.getRuntime().availableProcessors();
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        StringWriter csv = new StringWriter();
        SampleCatalogGenerator.write(11L, rows, SampleCatalogGenerator.Vocabulary.HELD_OUT, csv, new StringWriter());
        MemorySnapshot catalog = new MemorySnapshot(1, 1, MemorySnapshot.items(MemorySnapshot.records(new StringReader(csv.toString())),
                "id", "description", MemorySnapshot.PRODUCT_SOURCE));
        Path dir = Files.createTempDirectory("santa-stop-bench");
        System.out.printf(Locale.ROOT, "%d items, %d cores, stop %.1f s into each phase; load %s%n", rows, threads, delay, load());
        Embedder.shared().embed("warm up");

        // lexical sketching (also the shingle counts before it)
        JdbcDataSource lx = h2(dir, "lexical");
        JdbcTemplate lxJdbc = new JdbcTemplate(lx);
        measure("lexical index, sketching", catalog, () -> count(lxJdbc, "lx_round") > 0, delay, s -> new LexicalIndex(lx, LexicalThresholds.defaults()).prepare(s));

        // semantic embedding
        JdbcDataSource sm = h2(dir, "semantic-embed");
        JdbcTemplate smJdbc = new JdbcTemplate(sm);
        measure("semantic index, embedding", catalog, () -> count(smJdbc, "sm_item") > 0, delay,
                s -> new SemanticIndex(sm, Embedder::shared, pool, SemanticSettings.defaults()).prepare(s));

        // semantic indexing: the embedding done first (a stop-free prepare of a store whose round is
        // then unmarked), the flag set once the run's references are frozen
        JdbcDataSource ix = h2(dir, "semantic-index");
        JdbcTemplate jdbc = new JdbcTemplate(ix);
        new SemanticIndex(ix, Embedder::shared, pool, SemanticSettings.defaults()).prepare(catalog);
        jdbc.update("DELETE FROM sm_round");
        jdbc.update("DELETE FROM sm_indexed");
        jdbc.update("DELETE FROM sm_rev_band");
        jdbc.update("DELETE FROM sm_vprobe");
        jdbc.update("DELETE FROM sm_rev_passage");
        jdbc.update("DELETE FROM sm_rev_typical");
        measure("semantic index, indexing", catalog, () -> count(jdbc, "sm_indexed") > 0, delay,
                s -> new SemanticIndex(ix, Embedder::shared, pool, SemanticSettings.defaults()).prepare(s));
        pool.shutdown();
        System.out.printf(Locale.ROOT, "load %s%n", load());
    }

    /** Runs {@code prepare}, sets the stop flag {@code delay} s after {@code ready} turns true, and prints the latency. */
    private static void measure(String what, MemorySnapshot catalog, BooleanSupplier ready, double delay, Consumer<StoppingSnapshot> prepare)
            throws InterruptedException {
        StoppingSnapshot s = StoppingSnapshot.manual(catalog);
        AtomicLong stoppedAt = new AtomicLong();
        Thread stopper = new Thread(() -> {
            try {
                while (!ready.getAsBoolean()) {
                    Thread.sleep(50);
                }
                Thread.sleep((long) (delay * 1000));
            } catch (InterruptedException e) {
                return;
            }
            stoppedAt.set(System.nanoTime());
            s.stop();
        });
        long start = System.nanoTime();
        stopper.start();
        String how;
        try {
            prepare.accept(s);
            how = "completed before the stop";
        } catch (PreparationStoppedException e) {
            how = "stopped: " + e.getMessage();
        }
        long end = System.nanoTime();
        stopper.interrupt();
        stopper.join();
        if (stoppedAt.get() == 0) {
            System.out.printf(Locale.ROOT, "%-28s %s after %.1f s (no stop latency: raise the size)%n", what, how, (end - start) / 1e9);
        } else {
            System.out.printf(Locale.ROOT, "%-28s stop latency %.2f s (%s)%n", what, (end - stoppedAt.get()) / 1e9, how);
        }
    }

    /** Rows of a table, 0 while it does not exist yet. */
    private static long count(JdbcTemplate jdbc, String table) {
        try {
            Long n = jdbc.queryForObject("SELECT COUNT(*) FROM " + table, Long.class);
            return n == null ? 0 : n;
        } catch (RuntimeException notYet) {
            return 0;
        }
    }

    private static JdbcDataSource h2(Path dir, String name) {
        JdbcDataSource ds = new JdbcDataSource();
        ds.setURL("jdbc:h2:file:" + dir.resolve(name + "/santa") + ";AUTO_SERVER=TRUE");
        return ds;
    }

    private static String load() {
        return String.format(Locale.ROOT, "%.1f", ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    }
}
