/** Text utilities shared by the rules, the reviewers and the ground-truth scoring. */
@NullMarked
package dev.santabatch.text;

import org.jspecify.annotations.NullMarked;
