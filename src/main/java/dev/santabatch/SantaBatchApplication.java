package dev.santabatch;

import dev.santabatch.cli.Cli;
import dev.santabatch.loop.LoopStore;
import dev.santabatch.store.Store;
import javax.sql.DataSource;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;

/**
 * The base application context: the store and Spring Batch's JDBC job repository and job operator
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
        Store store = new Store(dataSource);
        store.createSchema();
        new LoopStore(store.jdbc()).createSchema();
        new dev.santabatch.loop.SpendStore(store.jdbc()).createSchema();
        new dev.santabatch.loop.LearnedRuleStore(store.jdbc()).createSchema();
        new dev.santabatch.carry.CarryStore(store.jdbc()).createSchema();
        new dev.santabatch.history.RunSummaryStore(store.jdbc()).createSchema();
        new dev.santabatch.plan.PlanStore(store).createSchema();
        return store;
    }
}
