package dev.santabatch.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.santabatch.run.ExitCodes;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Usage errors and help, all decided before any Spring context starts. */
class CliTests {

    record Result(int exit, String out, String err) {}

    static Result cli(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = Cli.run(
                args,
                Map.of("spring.datasource.url", "jdbc:h2:mem:cli-tests"),
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Result(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @ParameterizedTest(name = "{0} -> exit 2, says \"{1}\"")
    @CsvSource(
            delimiter = '|',
            value = {
                "''                                   | usage: santa-batch",
                "frobnicate                           | unknown command 'frobnicate'",
                "run                                  | run: missing <job-file>",
                "run jobs/x.yml --colour blue         | unknown option '--colour'",
                "run jobs/x.yml --run-id              | option '--run-id' needs a value",
                "run jobs/x.yml --run-id ../../etc    | is not a safe name",
                "run jobs/x.yml --seed abc            | --seed: expected an integer, got 'abc'",
                "run jobs/x.yml extra                 | unexpected argument",
                "run jobs/x.yml --out a --out b       | given twice",
                "restart                              | restart: expected one <execution-id>",
                "restart twelve                       | must be a number",
                "status --limit 0                     | --limit: must be at least 1",
                "status now                           | status: unexpected argument",
                "history                              | history: missing <job-file>",
                "history jobs/x.yml jobs/y.yml        | history: unexpected argument",
                "history jobs/x.yml --limit 0         | --limit: must be at least 1",
                "history jobs/x.yml --json --json     | option '--json' given twice",
                "plan                                 | plan: missing <job-file>",
                "plan jobs/x.yml --limit 3            | unknown option '--limit'",
                "plan jobs/x.yml --target-bound x     | --target-bound: expected a number, got 'x'",
                "plan jobs/x.yml --target-bound 1.5   | --target-bound: must be between 0 and 1",
            })
    void badCommandLinesAreUsageErrors(String line, String message) {
        Result r = cli(line.isBlank() ? new String[0] : line.trim().split("\\s+"));
        assertThat(r.exit()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).contains(message);
    }

    @ParameterizedTest
    @CsvSource({"--help, usage: santa-batch <command>", "run --help, usage: santa-batch run", "restart --help, usage: santa-batch restart", "status --help, usage: santa-batch status", "history --help, usage: santa-batch history",
            "plan --help, usage: santa-batch plan"})
    void everyCommandHasHelp(String line, String expected) {
        Result r = cli(line.split(" "));
        assertThat(r.exit()).isEqualTo(ExitCodes.OK);
        assertThat(r.out()).contains(expected);
    }

    @ParameterizedTest
    @CsvSource({"run jobs/does-not-exist.yml, does-not-exist.yml", "restart 999999, no execution with id 999999",
            "history jobs/does-not-exist.yml, does-not-exist.yml", "plan jobs/does-not-exist.yml, does-not-exist.yml"})
    void missingThingsAreUsageErrorsNamingThem(String line, String expected) {
        Result r = cli(line.split(" "));
        assertThat(r.exit()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).contains(expected);
    }

    @Test
    void aRuleReadingAColumnTheCatalogLacksStopsTheRunBeforeAnyWork(@TempDir Path dir) throws Exception {
        // given a job without source-columns (every column), valid but for its rule reading a misspelt column
        Files.writeString(dir.resolve("cars.csv"), "id,fuel,advert\nc1,hybrid,A tidy estate.\n");
        Path job = dir.resolve("cars.yml");
        Files.writeString(job, """
                name: cars
                input:
                  path: cars.csv
                  id-column: id
                  content-column: advert
                task-spec: Write adverts.
                rubric:
                  - id: note
                    pass: Has it.
                    fail-signal: Lacks it.
                    rules:
                      - id: battery
                        type: required-phrase
                        when: {column: fuell, values: [hybrid]}
                        phrase: The battery report is included.
                  - id: on-specification
                    pass: About this car.
                    fail-signal: About something else.
                    checked-by: santa
                """);

        // when
        Result r = cli("run", job.toString(), "--out", dir.resolve("out").toString());

        // then nothing ran: the rule would have checked nothing
        assertThat(r.exit()).as(r.err()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).contains("column 'fuell', read by rule 'battery'").contains("is not in the header");
        assertThat(dir.resolve("out")).doesNotExist();
    }
}
