package dev.santabatch.review.llm;

import dev.santabatch.config.Criterion;
import dev.santabatch.review.ReviewRequest;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * The digest of the reviewer prompt templates: the system and user messages a model reviewer is
 * sent, rendered with placeholders for everything that comes from the job file or the item. A build
 * whose templates say anything else to a reviewer has another digest, and its verdicts are not
 * carried over from runs made with the old templates (docs/carry-over.md).
 */
public final class PromptTemplates {

    private PromptTemplates() {}

    /** SHA-256 of the reviewer templates, hex. */
    public static String digest() {
        ReviewRequest placeholder = new ReviewRequest("{task-spec}", "{item-id}", Map.of("{column}", "{value}"),
                "{content}", List.of(new Criterion("{criterion}", "{name}", "{pass}", "{fail-signal}",
                        Criterion.CheckedBy.SANTA, List.of())));
        String text = Prompts.reviewerSystem() + "\n\u0000\n" + Prompts.reviewerUser(placeholder);
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
