package dev.santabatch.model;

import dev.santabatch.batch.Extensions;
import dev.santabatch.run.Launcher;
import dev.santabatch.run.RunRequest;
import dev.santabatch.run.TestJobsAccess;
import java.nio.file.Path;

/**
 * A child-process entry point for kill tests of model-backed runs: runs a job whose models are at a
 * scripted server in the parent test process, with the test key as a stand-in environment
 * variable. Arguments: job file, working directory (store in {@code db/}, outputs in {@code out/}),
 * run id, and optionally {@code --no-learned-rules}.
 */
public final class ModelJobMain {

    public static void main(String[] args) {
        Path dir = Path.of(args[1]);
        java.util.Map<String, Object> props = new java.util.HashMap<>(TestJobsAccess.h2(dir));
        if (args.length > 3 && args[3].equals("--no-learned-rules")) {
            props.put(dev.santabatch.batch.SantaJobConfiguration.LEARNED_RULES_PROPERTY, "false");
        }
        int exit = Extensions.run(new RunRequest(Path.of(args[0]), null, dir.resolve("out"), args[2], null),
                props, System.out, System.err, Extensions.withEnv(LlmFixtures.KEYS));
        System.exit(exit);
    }

    private ModelJobMain() {}
}
