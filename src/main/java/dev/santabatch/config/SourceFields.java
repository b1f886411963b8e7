package dev.santabatch.config;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Maps a stored row to its content and its source facts (the job's source columns; by default every
 * column but the id and the content).
 */
public final class SourceFields {

    private final int contentIndex;
    private final List<String> names = new ArrayList<>();
    private final List<Integer> indexes = new ArrayList<>();

    public SourceFields(JobDefinition job, List<String> header) {
        this.contentIndex = header.indexOf(job.input().contentColumn());
        List<String> wanted = job.input().sourceColumns();
        for (int i = 0; i < header.size(); i++) {
            String h = header.get(i);
            boolean source = wanted.isEmpty()
                    ? !h.equals(job.input().idColumn()) && !h.equals(job.input().contentColumn())
                    : wanted.contains(h);
            if (source) {
                names.add(h);
                indexes.add(i);
            }
        }
    }

    /** The source columns' names, in header order. */
    public List<String> names() {
        return List.copyOf(names);
    }

    public String content(List<String> fields) {
        return fields.get(contentIndex);
    }

    public Map<String, String> of(List<String> fields) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < names.size(); i++) {
            m.put(names.get(i), fields.get(indexes.get(i)));
        }
        return Collections.unmodifiableMap(m);
    }
}
