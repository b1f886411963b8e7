package dev.santabatch.review.semantic;

import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.embedding.onnx.allminilml6v2q.AllMiniLmL6V2QuantizedEmbeddingModel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Sentence embeddings with all-MiniLM-L6-v2 (quantized), in process (ONNX Runtime through
 * langchain4j); the model ships in the jar, nothing is downloaded at run time.
 *
 * <p>{@link #shared()} loads the model once per process, lazily: nothing is loaded until a semantic
 * check first asks for it ({@link #loadCount()} counts the loads). Texts are embedded in batches on
 * the caller's executor (the job's: the process's embedding pool, one thread per core). Vectors are L2-normalised, so cosine = dot product.
 * Thread-safe.
 */
public final class Embedder {

    /** Dimension of all-MiniLM-L6-v2 vectors. */
    public static final int DIMENSION = 384;

    /** Texts per batch handed to the model (one ONNX call). */
    public static final int BATCH = 32;

    private static final AtomicInteger LOADS = new AtomicInteger();
    private static volatile Embedder shared;

    private final String name;
    private final EmbeddingModel model;

    private Embedder(String name, EmbeddingModel model) {
        this.name = name;
        this.model = model;
    }

    /** The process-wide quantized model, loaded on first call. */
    public static Embedder shared() {
        Embedder e = shared;
        if (e == null) {
            synchronized (Embedder.class) {
                e = shared;
                if (e == null) {
                    optOutOfDjlTelemetry();
                    // the model's static initialiser loads the ONNX session: exactly once per process
                    e = new Embedder("all-MiniLM-L6-v2-q", new AllMiniLmL6V2QuantizedEmbeddingModel(Runnable::run));
                    LOADS.incrementAndGet();
                    shared = e;
                }
            }
        }
        return e;
    }

    /**
     * DJL (under the model's tokenizer) calls home when it starts: it asks the EC2 metadata address
     * (169.254.169.254) for the instance and, on EC2, fetches a telemetry URL. A batch job checking a
     * catalog makes no network call it was not configured for, so the process opts out through DJL's
     * own switch, {@code OPT_OUT_TRACKING}, unless the operator set it (environment or system property).
     */
    static void optOutOfDjlTelemetry() {
        if (System.getenv("OPT_OUT_TRACKING") == null && System.getProperty("OPT_OUT_TRACKING") == null) {
            System.setProperty("OPT_OUT_TRACKING", "true");
        }
    }

    /** How many times this process loaded the shared model (0 before the first semantic check, then 1). */
    public static int loadCount() {
        return LOADS.get();
    }

    /** Whether the shared model is loaded. */
    public static boolean loaded() {
        return shared != null;
    }

    /** An embedder over another model (tests compare the full-precision model). */
    public static Embedder of(String name, EmbeddingModel model) {
        return new Embedder(name, model);
    }

    public String name() {
        return name;
    }

    /** One text's vector. */
    public float[] embed(String text) {
        return embedBatch(List.of(text)).get(0);
    }

    /** Embeds on the calling thread. */
    public List<float[]> embedAll(List<String> texts) {
        return embedAll(texts, Runnable::run);
    }

    /** Embeds in batches of {@value #BATCH}, run on the executor; results in input order. */
    public List<float[]> embedAll(List<String> texts, Executor executor) {
        if (texts.size() <= BATCH) {
            return texts.isEmpty() ? List.of() : embedBatch(texts);
        }
        List<CompletableFuture<List<float[]>>> parts = new ArrayList<>();
        for (int from = 0; from < texts.size(); from += BATCH) {
            List<String> batch = texts.subList(from, Math.min(texts.size(), from + BATCH));
            parts.add(CompletableFuture.supplyAsync(() -> embedBatch(batch), executor));
        }
        List<float[]> out = new ArrayList<>(texts.size());
        for (CompletableFuture<List<float[]>> p : parts) {
            out.addAll(p.join());
        }
        return out;
    }

    private List<float[]> embedBatch(List<String> texts) {
        List<TextSegment> segments = new ArrayList<>(texts.size());
        for (String t : texts) {
            segments.add(TextSegment.from(t.isBlank() ? "." : t));
        }
        List<Embedding> embeddings = model.embedAll(segments).content();
        List<float[]> out = new ArrayList<>(embeddings.size());
        for (Embedding e : embeddings) {
            out.add(Vectors.normalise(e.vector()));
        }
        return out;
    }
}
