package dev.santabatch.execution;

import dev.santabatch.config.JobDefinition;
import dev.santabatch.config.ModelSpec;
import dev.santabatch.config.ReviewerSpec;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * SHA-256 fingerprints of what a run's results depend on: the catalog file, and the rubric with
 * the task specification and the panel's judgement (each reviewer's id, type, criteria and
 * thresholds, and for a model reviewer the model's identity: its name and the endpoint it is called
 * at, {@code base-url} else {@code OPENAI_BASE_URL} else OpenAI's), with the
 * canary kinds that test each criterion and the fit limits the panel must meet (docs/canaries.md).
 * A restart is refused when either changed since the run started. Limits such as max rounds and budgets are
 * not part of it: raising them is how a not-clean or budget-stopped run is resumed. Nor are a
 * model's operational settings (its API key variable, timeout, prices, max output tokens,
 * temperature, structured-output mode): fixing them after a failed run (a wrong key, a timeout
 * too short, a mode the endpoint rejects) must leave the run restartable.
 */
public final class Fingerprints {

    private Fingerprints() {}

    /** The SHA-256 of the file's bytes, in hex. */
    public static String file(Path file) throws IOException {
        MessageDigest md = sha256();
        byte[] buf = new byte[1 << 16];
        try (InputStream in = Files.newInputStream(file)) {
            for (int n; (n = in.read(buf)) > 0; ) {
                md.update(buf, 0, n);
            }
        }
        return HexFormat.of().formatHex(md.digest());
    }

    /**
     * @param env the environment as the models see it: a model reviewer's endpoint is the one it is
     *     called at ({@code base-url}, else {@code OPENAI_BASE_URL}, else OpenAI's), as in {@link #verification}
     */
    public static String rubric(JobDefinition job, java.util.function.Function<String, @org.jspecify.annotations.Nullable String> env) {
        StringBuilder text = new StringBuilder(job.taskSpec()).append('\n').append(job.rubric()).append('\n');
        for (ReviewerSpec r : job.reviewers()) {
            text.append("reviewer ").append(r.id()).append(" type ").append(r.type()).append(" criteria ")
                    .append(r.criteria()).append(" thresholds ").append(new java.util.TreeMap<>(r.thresholds()));
            appendModel(text, r, env);
        }
        // what measures the panel, and the limits it must meet to fit: relaxing them on a restart
        // would let a panel that did not fit judge the run
        text.append("canaries ").append(job.canaries()).append('\n').append("fit ").append(job.santa().fit()).append('\n');
        return HexFormat.of().formatHex(sha256().digest(text.toString().getBytes(StandardCharsets.UTF_8)));
    }

    /**
     * The verification fingerprint (docs/carry-over.md): what a verdict on an item depends on beyond
     * the item itself. The task specification, the Santa criteria (id, name, pass condition, failure
     * signal) and the panel: each reviewer's id, type, criteria and thresholds, and for a model
     * reviewer its model and the endpoint it is called at (resolved in {@code env}). Not the rules
     * (they run on every item, carried ones too), nor the fixer, limits or operational settings. The
     * reviewer prompt templates are compared apart ({@link dev.santabatch.review.llm.PromptTemplates}).
     */
    public static String verification(JobDefinition job,
            java.util.function.Function<String, @org.jspecify.annotations.Nullable String> env) {
        StringBuilder text = new StringBuilder("task-spec\n").append(job.taskSpec()).append('\n');
        for (dev.santabatch.config.Criterion c : job.santaCriteria()) {
            text.append("criterion ").append(c.id()).append('\u0000').append(c.name()).append('\u0000').append(c.pass())
                    .append('\u0000').append(c.failSignal()).append('\n');
        }
        for (ReviewerSpec r : job.reviewers()) {
            text.append("reviewer ").append(r.id()).append(" type ").append(r.type()).append(" criteria ")
                    .append(r.criteria()).append(" thresholds ").append(new java.util.TreeMap<>(r.thresholds()));
            appendModel(text, r, env);
        }
        return HexFormat.of().formatHex(sha256().digest(text.toString().getBytes(StandardCharsets.UTF_8)));
    }

    /** A model reviewer's model and the endpoint it is called at, resolved in {@code env}; then the line's end. */
    private static void appendModel(StringBuilder text, ReviewerSpec r,
            java.util.function.Function<String, @org.jspecify.annotations.Nullable String> env) {
        ModelSpec m = r.model();
        if (m != null) {
            text.append(" model ").append(m.model().strip()).append(" at ").append(m.resolvedBaseUrl(env));
        }
        text.append('\n');
    }

    /**
     * The digest of what an item's verdict depends on in the item: its content and its source facts
     * (each source column's name and value, as reviewers are given them). Stored with the item at
     * ingest; carry-over compares it with an earlier run's.
     */
    public static String input(String content, java.util.Map<String, String> source) {
        java.util.List<String> parts = new java.util.ArrayList<>();
        parts.add(content);
        source.forEach((k, v) -> {
            parts.add(k);
            parts.add(v == null ? "" : v);
        });
        return HexFormat.of().formatHex(sha256().digest(
                dev.santabatch.persistence.FieldsCodec.encode(parts).getBytes(StandardCharsets.UTF_8)));
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
