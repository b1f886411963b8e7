package dev.santabatch.canary;

import dev.santabatch.stats.ClopperPearson;
import dev.santabatch.stats.ConfidenceInterval;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A share of canaries with its exact (Clopper-Pearson) 95 % interval: events among trials.
 *
 * @param events canaries caught (planted) or failed (clean)
 * @param trials canaries reviewed
 */
public record Rate(long events, long trials) {

    public boolean measured() {
        return trials > 0;
    }

    /** The point estimate; NaN when nothing was reviewed. */
    public double estimate() {
        return trials == 0 ? Double.NaN : (double) events / trials;
    }

    /** The 95 % interval; [0, 1] when nothing was reviewed. */
    public ConfidenceInterval interval() {
        return trials == 0 ? new ConfidenceInterval(0, 1, ClopperPearson.DEFAULT_CONFIDENCE)
                : ClopperPearson.interval(events, trials);
    }

    Map<String, Object> render(String eventsName) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put(eventsName, events);
        m.put("of", trials);
        if (measured()) {
            m.put("estimate", estimate());
            m.put("interval_95", List.of(interval().lower(), interval().upper()));
        } else {
            m.put("estimate", "not measured");
        }
        return m;
    }
}
