package dev.santabatch.review.semantic;

import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.output.Response;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A stand-in for the embedding model where the model itself is not under test: each sentence maps
 * to one of the given base vectors chosen by its template (the sentence with capitalised words and
 * numbers masked) plus seeded noise, so copies and templated sentences cluster as with real
 * embeddings. Counts the texts it embeds.
 */
final class TemplateStandInModel implements EmbeddingModel {

    private final List<float[]> bases;
    private final double noise;
    private final AtomicLong embedded;

    TemplateStandInModel(List<float[]> bases, double noise, AtomicLong embedded) {
        this.bases = bases;
        this.noise = noise;
        this.embedded = embedded;
    }

    @Override
    public Response<List<Embedding>> embedAll(List<TextSegment> segments) {
        List<Embedding> out = new ArrayList<>();
        for (TextSegment s : segments) {
            embedded.incrementAndGet();
            String text = s.text();
            String template = text.replaceAll("\\b[A-Z][a-z]+\\b|\\d+(?:\\.\\d+)?", "_");
            float[] base = bases.get(Math.floorMod(template.hashCode(), bases.size()));
            Random r = new Random(text.hashCode());
            float[] v = new float[base.length];
            for (int i = 0; i < v.length; i++) {
                v[i] = base[i] + (float) (r.nextGaussian() * noise);
            }
            out.add(Embedding.from(Vectors.normalise(v)));
        }
        return Response.from(out);
    }
}
