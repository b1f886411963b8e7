package dev.santabatch.persistence;

import dev.santabatch.batch.BatchFixRerunFunctionalTests;
import dev.santabatch.batch.Extensions;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.santabatch.execution.StopSignal;
import dev.santabatch.run.Launcher;
import dev.santabatch.run.RunRequest;
import dev.santabatch.run.TestJobsAccess;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.core.io.ByteArrayResource;
import org.springframework.core.io.ClassPathResource;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.jdbc.datasource.init.ResourceDatabasePopulator;

/**
 * The store's versioned migrations on H2 and on PostgreSQL: a store written by the version before
 * them ({@code db/previous-version.sql}, the DDL that version's classes ran, recorded from them) is
 * baselined at version 1 and a run it stopped restarts to completion; the schema every kind of store
 * ends with (that one, one of a still older release, a fresh one, one holding Spring Batch's tables
 * only) is the one that version created.
 *
 * <p>PostgreSQL runs when SANTA_TEST_PG_URL (and _USER, _PASSWORD) is set, as {@code .ci/run} does,
 * each store in a schema of its own; under CI=true it must be set.
 */
class StoreMigrationFunctionalTests {

    private static final String PREVIOUS = "db/previous-version.sql";

    @TempDir
    Path dir;

    private final List<String> pgSchemas = new ArrayList<>();

    @BeforeEach
    @AfterEach
    void reset() {
        StopSignal.reset();
    }

    @AfterEach
    void dropSchemas() throws SQLException {
        for (String schema : pgSchemas) {
            try (Connection c = pgAdmin()) {
                c.createStatement().execute("DROP SCHEMA " + schema + " CASCADE");
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"h2", "postgresql"})
    void aStoreOfThePreviousVersionIsBaselinedAndARunItStoppedRestarts(String db) throws Exception {
        // given a store of the previous version holding a run stopped in its first review: the
        // previous version's tables, the run's rows, and no migration history (the run's first
        // session is this version's, whose schema is that one: dropping its history leaves the store
        // as the previous version would have)
        Map<String, Object> props = store(db, "restart");
        DataSource ds = dataSource(props);
        previousVersion(ds, PREVIOUS);
        Path job = new BatchFixRerunFunctionalTests().job(dir.resolve("job"));
        AtomicInteger reviews = new AtomicInteger();
        ByteArrayOutputStream out1 = new ByteArrayOutputStream();
        int first = run(props, job, BatchFixRerunFunctionalTests.extensions(id -> {
            if (reviews.incrementAndGet() == 30) {
                StopSignal.request("test SIGTERM");
            }
        }), out1);
        assertThat(first).as(out1.toString(StandardCharsets.UTF_8)).isEqualTo(1);
        JdbcTemplate jdbc = new JdbcTemplate(ds);
        assertThat(jdbc.queryForList("SELECT status FROM BATCH_JOB_EXECUTION", String.class)).containsExactly("STOPPED");
        jdbc.execute("DROP TABLE \"flyway_schema_history\"");
        Map<String, String> before = schema(ds);

        // when this version opens it and restarts the run
        StopSignal.reset();
        ByteArrayOutputStream out2 = new ByteArrayOutputStream();
        int second = run(props, job, BatchFixRerunFunctionalTests.extensions(id -> {}), out2);

        // then the store was baselined at version 1, its schema unchanged, and the run completed
        String output = out2.toString(StandardCharsets.UTF_8);
        assertThat(second).as(output).isZero();
        assertThat(output).contains("resuming run 'r1'");
        assertThat(history(jdbc)).containsExactly("1 BASELINE");
        assertThat(schema(ds)).isEqualTo(before);
        assertThat(jdbc.queryForList("SELECT status FROM BATCH_JOB_EXECUTION ORDER BY job_execution_id", String.class))
                .containsExactly("STOPPED", "COMPLETED");
        assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM sb_round WHERE decision IS NULL", Integer.class)).isZero();
    }

    @ParameterizedTest
    @ValueSource(strings = {"h2", "postgresql"})
    void everyKindOfStoreEndsWithTheSchemaThePreviousVersionCreated(String db) throws Exception {
        // the previous version's schema, as it created it on a fresh store
        DataSource previous = dataSource(store(db, "previous"));
        previousVersion(previous, PREVIOUS);
        Map<String, String> expected = schema(previous);
        assertThat(expected.keySet()).as("tables and indexes").hasSizeGreaterThan(60);

        // that store, migrated: baselined at 1, nothing changed
        StoreSchema.migrate(previous);
        assertThat(history(new JdbcTemplate(previous))).containsExactly("1 BASELINE");
        assertThat(schema(previous)).isEqualTo(expected);

        // a fresh store: version 1 applied
        DataSource fresh = dataSource(store(db, "fresh"));
        StoreSchema.migrate(fresh);
        assertThat(history(new JdbcTemplate(fresh))).containsExactly("1 SQL");
        assertThat(schema(fresh)).isEqualTo(expected);

        // a store holding Spring Batch's tables only (as Boot creates them before the store is opened)
        DataSource batchOnly = dataSource(store(db, "batch"));
        new ResourceDatabasePopulator(new ClassPathResource("org/springframework/batch/core/schema-" + db + ".sql"))
                .execute(batchOnly);
        StoreSchema.migrate(batchOnly);
        assertThat(history(new JdbcTemplate(batchOnly))).containsExactly("0 BASELINE", "1 SQL");
        assertThat(schema(batchOnly)).isEqualTo(expected);

        // a store of an older release: without the columns added later, with the indexes and the
        // probe table the previous version dropped
        String older = new ClassPathResource(PREVIOUS).getContentAsString(StandardCharsets.UTF_8)
                .replaceAll("(?m)^ALTER TABLE [^;]*;", "")
                .replaceAll("(?m)^DROP [^;]*;", "")
                .replace("CREATE INDEX IF NOT EXISTS sm_rev_band_vid ON sm_rev_band (bucket, run_pk, kind, item_id, rev, seq, vid);",
                        "CREATE INDEX sm_rev_band_lookup ON sm_rev_band (bucket, run_pk);"
                                + " CREATE INDEX sm_vector_item ON sm_vector (item_id, run_pk);"
                                + " CREATE TABLE sm_probe (run_pk BIGINT NOT NULL, q VARCHAR(400));")
                .replace("decision VARCHAR(64),", "decision VARCHAR(16),");
        DataSource old = dataSource(store(db, "older"));
        new ResourceDatabasePopulator(new ByteArrayResource(older.getBytes(StandardCharsets.UTF_8))).execute(old);
        assertThat(schema(old)).isNotEqualTo(expected);
        StoreSchema.migrate(old);
        assertThat(history(new JdbcTemplate(old))).containsExactly("1 BASELINE");
        assertThat(schema(old)).isEqualTo(expected);
    }

    // ---------------------------------------------------------------- stores

    private static void previousVersion(DataSource ds, String script) {
        new ResourceDatabasePopulator(new ClassPathResource(script)).execute(ds);
    }

    private int run(Map<String, Object> props, Path job, Extensions ext, ByteArrayOutputStream out) {
        return Extensions.run(new RunRequest(job, null, dir.resolve("out"), "r1", null), props,
                new PrintStream(out, true, StandardCharsets.UTF_8), System.err, ext);
    }

    /** The migration history: "version type" of its versioned rows, oldest first. */
    private static List<String> history(JdbcTemplate jdbc) {
        return jdbc.queryForList("SELECT \"version\" || ' ' || \"type\" FROM \"flyway_schema_history\""
                + " WHERE \"version\" IS NOT NULL ORDER BY \"installed_rank\"", String.class);
    }

    /** A new empty store: an H2 file under the test's folder, or a schema of its own in PostgreSQL. */
    private Map<String, Object> store(String db, String name) throws SQLException {
        Map<String, Object> p = new HashMap<>(TestJobsAccess.h2(dir.resolve(name)));
        if (db.equals("postgresql")) {
            String url = System.getenv("SANTA_TEST_PG_URL");
            if (url == null || url.isBlank()) {
                if ("true".equalsIgnoreCase(System.getenv("CI"))) {
                    fail("CI=true but SANTA_TEST_PG_URL is not set: PostgreSQL did not start");
                }
                Assumptions.abort("SANTA_TEST_PG_URL is not set");
            }
            String schema = "migration_" + name + "_" + Long.toString(System.nanoTime(), 36);
            try (Connection c = pgAdmin()) {
                c.createStatement().execute("CREATE SCHEMA " + schema);
            }
            pgSchemas.add(schema);
            p.put("spring.datasource.url", url + (url.contains("?") ? "&" : "?") + "currentSchema=" + schema);
            p.put("spring.datasource.username", System.getenv().getOrDefault("SANTA_TEST_PG_USER", "postgres"));
            p.put("spring.datasource.password", System.getenv().getOrDefault("SANTA_TEST_PG_PASSWORD", ""));
        }
        return p;
    }

    private static Connection pgAdmin() throws SQLException {
        return java.sql.DriverManager.getConnection(System.getenv("SANTA_TEST_PG_URL"),
                System.getenv().getOrDefault("SANTA_TEST_PG_USER", "postgres"),
                System.getenv().getOrDefault("SANTA_TEST_PG_PASSWORD", ""));
    }

    private static DataSource dataSource(Map<String, Object> p) {
        return new DriverManagerDataSource((String) p.get("spring.datasource.url"),
                (String) p.getOrDefault("spring.datasource.username", "sa"),
                (String) p.getOrDefault("spring.datasource.password", ""));
    }

    /**
     * The store's own tables (sb_, lx_, sm_) as the database describes them: per table its columns
     * (position, name, type, size, nullability, default, identity) and primary key, per index its
     * table, uniqueness and columns (names the database generates are left out).
     */
    static Map<String, String> schema(DataSource ds) throws SQLException {
        Map<String, String> out = new TreeMap<>();
        try (Connection c = ds.getConnection()) {
            DatabaseMetaData meta = c.getMetaData();
            List<String> tables = new ArrayList<>();
            try (ResultSet rs = meta.getTables(c.getCatalog(), c.getSchema(), "%", new String[] {"TABLE"})) {
                while (rs.next()) {
                    String t = rs.getString("TABLE_NAME");
                    if (t.toLowerCase(Locale.ROOT).matches("(sb|lx|sm)_.*")) {
                        tables.add(t);
                    }
                }
            }
            for (String t : tables) {
                StringBuilder cols = new StringBuilder();
                try (ResultSet rs = meta.getColumns(c.getCatalog(), c.getSchema(), t, "%")) {
                    while (rs.next()) {
                        cols.append(rs.getInt("ORDINAL_POSITION")).append(' ').append(rs.getString("COLUMN_NAME"))
                                .append(' ').append(rs.getString("TYPE_NAME")).append('(').append(rs.getInt("COLUMN_SIZE"))
                                .append(") null=").append(rs.getString("IS_NULLABLE")).append(" default=")
                                .append(rs.getString("COLUMN_DEF")).append(" auto=").append(rs.getString("IS_AUTOINCREMENT"))
                                .append('\n');
                    }
                }
                Map<Integer, String> key = new TreeMap<>();
                try (ResultSet rs = meta.getPrimaryKeys(c.getCatalog(), c.getSchema(), t)) {
                    while (rs.next()) {
                        key.put(rs.getInt("KEY_SEQ"), rs.getString("COLUMN_NAME"));
                    }
                }
                out.put("table " + t.toLowerCase(Locale.ROOT), cols + "primary key " + key.values());
                Map<String, List<String>> indexes = new TreeMap<>();
                Map<String, Boolean> unique = new HashMap<>();
                try (ResultSet rs = meta.getIndexInfo(c.getCatalog(), c.getSchema(), t, false, false)) {
                    while (rs.next()) {
                        String name = rs.getString("INDEX_NAME");
                        if (name == null) {
                            continue;
                        }
                        indexes.computeIfAbsent(name, n -> new ArrayList<>()).add(rs.getString("COLUMN_NAME").toLowerCase(Locale.ROOT));
                        unique.put(name, !rs.getBoolean("NON_UNIQUE"));
                    }
                }
                TreeSet<String> described = new TreeSet<>();
                indexes.forEach((name, columns) -> {
                    String n = name.toLowerCase(Locale.ROOT);
                    boolean generated = n.startsWith("primary_key_") || n.endsWith("_pkey") || n.matches(".*_index_[0-9a-f]+");
                    described.add((generated ? "" : n + " ") + (unique.get(name) ? "unique " : "") + columns);
                });
                out.put("indexes " + t.toLowerCase(Locale.ROOT), String.join("\n", described));
            }
        }
        return out;
    }
}
