package dev.santabatch.canary;

import dev.santabatch.config.CanaryKind;
import dev.santabatch.persistence.FieldsCodec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The canaries of every round ({@code sb_canary}) and each reviewer's verdict on them
 * ({@code sb_canary_review}), kept apart from the items' tables: nothing that samples, fixes,
 * classifies or exports items reads these. A round's canaries are written once, in one
 * transaction; a reviewer's verdict on a canary is written when it arrives, so a restart asks only
 * the reviewers that have not answered.
 */
public final class CanaryStore {

    /** One reviewer's verdict on one canary: FAIL with the criteria it failed, or PASS. */
    public record Verdict(int round, int seq, String reviewerId, boolean fail, List<String> failedCriteria) {}

    private final JdbcTemplate jdbc;

    public CanaryStore(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** Whether the round's canaries were drawn (possibly none). */
    public boolean drawn(long runPk, int round) {
        Integer n = jdbc.queryForObject("SELECT COUNT(*) FROM sb_canary_round WHERE run_pk = ? AND round_no = ?",
                Integer.class, runPk, round);
        return n != null && n > 0;
    }

    /** Stores a round's canaries and that they were drawn (call in one transaction). */
    public void insert(long runPk, int round, int planned, List<Canary> canaries) {
        for (Canary c : canaries) {
            jdbc.update("INSERT INTO sb_canary (run_pk, round_no, seq, item_id, kind, criterion, donor_id, source, content)"
                    + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", runPk, round, c.seq(), c.itemId(),
                    c.kind() == null ? null : c.kind().id(), c.criterion(), c.donorId(),
                    FieldsCodec.encode(encode(c.source())), c.content());
        }
        jdbc.update("INSERT INTO sb_canary_round (run_pk, round_no, planned) VALUES (?, ?, ?)", runPk, round, planned);
    }

    /** A round's canaries, by seq. */
    public List<Canary> canaries(long runPk, int round) {
        return jdbc.query("SELECT seq, item_id, kind, criterion, donor_id, source, content FROM sb_canary"
                + " WHERE run_pk = ? AND round_no = ? ORDER BY seq", (rs, n) -> new Canary(rs.getInt(1), rs.getString(2),
                        kind(rs.getString(3)), rs.getString(4), rs.getString(5), decode(FieldsCodec.decode(rs.getString(6))),
                        rs.getString(7)), runPk, round);
    }

    /** Every canary of the run, by round then seq, as (round, canary). */
    public List<Map.Entry<Integer, Canary>> all(long runPk) {
        return jdbc.query("SELECT round_no, seq, item_id, kind, criterion, donor_id, source, content FROM sb_canary"
                + " WHERE run_pk = ? ORDER BY round_no, seq", (rs, n) -> Map.entry(rs.getInt(1), new Canary(rs.getInt(2),
                        rs.getString(3), kind(rs.getString(4)), rs.getString(5), rs.getString(6),
                        decode(FieldsCodec.decode(rs.getString(7))), rs.getString(8))), runPk);
    }

    public void insertVerdict(long runPk, Verdict v) {
        jdbc.update("DELETE FROM sb_canary_review WHERE run_pk = ? AND round_no = ? AND seq = ? AND reviewer_id = ?",
                runPk, v.round(), v.seq(), v.reviewerId());
        jdbc.update("INSERT INTO sb_canary_review (run_pk, round_no, seq, reviewer_id, verdict, failed_criteria)"
                + " VALUES (?, ?, ?, ?, ?, ?)", runPk, v.round(), v.seq(), v.reviewerId(), v.fail() ? "FAIL" : "PASS",
                String.join(",", v.failedCriteria()));
    }

    /** Every verdict of the run. */
    public List<Verdict> verdicts(long runPk) {
        return jdbc.query("SELECT round_no, seq, reviewer_id, verdict, failed_criteria FROM sb_canary_review WHERE run_pk = ?"
                + " ORDER BY round_no, seq, reviewer_id", (rs, n) -> new Verdict(rs.getInt(1), rs.getInt(2), rs.getString(3),
                        "FAIL".equals(rs.getString(4)), rs.getString(5).isEmpty() ? List.of()
                                : List.of(rs.getString(5).split(","))), runPk);
    }

    /** The reviewers that answered canary {@code seq} of the round. */
    public List<String> answered(long runPk, int round, int seq) {
        return jdbc.queryForList("SELECT reviewer_id FROM sb_canary_review WHERE run_pk = ? AND round_no = ? AND seq = ?",
                String.class, runPk, round, seq);
    }

    private static @Nullable CanaryKind kind(@Nullable String id) {
        if (id == null) {
            return null;
        }
        for (CanaryKind k : CanaryKind.values()) {
            if (k.id().equals(id)) {
                return k;
            }
        }
        throw new IllegalStateException("unknown canary kind in the store: " + id);
    }

    private static List<String> encode(Map<String, String> source) {
        List<String> out = new ArrayList<>();
        source.forEach((k, v) -> {
            out.add(k);
            out.add(v == null ? "" : v);
        });
        return out;
    }

    private static Map<String, String> decode(List<String> flat) {
        Map<String, String> out = new LinkedHashMap<>();
        for (int i = 0; i + 1 < flat.size(); i += 2) {
            out.put(flat.get(i), flat.get(i + 1));
        }
        return out;
    }
}
