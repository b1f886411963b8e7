/** The batch fix of systematic patterns: learned rules, narrowing, the model matcher, the offline scan. */
@NullMarked
package dev.santabatch.batchfix;

import org.jspecify.annotations.NullMarked;
