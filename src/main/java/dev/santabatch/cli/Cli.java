package dev.santabatch.cli;

import dev.santabatch.run.ExitCodes;
import dev.santabatch.run.Launcher;
import dev.santabatch.run.RunRequest;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The command line: {@code run}, {@code restart}, {@code status}, {@code history}, {@code plan},
 * {@code audit}, {@code generate}. Parses and
 * validates everything it can before any Spring context starts, so a usage error costs nothing
 * and exits 2.
 */
public final class Cli {

    static final String USAGE = """
            usage: santa-batch <command> [options]

            commands:
              run <job-file> [--input <csv>] [--out <dir>] [--run-id <id>] [--seed <n>]
                  run a job; the same --run-id restarts a FAILED or STOPPED run where it stopped
              restart <execution-id>
                  restart a FAILED or STOPPED execution (see 'status')
              status [--limit <n>]
                  recent executions: id, job, run id, status, start, end
              history <job-file> [--limit <n>] [--json]
                  the job's runs, one line each (figures, first-pass rate, cost), and their trend
              plan <job-file> [--input <csv>] [--target-bound <p>] [--json]
                  what a run would sample, carry over and spend (calls, tokens, cost), with no model call
              audit <run-output-dir> <filled-audit.csv>
                  take a filled-in audit.csv back: escape rate with a 95 % interval into report.json;
                  escalations.csv rows with a verdict decide held items for the next run
              generate --seed <n> --rows <n> --out <csv> [--truth <csv>] [--pool sample|held-out|fresh]
                  write a generated sample catalog and its ground truth

            '<command> --help' describes a command. Exit statuses: 0 success, 1 failed or stopped
            (restartable), 2 bad job file, input or usage (nothing run), 3 not clean.
            """;

    static final String RUN_HELP = """
            usage: santa-batch run <job-file> [--input <csv>] [--out <dir>] [--run-id <id>] [--seed <n>]
                                   [--no-learned-rules]

              <job-file>      the job's YAML file (keys: docs/job-file-reference.md)
              --input <csv>   read this catalog instead of the job file's input.path
              --out <dir>     write outputs under <dir>/<job-name>/<run-id>/ (default: out)
              --run-id <id>   name the run (letters, digits, '.', '_', '-'; default: a new id).
                              Same job and run id: a FAILED or STOPPED run is restarted where it
                              stopped; a COMPLETED one is refused (exit 2); a live one is refused.
              --seed <n>      the sampling seed (default: the job file's sampling.seed, else random;
                              recorded with the run)
              --no-learned-rules
                              learn no rules from the sample's fixes: every systematic pattern goes
                              to the matcher (docs/learned-rules.md); give it again on a restart
            """;

    static final String RESTART_HELP = """
            usage: santa-batch restart <execution-id> [--no-learned-rules]

              Restarts a FAILED or STOPPED execution where it stopped, with the job file, input,
              output folder and seed it was started with. 'status' lists execution ids.
            """;

    static final String STATUS_HELP = """
            usage: santa-batch status [--limit <n>]

              Lists recent executions (default 20): id, job, run id, status, start, end. Reads the
              store; works while a run is live in another process.
            """;

    static final String HISTORY_HELP = """
            usage: santa-batch history <job-file> [--limit <n>] [--json]

              The runs of the job named in <job-file> that the store holds, oldest first (the
              latest 30 by default), one line each: start, run id, status, items, changed, carried
              over, shipped, held, first-pass rate, patterns new and seen again, model calls, cost,
              bound, audit escape rate; then the trend of first-pass rate and cost from the first
              exported run listed to the last. A live, killed or failed run shows its status
              without figures. --json writes the same as one JSON object. Reads the store; works
              while a run is live in another process. See docs/history.md.
            """;

    static final String PLAN_HELP = """
            usage: santa-batch plan <job-file> [--input <csv>] [--target-bound <p>] [--json]

              What a run of the job started now would do and spend, with no model call and nothing
              written: items and rejects, carry-over from the job's earlier runs, what the rules fix
              and hold, the eligible items per stratum (changed, covered), round 1's sample and the
              bound it would give if clean, the clean sample a bound below --target-bound needs
              (default: the job's carry-over.target-bound), and the expected model calls, tokens and
              cost of round 1 and of a whole run against full verification. Expected fixes follow
              the median first-pass rate of the job's last 5 runs, else the Santa Method's 70 %.
              --input reads that catalog instead of the job file's input.path. --json writes the
              same as one JSON object. Reads the store; works while a run is live in another
              process. See docs/plan.md.
            """;

    private Cli() {}

    public static int run(String[] args) {
        return run(args, Map.of(), System.out, System.err);
    }

    /**
     * @param springProperties extra Spring properties (tests point the store elsewhere with these)
     */
    public static int run(String[] args, Map<String, Object> springProperties, PrintStream out, PrintStream err) {
        if (args.length == 0 || isHelp(args[0]) || "help".equals(args[0])) {
            (args.length == 0 ? err : out).print(USAGE);
            return args.length == 0 ? ExitCodes.USAGE : ExitCodes.OK;
        }
        String command = args[0];
        List<String> rest = new ArrayList<>(Arrays.asList(args).subList(1, args.length));
        try {
            return switch (command) {
                case "run" -> runCommand(rest, springProperties, out, err);
                case "restart" -> restartCommand(rest, springProperties, out, err);
                case "status" -> statusCommand(rest, springProperties, out, err);
                case "history" -> historyCommand(rest, springProperties, out, err);
                case "plan" -> planCommand(rest, springProperties, out, err);
                case "audit" -> auditCommand(rest, springProperties, out, err);
                case "generate" -> dev.santabatch.eval.SampleCatalogGenerator.run(rest.toArray(String[]::new));
                default -> throw new UsageException("unknown command '" + command + "'");
            };
        } catch (UsageException e) {
            err.println("santa-batch: " + e.getMessage());
            err.println("Run 'santa-batch --help' or 'santa-batch " + (List.of("run", "restart", "status", "history", "plan", "audit").contains(command) ? command + " " : "") + "--help' for usage.");
            return ExitCodes.USAGE;
        }
    }

    private static int runCommand(List<String> args, Map<String, Object> props, PrintStream out, PrintStream err)
            throws UsageException {
        if (args.stream().anyMatch(Cli::isHelp)) {
            out.print(RUN_HELP);
            return ExitCodes.OK;
        }
        props = learnedRules(args, props);
        Map<String, String> opts = options(args, List.of("--input", "--out", "--run-id", "--seed"));
        if (args.size() != 1) {
            throw new UsageException(args.isEmpty() ? "run: missing <job-file>" : "run: unexpected argument(s) " + args.subList(1, args.size()));
        }
        Long seed = null;
        if (opts.containsKey("--seed")) {
            try {
                seed = Long.parseLong(opts.get("--seed"));
            } catch (NumberFormatException e) {
                throw new UsageException("--seed: expected an integer, got '" + opts.get("--seed") + "'");
            }
        }
        String runId = opts.get("--run-id");
        if (runId != null && !RunRequest.SAFE_ID.matcher(runId).matches()) {
            throw new UsageException("--run-id: '" + runId
                    + "' is not a safe name (1-128 letters, digits, '.', '_', '-'; not starting with '.' or '-')");
        }
        RunRequest request = new RunRequest(
                Path.of(args.get(0)),
                pathOrNull(opts.get("--input")),
                Path.of(opts.getOrDefault("--out", "out")),
                runId,
                seed);
        return Launcher.run(request, props, out, err);
    }

    private static int restartCommand(List<String> args, Map<String, Object> props, PrintStream out, PrintStream err)
            throws UsageException {
        if (args.stream().anyMatch(Cli::isHelp)) {
            out.print(RESTART_HELP);
            return ExitCodes.OK;
        }
        props = learnedRules(args, props);
        options(args, List.of());
        if (args.size() != 1) {
            throw new UsageException("restart: expected one <execution-id>");
        }
        long id;
        try {
            id = Long.parseLong(args.get(0));
        } catch (NumberFormatException e) {
            throw new UsageException("restart: <execution-id> must be a number, got '" + args.get(0) + "'");
        }
        return Launcher.restart(id, props, out, err);
    }

    private static int statusCommand(List<String> args, Map<String, Object> props, PrintStream out, PrintStream err)
            throws UsageException {
        if (args.stream().anyMatch(Cli::isHelp)) {
            out.print(STATUS_HELP);
            return ExitCodes.OK;
        }
        Map<String, String> opts = options(args, List.of("--limit"));
        if (!args.isEmpty()) {
            throw new UsageException("status: unexpected argument(s) " + args);
        }
        return Launcher.status(limit(opts, 20), props, out, err);
    }

    /** {@code --limit}: a whole number of at least 1, else {@code otherwise}. */
    private static int limit(Map<String, String> opts, int otherwise) throws UsageException {
        int limit;
        try {
            limit = Integer.parseInt(opts.getOrDefault("--limit", String.valueOf(otherwise)));
        } catch (NumberFormatException e) {
            throw new UsageException("--limit: expected an integer, got '" + opts.get("--limit") + "'");
        }
        if (limit < 1) {
            throw new UsageException("--limit: must be at least 1");
        }
        return limit;
    }

    private static int historyCommand(List<String> args, Map<String, Object> props, PrintStream out, PrintStream err)
            throws UsageException {
        if (args.stream().anyMatch(Cli::isHelp)) {
            out.print(HISTORY_HELP);
            return ExitCodes.OK;
        }
        boolean json = json(args);
        Map<String, String> opts = options(args, List.of("--limit"));
        if (args.size() != 1) {
            throw new UsageException(args.isEmpty() ? "history: missing <job-file>"
                    : "history: unexpected argument(s) " + args.subList(1, args.size()));
        }
        return Launcher.history(Path.of(args.get(0)), limit(opts, 30), json, props, out, err);
    }

    private static final String JSON = "--json";

    private static int planCommand(List<String> args, Map<String, Object> props, PrintStream out, PrintStream err)
            throws UsageException {
        if (args.stream().anyMatch(Cli::isHelp)) {
            out.print(PLAN_HELP);
            return ExitCodes.OK;
        }
        boolean json = json(args);
        Map<String, String> opts = options(args, List.of("--input", "--target-bound"));
        if (args.size() != 1) {
            throw new UsageException(args.isEmpty() ? "plan: missing <job-file>"
                    : "plan: unexpected argument(s) " + args.subList(1, args.size()));
        }
        Double target = null;
        if (opts.containsKey("--target-bound")) {
            try {
                target = Double.parseDouble(opts.get("--target-bound"));
            } catch (NumberFormatException e) {
                throw new UsageException("--target-bound: expected a number, got '" + opts.get("--target-bound") + "'");
            }
            if (!(target > 0 && target < 1)) {
                throw new UsageException("--target-bound: must be between 0 and 1 (a share: 0.05 for 5 %), got "
                        + opts.get("--target-bound"));
            }
        }
        return Launcher.plan(Path.of(args.get(0)), pathOrNull(opts.get("--input")), target, json, props, out, err);
    }

    /** Removes {@code --json} from {@code args}: whether it was there (once). */
    private static boolean json(List<String> args) throws UsageException {
        boolean json = args.remove(JSON);
        if (args.remove(JSON)) {
            throw new UsageException("option '" + JSON + "' given twice");
        }
        return json;
    }

    static final String AUDIT_HELP = """
            usage: santa-batch audit <run-output-dir> <filled-audit.csv>

              A run writes audit.csv: a random sample of shipped items with an empty 'verdict' column.
              Fill in 'ok' or 'defective' per row (and a note if you like), then hand it back: the
              verdicts are stored with the run, and the escape rate (defective among audited, with a
              95 % Clopper-Pearson interval) is written into the run's report.json. Rows left empty
              are not audited. Errors name the line.

              The file may also hold rows of the run's escalations.csv with a 'verdict' (a copy with
              that column added): a person's decision on a held item. The job's next run ships one
              marked 'ok' with its last_passing text; one marked 'defective' stays held. A shipped
              item marked 'defective' is not carried over: the next run judges it afresh
              (docs/carry-over.md, "A person's decisions").
            """;

    private static int auditCommand(List<String> args, Map<String, Object> props, PrintStream out, PrintStream err)
            throws UsageException {
        if (args.stream().anyMatch(Cli::isHelp)) {
            out.print(AUDIT_HELP);
            return ExitCodes.OK;
        }
        options(args, List.of());
        if (args.size() != 2) {
            throw new UsageException("audit: expected <run-output-dir> <filled-audit.csv>");
        }
        return Launcher.audit(Path.of(args.get(0)), Path.of(args.get(1)), props, out, err);
    }

    /**
     * Removes the {@code --no-learned-rules} flag from {@code args}; when it was there, the
     * properties with {@link dev.santabatch.batch.SantaJobConfiguration#LEARNED_RULES_PROPERTY} false.
     */
    private static Map<String, Object> learnedRules(List<String> args, Map<String, Object> props) {
        if (!args.remove(NO_LEARNED_RULES)) {
            return props;
        }
        args.removeIf(NO_LEARNED_RULES::equals);
        Map<String, Object> with = new HashMap<>(props);
        with.put(dev.santabatch.batch.SantaJobConfiguration.LEARNED_RULES_PROPERTY, "false");
        return with;
    }

    private static final String NO_LEARNED_RULES = "--no-learned-rules";

    /** Removes the allowed {@code --name value} options from {@code args} and returns them. */
    private static Map<String, String> options(List<String> args, List<String> allowed) throws UsageException {
        Map<String, String> found = new HashMap<>();
        for (int i = 0; i < args.size(); ) {
            String a = args.get(i);
            if (!a.startsWith("--")) {
                i++;
                continue;
            }
            String name = a;
            String value = null;
            int eq = a.indexOf('=');
            if (eq > 0) {
                name = a.substring(0, eq);
                value = a.substring(eq + 1);
            }
            if (!allowed.contains(name)) {
                throw new UsageException("unknown option '" + name + "'" + (allowed.isEmpty() ? "" : " (allowed: " + String.join(", ", allowed) + ")"));
            }
            if (found.containsKey(name)) {
                throw new UsageException("option '" + name + "' given twice");
            }
            args.remove(i);
            if (value == null) {
                if (i >= args.size()) {
                    throw new UsageException("option '" + name + "' needs a value");
                }
                value = args.remove(i);
            }
            found.put(name, value);
        }
        return found;
    }

    private static boolean isHelp(String a) {
        return "--help".equals(a) || "-h".equals(a);
    }

    private static @Nullable Path pathOrNull(@Nullable String s) {
        return s == null ? null : Path.of(s);
    }
}
