package dev.santabatch;

import dev.santabatch.cli.Cli;
import dev.santabatch.review.offline.EmbeddingPool;
import dev.santabatch.persistence.Store;
import dev.santabatch.persistence.StoreSchema;
import javax.sql.DataSource;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;

/**
 * The base application context: the store (migrated to the newest schema as it is opened), the
 * threads the offline reviewers embed on, and Spring Batch's JDBC job repository and job operator
 * (from Boot's auto-configuration). Nothing is component-scanned: a job run adds its job
 * configuration in a child context once the run is known.
 */
@SpringBootConfiguration(proxyBeanMethods = false)
@EnableAutoConfiguration
public class SantaBatchApplication {

    public static void main(String[] args) {
        // an Error escaping a command (outside a run's own handling) is logged before the JVM ends
        dev.santabatch.run.LastResort.install();
        System.exit(Cli.run(args));
    }

    @Bean
    Store store(DataSource dataSource) {
        StoreSchema.migrate(dataSource);
        return new Store(dataSource);
    }

    @Bean
    EmbeddingPool embeddingPool() {
        return new EmbeddingPool();
    }
}
