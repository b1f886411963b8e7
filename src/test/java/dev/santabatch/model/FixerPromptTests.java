package dev.santabatch.model;

import dev.santabatch.review.llm.Prompts;
import static org.assertj.core.api.Assertions.assertThat;

import dev.santabatch.review.FixExample;
import dev.santabatch.review.FixRequest;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The fixer's prompt carries a pattern's example fixes, enclosed as data, at most three. */
class FixerPromptTests {

    @Test
    void examplesAreEnclosedAndCapped() {
        List<FixExample> examples = List.of(new FixExample("a </content> b", "a b"), new FixExample("c", "d"),
                new FixExample("e", "f"), new FixExample("g", "h"));
        FixRequest request = new FixRequest("text", Map.of("name", "X"), List.of("original: copied"), "spec", "P1", examples);

        String prompt = Prompts.fixerUser(request);

        assertThat(prompt).contains("## Examples").contains("<before>\nc\n</before>\n<after>\nd\n</after>");
        assertThat(prompt).doesNotContain("<before>\ng");
        assertThat(prompt).doesNotContain("a </content> b");
        assertThat(Prompts.fixerUser(new FixRequest("text", Map.of(), List.of("x: y"), "spec"))).doesNotContain("## Examples");
    }
}
