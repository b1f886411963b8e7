package dev.santabatch.patterns;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;

/** Patterns by meaning: the embedding classifier behind the loop's {@link FailureClassifier}. */
public final class EmbeddingFailureClassifier implements FailureClassifier {

    private final PatternClassifier classifier;

    public EmbeddingFailureClassifier(PatternClassifier classifier) {
        this.classifier = classifier;
    }

    @Override
    public List<Pattern> classify(List<Failure> failures, int sampledItems) {
        return classify(failures, sampledItems, () -> false);
    }

    /** Embedding and clustering look at the stop as they go ({@link PatternClassifier#classify(java.util.Collection, int, BooleanSupplier)}). */
    @Override
    public List<Pattern> classify(List<Failure> failures, int sampledItems, BooleanSupplier stopRequested) {
        List<PatternClassifier.Failure> in = new ArrayList<>();
        for (Failure f : failures) {
            in.add(new PatternClassifier.Failure(f.itemId(), f.text()));
        }
        List<Pattern> out = new ArrayList<>();
        // the share is of the round's sample, not of its failures
        for (PatternClassifier.Pattern p : classifier.classify(in, sampledItems, stopRequested)) {
            out.add(new Pattern(p.criterion(), p.label(), p.itemIds(), p.issues(), p.share()));
        }
        return out;
    }
}
