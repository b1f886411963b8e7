package dev.santabatch.review;

import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * One issue after merging and de-duplication across the panel.
 *
 * @param text the issue as first reported (by the first reviewer in panel order that flagged it)
 * @param criterion the criterion the issue names ({@code null} for suggestions)
 * @param flaggedBy the ids of the reviewers that flagged it, in panel order (for reviewer agreement)
 */
public record MergedIssue(String text, @Nullable String criterion, Set<String> flaggedBy) {

    public MergedIssue {
        Objects.requireNonNull(text, "text");
        flaggedBy = Collections.unmodifiableSet(new LinkedHashSet<>(flaggedBy));
    }

    public boolean flaggedByAll(int panelSize) {
        return flaggedBy.size() >= panelSize;
    }
}
