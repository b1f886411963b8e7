/** The model reviewer and fixer: the seed's prompts, the review schema, the prompt-template digest. */
@NullMarked
package dev.santabatch.review.llm;

import org.jspecify.annotations.NullMarked;
