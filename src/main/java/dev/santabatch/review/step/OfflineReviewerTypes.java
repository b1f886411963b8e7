package dev.santabatch.review.step;

import dev.santabatch.config.JobDefinition;
import dev.santabatch.config.LexicalThresholds;
import dev.santabatch.config.ReviewerSpec;
import dev.santabatch.config.SemanticSettings;
import dev.santabatch.review.lexical.LexicalIndex;
import dev.santabatch.review.lexical.LexicalReviewer;
import dev.santabatch.review.offline.CatalogSnapshot;
import dev.santabatch.review.Reviewer;
import dev.santabatch.review.semantic.Embedder;
import dev.santabatch.review.semantic.SemanticIndex;
import dev.santabatch.review.semantic.SemanticReviewer;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.concurrent.Executor;
import javax.sql.DataSource;

/**
 * The offline reviewer types: {@code lexical} (word shingles, MinHash/LSH, name and vocabulary
 * statistics) and {@code semantic} (in-process all-MiniLM-L6-v2 embeddings). Each reviewer of the
 * panel gets its own index, built from the round's catalog snapshot and kept in the store; fresh
 * reviewer instances per panel share it read-only.
 */
public final class OfflineReviewerTypes {

    private OfflineReviewerTypes() {}

    /** {@code lexical}: one index per reviewer spec, with that reviewer's thresholds. */
    public static final class Lexical implements ReviewerType {
        private final Map<String, LexicalIndex> indexes = new LinkedHashMap<>();

        public Lexical(JobDefinition job, DataSource dataSource) {
            for (ReviewerSpec spec : job.reviewers()) {
                if (LexicalReviewer.TYPE.equals(spec.type())) {
                    indexes.put(spec.id(), new LexicalIndex(dataSource, LexicalThresholds.of(spec.thresholds())));
                }
            }
        }

        @Override
        public void prepare(CatalogSnapshot snapshot) {
            indexes.values().forEach(i -> i.prepare(snapshot));
        }

        @Override
        public Reviewer create(ReviewerSpec spec) {
            return new LexicalReviewer(spec.id(), new LinkedHashSet<>(spec.criteria()), indexes.get(spec.id()));
        }

        public LexicalReviewer any(ReviewerSpec spec) {
            return (LexicalReviewer) create(spec);
        }
    }

    /** {@code semantic}: one index per reviewer spec; the model loads once per process, when first needed. */
    public static final class Semantic implements ReviewerType {
        private final Map<String, SemanticIndex> indexes = new LinkedHashMap<>();

        public Semantic(JobDefinition job, DataSource dataSource, Executor executor) {
            for (ReviewerSpec spec : job.reviewers()) {
                if ("semantic".equals(spec.type())) {
                    indexes.put(spec.id(), new SemanticIndex(dataSource, Embedder::shared, executor,
                            SemanticSettings.from(spec.thresholds())));
                }
            }
        }

        @Override
        public void prepare(CatalogSnapshot snapshot) {
            indexes.values().forEach(i -> i.prepare(snapshot));
        }

        @Override
        public Reviewer create(ReviewerSpec spec) {
            return new SemanticReviewer(spec.id(), new LinkedHashSet<>(spec.criteria()), indexes.get(spec.id()));
        }
    }
}
