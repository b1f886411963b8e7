package dev.santabatch.rounds;

import dev.santabatch.model.SpendStore;
import dev.santabatch.review.IssueSimilarity;
import dev.santabatch.stats.ClopperPearson;
import dev.santabatch.stats.ConfidenceInterval;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Patterns the batch fix cannot reach. A pattern of a round is the same as a systematic pattern of
 * the round before when their criteria are equal and their labels are the same problem (the
 * classifier's similarity, {@code santa.pattern-similarity}). It is <em>unreachable</em> when it
 * comes back after that round's batch fix reached fewer than 20 % ({@link #MIN_REACH}) of the
 * items the sample predicted (its share of the sample times the unsampled eligible items); reached
 * means fixed or held for a person (a match whose correction was not stored reached nothing). A batch fix that left a matcher candidate unanswered
 * (a transport failure, or no usable answer) marks nothing: its reach measured the endpoint. A pattern that comes back after a round in which it was
 * already unreachable stays so, with the batch fix that fell short as its evidence: the model
 * matcher makes no calls for an unreachable pattern, and when every failure of a round's sample is
 * of an unreachable pattern the run ends not clean at once ({@link Decision#UNREACHABLE_PATTERN}).
 *
 * <p>A run resumed after such an end ({@link Decision#CONTINUE_AFTER_UNREACHABLE_PATTERN}: the
 * operator raised {@code matcher.max-candidate-share} or wrote a rule) gives every pattern a fresh
 * batch fix: none of the resumed round's patterns is unreachable for what happened before.
 *
 * <p>Marked by the classify step in its own transaction with the patterns ({@code sb_unreachable});
 * a restarted round keeps both.
 */
public final class UnreachablePatterns {

    /** The least share of the predicted items a batch fix must reach for its pattern to stay worth matcher calls. */
    public static final double MIN_REACH = 0.20;

    /**
     * An unreachable pattern of a round.
     *
     * @param shortRound the round whose batch fix fell short (of the same pattern)
     * @param shortPattern that round's pattern
     * @param predicted the unsampled eligible items that round's sample predicted to show it
     * @param reached the items its batch fix reached (matched: fixed or held)
     */
    public record Unreachable(int round, int patternNo, int shortRound, int shortPattern, double predicted, long reached) {}

    private final LoopStore loop;
    private final JdbcTemplate jdbc;

    public UnreachablePatterns(LoopStore loop) {
        this.loop = loop;
        this.jdbc = loop.jdbc();
    }

    /**
     * Marks and stores the unreachable patterns among round {@code round}'s (just classified)
     * {@code patterns}, against the round before.
     */
    public List<Unreachable> mark(long runPk, int round, List<LoopStore.PatternRow> patterns, IssueSimilarity similarity) {
        jdbc.update("DELETE FROM sb_unreachable WHERE run_pk = ? AND round_no = ?", runPk, round);
        Optional<LoopStore.Round> previous = loop.rounds(runPk).stream().filter(r -> r.round() == round - 1).findFirst();
        if (previous.isEmpty() || Decision.CONTINUE_AFTER_UNREACHABLE_PATTERN.equals(previous.get().decision())) {
            return List.of();
        }
        LoopStore.Round before = previous.get();
        if (matcherUnanswered(runPk, before.round())) {
            // the batch fix did not run its course (the matcher was down or never said): what it
            // reached measures the endpoint, not whether the pattern can be reached
            return List.of();
        }
        long unsampled = Math.max(0, before.eligible() - before.sampleSize());
        Map<Integer, Unreachable> already = of(runPk, before.round()).stream()
                .collect(Collectors.toMap(Unreachable::patternNo, Function.identity()));
        List<LoopStore.PatternRow> systematic = loop.patterns(runPk, before.round()).stream()
                .filter(LoopStore.PatternRow::systematic).toList();
        List<Unreachable> out = new ArrayList<>();
        for (LoopStore.PatternRow p : patterns) {
            for (LoopStore.PatternRow q : systematic) {
                if (!q.criterion().equals(p.criterion()) || !similarity.same(q.label(), p.label())) {
                    continue;
                }
                Unreachable carried = already.get(q.patternNo());
                double predicted = q.share() * unsampled;
                if (carried != null) {
                    out.add(new Unreachable(round, p.patternNo(), carried.shortRound(), carried.shortPattern(),
                            carried.predicted(), carried.reached()));
                } else if (predicted > 0 && reached(q) < MIN_REACH * predicted) {
                    out.add(new Unreachable(round, p.patternNo(), before.round(), q.patternNo(), predicted, reached(q)));
                }
                break;
            }
        }
        for (Unreachable u : out) {
            jdbc.update("INSERT INTO sb_unreachable (run_pk, round_no, pattern_no, short_round, short_pattern, predicted, reached)"
                    + " VALUES (?, ?, ?, ?, ?, ?, ?)", runPk, u.round(), u.patternNo(), u.shortRound(), u.shortPattern(),
                    u.predicted(), u.reached());
        }
        return out;
    }

    /** The items a pattern's batch fix fixed or held for a person. */
    private static long reached(LoopStore.PatternRow p) {
        return p.fixed() + p.escalated();
    }

    /** Whether a matcher candidate of the round was left without an answer (transport failure, or no usable answer). */
    private boolean matcherUnanswered(long runPk, int round) {
        Integer n = jdbc.queryForObject("SELECT COUNT(*) FROM sb_match_candidate WHERE run_pk = ? AND round_no = ?"
                + " AND state IN ('transport', 'unanswered')", Integer.class, runPk, round);
        return n != null && n > 0;
    }

    /** Round {@code round}'s unreachable patterns, by pattern number. */
    public List<Unreachable> of(long runPk, int round) {
        return jdbc.query("SELECT round_no, pattern_no, short_round, short_pattern, predicted, reached FROM sb_unreachable"
                        + " WHERE run_pk = ? AND round_no = ? ORDER BY pattern_no",
                (rs, n) -> new Unreachable(rs.getInt(1), rs.getInt(2), rs.getInt(3), rs.getInt(4), rs.getDouble(5), rs.getLong(6)),
                runPk, round);
    }

    /** The numbers of round {@code round}'s unreachable patterns. */
    public Set<Integer> numbers(long runPk, int round) {
        Set<Integer> out = new HashSet<>();
        of(runPk, round).forEach(u -> out.add(u.patternNo()));
        return out;
    }

    /**
     * True when the round has an unreachable pattern and every sampled item that failed its first
     * review is in one and in no systematic pattern the batch fix can still reach: another round
     * would only find them again.
     */
    public boolean onlyUnreachableFailures(long runPk, int round, List<LoopStore.SampleOutcome> sample) {
        Set<Integer> unreachable = numbers(runPk, round);
        if (unreachable.isEmpty()) {
            return false;
        }
        Set<String> covered = new HashSet<>();
        Set<String> reachable = new HashSet<>();
        for (LoopStore.PatternRow p : loop.patterns(runPk, round)) {
            if (unreachable.contains(p.patternNo())) {
                covered.addAll(p.items());
            } else if (p.systematic()) {
                reachable.addAll(p.items());
            }
        }
        return sample.stream()
                .filter(s -> !s.niceOnFirstReview())
                .allMatch(s -> covered.contains(s.itemId()) && !reachable.contains(s.itemId()));
    }

    /**
     * What the report says of one unreachable pattern.
     *
     * @param pattern the pattern, as its round classified it
     * @param sampleSize the round's sample
     * @param prevalence its share of the sample, with {@code interval} its exact 95 % interval
     * @param eligible the round's eligible items (the estimate's base)
     * @param narrowing the model matcher's narrowing of the round that fell short; empty without one
     */
    public record Entry(Unreachable unreachable, LoopStore.PatternRow pattern, int sampleSize, double prevalence,
            ConfidenceInterval interval, long eligible, Optional<SpendStore.MatchStat> narrowing) {

        /**
         * What would reach it: when the cap cut candidates the narrowing had found, the share that
         * keeps them all; otherwise a rule (the candidates were all asked, or none were found).
         */
        public String wouldReach() {
            if (narrowing.isPresent() && narrowing.get().found() > narrowing.get().candidates() && narrowing.get().eligible() > 0) {
                SpendStore.MatchStat s = narrowing.get();
                double share = Math.min(1, Math.ceil(100.0 * s.found() / s.eligible()) / 100);
                return String.format(Locale.ROOT, "raise matcher.max-candidate-share to %.2f: the narrowing found %d"
                        + " candidates of %d eligible items and the cap kept %d", share, s.found(), s.eligible(), s.candidates());
            }
            String found = narrowing.map(s -> String.format(Locale.ROOT, "the narrowing found %d candidates, all of them"
                    + " asked, and %d were matched", s.found(), unreachable.reached())).orElse(
                    "the batch fix reached " + unreachable.reached());
            return "write a rule for " + pattern.criterion() + " in the job file's rubric that finds it (" + found
                    + "; a larger cap would not help)";
        }
    }

    /** The report entries of round {@code round}'s unreachable patterns. */
    public List<Entry> entries(long runPk, LoopStore.Round round, List<SpendStore.MatchStat> matchStats) {
        Map<Integer, LoopStore.PatternRow> patterns = loop.patterns(runPk, round.round()).stream()
                .collect(Collectors.toMap(LoopStore.PatternRow::patternNo, Function.identity()));
        List<Entry> out = new ArrayList<>();
        for (Unreachable u : of(runPk, round.round())) {
            LoopStore.PatternRow p = patterns.get(u.patternNo());
            int k = p.items().size();
            int n = Math.max(k, round.sampleSize());
            Optional<SpendStore.MatchStat> stat = matchStats.stream()
                    .filter(s -> s.round() == u.shortRound() && s.patternNo() == u.shortPattern()).findFirst();
            out.add(new Entry(u, p, n, n == 0 ? 0 : (double) k / n, ClopperPearson.interval(k, n), round.eligible(), stat));
        }
        return out;
    }
}
