package dev.santabatch.patterns;

import dev.santabatch.review.IssueSimilarity;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Groups failures of one criterion whose issue texts are the same once quoted passages, item ids
 * and numbers are blanked out. The fallback when no embedding model is wanted (e.g. model-only
 * jobs); the offline job uses the embedding classifier.
 */
public final class ExactIssueClassifier implements FailureClassifier {

    @Override
    public List<Pattern> classify(List<Failure> failures, int sampledItems) {
        Map<String, List<Failure>> groups = new LinkedHashMap<>();
        for (Failure f : failures) {
            groups.computeIfAbsent(f.criterion() + "|" + shape(f.text()), k -> new ArrayList<>()).add(f);
        }
        List<Pattern> patterns = new ArrayList<>();
        for (List<Failure> g : groups.values()) {
            List<String> items = g.stream().map(Failure::itemId).distinct().toList();
            patterns.add(new Pattern(g.get(0).criterion(), g.get(0).text(), items, g.stream().map(Failure::text).toList(),
                    FailureClassifier.share(items.size(), sampledItems)));
        }
        return patterns;
    }

    static String shape(String text) {
        String t = text.replaceAll("\"[^\"]*\"", "\"…\"").replaceAll("\\b[A-Z]*\\d[\\w-]*\\b", "#");
        return IssueSimilarity.normalise(t);
    }
}
