package dev.santabatch.export;

import dev.santabatch.run.RunFunctionalTests;
import dev.santabatch.run.TestJobs;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.santabatch.execution.RunContext;
import dev.santabatch.execution.StopSignal;
import dev.santabatch.config.JobFileLoader;
import dev.santabatch.execution.PreparationStoppedException;
import dev.santabatch.rounds.LoopStore;
import dev.santabatch.persistence.Store;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.batch.core.job.JobInstance;
import org.springframework.batch.core.job.JobInterruptedException;
import org.springframework.batch.core.repository.JobRepository;
import org.springframework.batch.core.repository.support.JdbcJobRepositoryFactoryBean;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.jdbc.support.JdbcTransactionManager;

/**
 * A stop requested while the export streams the catalog ends it within {@code every} rows, as a stop
 * (the step ends STOPPED), before anything is published: the run's earlier outputs stay as they were;
 * the export run again writes the same outputs.
 */
class ExportStopTests {

    @TempDir
    Path dir;

    @BeforeEach
    void resetStop() {
        StopSignal.reset();
    }

    @Test
    void aStopDuringTheItemsPassLeavesTheEarlierOutputsAndARerunWritesTheSame() throws Exception {
        // given a run of 60 items that completed and exported
        Path catalog = TestJobs.writeCatalog(dir.resolve("in.csv"), TestJobs.rows(60));
        Exported exported = exported(TestJobs.writeJob(dir, "exp", catalog, 7), catalog);

        // when the export runs again and a stop is requested at its first look inside the items pass,
        // then it ends as a stop after 5 rows, not at the end of the pass
        exported.stoppedAtSecondLook("export: items, 5 rows written");
    }

    @Test
    void aStopDuringTheGroundTruthPassEndsItWithinAPage() throws Exception {
        // given a run with a ground truth whose rules pre-pass revised every one of its 60 items
        List<List<String>> rows = TestJobs.rows(60).stream().map(r -> {
            List<String> row = new java.util.ArrayList<>(r);
            row.set(7, row.get(7) + " A miracle.");
            return row;
        }).toList();
        Path catalog = TestJobs.writeCatalog(dir.resolve("in.csv"), rows);
        Path truth = dir.resolve("truth.csv");
        Files.writeString(truth, "id,kind,detail,wrong,truth,group\n" + rows.get(0).get(0) + ",forbidden-term,,miracle,,\n");
        Path job = TestJobs.withClaimRules(TestJobs.writeJob(dir, "exp", catalog, 7));
        Files.writeString(job, Files.readString(job).replace("  category-column: category\n",
                "  category-column: category\n  ground-truth: " + truth.toAbsolutePath() + "\n"));
        Exported exported = exported(job, catalog);
        assertThat(Files.readString(exported.folder().resolve("changes.csv"))).contains("remarkable");

        // when the export runs again and a stop is requested at its first look inside the ground
        // truth's pass over the pre-pass revisions, then it ends there, before the items pass
        exported.stoppedAtSecondLook("export: ground truth, 5 rows read");
    }

    /** A completed run's exported folder and what it takes to run its export again. */
    private record Exported(Store store, LoopStore loop, RunContext run, JobRepository jobs, JobInstance instance,
            Path folder,
            Map<String, String> before) {

        /**
         * The export run again with a stop requested at its second look (one row every 5): it ends as
         * a stop with {@code message}, the published outputs untouched; run once more (the
         * restart), it publishes the same files.
         */
        void stoppedAtSecondLook(String message) throws IOException {
            AtomicInteger looks = new AtomicInteger();
            ExportTasklet stopping = new ExportTasklet(store, loop, run, jobs, () -> looks.incrementAndGet() > 1, 5);
            assertThatThrownBy(() -> stopping.export(instance, null))
                    .isInstanceOf(PreparationStoppedException.class)
                    .hasMessageContaining(message)
                    .hasCauseInstanceOf(JobInterruptedException.class);
            assertThat(looks).hasValue(2);
            assertThat(files(folder)).isEqualTo(before);

            new ExportTasklet(store, loop, run, jobs).export(instance, null);
            Map<String, String> after = files(folder);
            assertThat(after.keySet()).isEqualTo(before.keySet());
            for (String f : List.of("catalog.csv", "unverified.csv", "changes.csv", "escalations.csv", "rejects.csv", "audit.csv")) {
                assertThat(after.get(f)).as(f).isEqualTo(before.get(f));
            }
        }
    }

    /** Runs {@code job} over {@code catalog} to completion as run r1. */
    private Exported exported(Path job, Path catalog) throws Exception {
        Path out = dir.resolve("out");
        RunFunctionalTests.Result done = RunFunctionalTests.cli(TestJobs.h2(dir), "run", job.toString(), "--out",
                out.toString(), "--run-id", "r1");
        assertThat(done.exit()).as(done.out() + done.err()).isZero();
        Path folder = out.resolve("exp/r1");
        Map<String, String> before = files(folder);
        assertThat(before).containsKeys("catalog.csv", "unverified.csv", "changes.csv", "report.json");

        DriverManagerDataSource dataSource = new DriverManagerDataSource(TestJobs.h2Url(dir), "sa", "");
        Store store = new Store(dataSource);
        long runPk = store.jdbc().queryForObject("SELECT run_pk FROM sb_run WHERE run_id = 'r1'", Long.class);
        long seed = store.jdbc().queryForObject("SELECT seed FROM sb_run WHERE run_pk = ?", Long.class, runPk);
        JdbcJobRepositoryFactoryBean factory = new JdbcJobRepositoryFactoryBean();
        factory.setDataSource(dataSource);
        factory.setTransactionManager(new JdbcTransactionManager(dataSource));
        factory.afterPropertiesSet();
        JobRepository jobs = factory.getObject();
        JobInstance instance = jobs.getLastJobInstance(jobs.getJobNames().get(0));
        RunContext run = new RunContext(JobFileLoader.load(job), "r1", runPk, catalog, folder, seed, TestJobs.HEADER,
                List.of());
        return new Exported(store, new LoopStore(store.jdbc()), run, jobs, instance, folder, before);
    }

    private static Map<String, String> files(Path folder) throws IOException {
        Map<String, String> m = new TreeMap<>();
        try (Stream<Path> s = Files.list(folder)) {
            for (Path p : s.toList()) {
                m.put(p.getFileName().toString(), Files.readString(p));
            }
        }
        return m;
    }
}
