package dev.santabatch.rounds;

import dev.santabatch.persistence.ItemState;
import dev.santabatch.review.PanelReview;
import dev.santabatch.review.ReviewOutcome;
import dev.santabatch.review.Verdict;
import dev.santabatch.persistence.Store;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * A FAIL from any reviewer on an item's current text, seen outside the item's own review: a learned
 * rule's fresh review of a passed item or review check of the fix it writes, or a clean canary (an
 * unchanged copy of a passed item). A
 * FAIL from one reviewer makes an item NAUGHTY, whoever asked: the item is no longer NICE, and it is
 * flagged on that revision ({@link LoopStore#flag}), so that no clean sample covers it and it is held
 * {@code FAIL_UNRESOLVED} unless a later fix resolves it (docs/job-file-reference.md#escalation-reasons).
 */
public final class FailOnCurrentText {

    private static final Logger log = LoggerFactory.getLogger(FailOnCurrentText.class);

    private FailOnCurrentText() {}

    /** The FAILs among a panel's reviews, as {@code <reviewer>: <issue>} lines; empty when none failed. */
    public static List<String> issues(List<PanelReview> reviews) {
        List<String> out = new ArrayList<>();
        for (PanelReview pr : reviews) {
            if (pr.outcome() instanceof ReviewOutcome.Reviewed r && r.review().verdict() == Verdict.FAIL) {
                List<String> issues = r.review().criticalIssues();
                if (issues.isEmpty()) {
                    out.add(pr.reviewerId() + ": FAIL");
                }
                issues.forEach(i -> out.add(pr.reviewerId() + ": " + i));
            }
        }
        return out;
    }

    /**
     * Runs {@code hold} in a transaction of its own, committed whatever becomes of the caller's: a FAIL
     * received before another reviewer's exception ended a panel inside a chunk holds its item though
     * that exception rolls the chunk back (an open circuit breaker, a rejected key).
     */
    public static void apart(JdbcTemplate jdbc, Runnable hold) {
        TransactionTemplate own = new TransactionTemplate(new DataSourceTransactionManager(
                java.util.Objects.requireNonNull(jdbc.getDataSource(), "dataSource")));
        own.setPropagationBehavior(TransactionDefinition.PROPAGATION_REQUIRES_NEW);
        own.executeWithoutResult(status -> hold.run());
    }

    /**
     * Flags {@code item} when {@code issues} is not empty and {@code text} is still its current text
     * ({@code currentText} reads it): the item becomes ACTIVE, flagged on its current revision.
     *
     * @param source what saw the FAIL, for the log
     * @return whether the item was flagged
     */
    public static boolean hold(Store store, LoopStore loop, long runPk, int round, String itemId, String text, List<String> issues,
            java.util.function.Function<Store.StoredItem, String> currentText, String source) {
        if (issues.isEmpty()) {
            return false;
        }
        Optional<Store.StoredItem> item = store.item(runPk, itemId)
                .filter(it -> ItemState.NICE.equals(it.state()) || ItemState.ACTIVE.equals(it.state()))
                .filter(it -> text.equals(currentText.apply(it)));
        if (item.isEmpty()) {
            return false;
        }
        store.setState(runPk, itemId, ItemState.ACTIVE);
        loop.flag(runPk, itemId, item.get().currentRev(), round, issues);
        log.warn("{}: {} failed on its current text ({}); held unless a later fix resolves it", source, itemId,
                String.join("; ", issues));
        return true;
    }
}
