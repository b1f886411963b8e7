package dev.santabatch.review.semantic;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * Zero-shot topic anchors: two fixed banks of example sentences, shipped with the code
 * ({@code semantic/anchors-product.txt}: sentences of product descriptions of many kinds of product,
 * in many styles; {@code semantic/anchors-offtopic.txt}: sentences about other subjects, such as
 * news, weather, cooking, sport, finance, history, nature, health, travel, culture). Whether a
 * sentence is about a product at all is a question about the sentence, not about how much it
 * resembles the catalog's own sentences; the banks answer it without the catalog.
 *
 * <p>{@link #margin(float[])} is the mean cosine of a sentence to its {@value #K} nearest off-topic
 * anchors minus the mean cosine to its {@value #K} nearest product anchors: above 0 the sentence is
 * more like the off-topic bank. The banks are embedded once per {@link Embedder} (about 200
 * sentences), the first time a margin is asked for.
 */
public final class TopicAnchors {

    /** Nearest anchors averaged on each side. */
    public static final int K = 10;

    static final String PRODUCT = "/semantic/anchors-product.txt";
    static final String OFF_TOPIC = "/semantic/anchors-offtopic.txt";

    private static final Map<Embedder, TopicAnchors> BY_EMBEDDER = Collections.synchronizedMap(new WeakHashMap<>());

    private final float[][] product;
    private final float[][] offTopic;

    TopicAnchors(List<float[]> product, List<float[]> offTopic) {
        this.product = product.toArray(new float[0][]);
        this.offTopic = offTopic.toArray(new float[0][]);
    }

    /** The anchors embedded with this embedder (embedded once per embedder). */
    public static TopicAnchors of(Embedder embedder) {
        synchronized (BY_EMBEDDER) {
            return BY_EMBEDDER.computeIfAbsent(embedder, e -> new TopicAnchors(e.embedAll(lines(PRODUCT)), e.embedAll(lines(OFF_TOPIC))));
        }
    }

    /** Off-topic minus product: mean cosine to the {@value #K} nearest anchors of each bank. */
    public double margin(float[] sentence) {
        return topMean(offTopic, sentence) - topMean(product, sentence);
    }

    static double topMean(float[][] bank, float[] v) {
        double[] c = new double[bank.length];
        for (int i = 0; i < bank.length; i++) {
            c[i] = Vectors.dot(bank[i], v);
        }
        Arrays.sort(c);
        int k = Math.min(K, c.length);
        double sum = 0;
        for (int i = c.length - k; i < c.length; i++) {
            sum += c[i];
        }
        return sum / k;
    }

    /** The non-blank, non-comment lines of a bank resource. */
    static List<String> lines(String resource) {
        try (InputStream in = TopicAnchors.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + resource);
            }
            List<String> out = new ArrayList<>();
            BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            for (String l = r.readLine(); l != null; l = r.readLine()) {
                String s = l.strip();
                if (!s.isEmpty() && !s.startsWith("#")) {
                    out.add(s);
                }
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
