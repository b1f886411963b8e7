package dev.santabatch.run;

import dev.santabatch.catalog.CatalogItemReader;
import dev.santabatch.catalog.CatalogRecord;
import dev.santabatch.prepass.PrePass;
import dev.santabatch.prepass.StoreItemReader;
import dev.santabatch.store.Store;
import org.springframework.batch.core.job.Job;
import org.springframework.batch.core.job.builder.JobBuilder;
import org.springframework.batch.core.repository.JobRepository;
import org.springframework.batch.core.step.Step;
import org.springframework.batch.core.step.builder.StepBuilder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.transaction.PlatformTransactionManager;

/**
 * The santa-batch job, top to bottom: ingest, the rules pre-pass, export. Registered only for an invocation that
 * runs a job ({@code run}, {@code restart}); the {@link RunContext} bean is supplied by the caller.
 */
@Configuration(proxyBeanMethods = false)
public class SantaJobConfiguration {

    static final String INGEST = "ingest";
    static final String PREPASS = "pre-pass";
    static final String EXPORT = "export";

    @Bean
    Job santaJob(JobRepository jobRepository, RunContext run, Step ingestStep, Step prePassStep, Step exportStep) {
        return new JobBuilder(run.job().name(), jobRepository)
                .start(ingestStep)
                .next(prePassStep)
                .next(exportStep)
                .build();
    }

    @Bean
    Step ingestStep(JobRepository jobRepository, PlatformTransactionManager tm, RunContext run, Store store) {
        CatalogItemReader reader =
                new CatalogItemReader(run.input(), run.job().input(), CatalogItemReader.DEFAULT_PREFIX);
        return new StepBuilder(INGEST, jobRepository)
                .<CatalogRecord, CatalogRecord>chunk(run.job().run().chunkSize())
                .transactionManager(tm)
                .reader(reader)
                .writer(new IngestWriter(store, run.runPk(), categoryIndex(run)))
                .interruptionPolicy(new StopAwareInterruptionPolicy())
                .listener(new ProgressListener(INGEST, store, run.runPk()))
                .build();
    }

    @Bean
    Step prePassStep(JobRepository jobRepository, PlatformTransactionManager tm, RunContext run, Store store) {
        PrePass prePass = new PrePass(run.job(), run.header(), store, run.runPk());
        return new StepBuilder(PREPASS, jobRepository)
                .<Store.StoredItem, PrePass.Checked>chunk(run.job().run().chunkSize())
                .transactionManager(tm)
                .reader(new StoreItemReader(store, run.runPk(), run.job().run().chunkSize(), PREPASS))
                .processor(prePass)
                .writer(prePass)
                .interruptionPolicy(new StopAwareInterruptionPolicy())
                .listener(new ProgressListener(PREPASS, store, run.runPk()))
                .build();
    }

    private static int categoryIndex(RunContext run) {
        String category = run.job().input().categoryColumn();
        return category == null ? -1 : run.column(category);
    }

    @Bean
    Step exportStep(JobRepository jobRepository, PlatformTransactionManager tm, RunContext run, Store store) {
        return new StepBuilder(EXPORT, jobRepository)
                .tasklet(new ExportTasklet(store, run), tm)
                .allowStartIfComplete(true)
                .build();
    }
}
