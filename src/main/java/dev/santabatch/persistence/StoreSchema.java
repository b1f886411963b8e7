package dev.santabatch.persistence;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Collections;
import java.util.Set;
import java.util.WeakHashMap;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.springframework.core.io.ClassPathResource;
import org.springframework.jdbc.datasource.init.ResourceDatabasePopulator;

/**
 * The store's schema: Flyway migrations under {@code db/migration}, one set for H2 and PostgreSQL
 * (docs/store-schema.md). Spring Batch's own tables are not among them.
 *
 * <p>A store written before versioned migrations (its tables present, no
 * {@code flyway_schema_history}) is first brought up to version 1 by {@code db/previous/catch-up.sql}
 * and version 1's idempotent script, then baselined at version 1; later migrations run on it as on
 * any store. Any other store without a history (empty, or holding Spring Batch's tables only) is
 * migrated from version 1.
 */
public final class StoreSchema {

    /** The version a store written before versioned migrations is baselined at. */
    public static final String PREVIOUS_BASELINE = "1";

    private static final String LOCATION = "classpath:db/migration";

    /** DataSources migrated by this process: {@link #migrate} runs Flyway once per DataSource. */
    private static final Set<DataSource> MIGRATED = Collections.newSetFromMap(new WeakHashMap<>());

    private StoreSchema() {}

    /**
     * Migrates the store to the newest version, once per DataSource in this process (a later call
     * returns at once): called where a store is opened, and by the stores a test builds on a fresh
     * database.
     */
    public static synchronized void migrate(DataSource dataSource) {
        if (MIGRATED.contains(dataSource)) {
            return;
        }
        Flyway flyway = Flyway.configure()
                .dataSource(dataSource)
                .locations(LOCATION)
                .baselineVersion(PREVIOUS_BASELINE)
                .baselineDescription("store written before versioned migrations")
                .load();
        if (writtenBeforeMigrations(dataSource)) {
            ResourceDatabasePopulator catchUp = new ResourceDatabasePopulator(
                    new ClassPathResource("db/previous/catch-up.sql"),
                    new ClassPathResource("db/migration/V1__store_schema.sql"));
            catchUp.execute(dataSource);
            flyway.baseline();
            flyway.migrate();
        } else {
            // a store holding Spring Batch's tables only is not empty to Flyway: it is baselined
            // below version 1, which then runs
            Flyway.configure().configuration(flyway.getConfiguration())
                    .baselineOnMigrate(true)
                    .baselineVersion("0")
                    .baselineDescription("store without santa-batch tables")
                    .load()
                    .migrate();
        }
        MIGRATED.add(dataSource);
    }

    /** Whether the store has the run table but no migration history. */
    private static boolean writtenBeforeMigrations(DataSource dataSource) {
        try (Connection c = dataSource.getConnection()) {
            return hasTable(c, "sb_run") && !hasTable(c, "flyway_schema_history");
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read the store's tables: " + e.getMessage(), e);
        }
    }

    private static boolean hasTable(Connection c, String name) throws SQLException {
        DatabaseMetaData meta = c.getMetaData();
        for (String n : new String[] {name, name.toUpperCase(java.util.Locale.ROOT)}) {
            try (ResultSet rs = meta.getTables(c.getCatalog(), c.getSchema(), n, new String[] {"TABLE"})) {
                if (rs.next()) {
                    return true;
                }
            }
        }
        return false;
    }
}
