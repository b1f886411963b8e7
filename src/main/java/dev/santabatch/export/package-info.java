/** Run outputs meant for people: {@link dev.santabatch.export.AuditFile} (audit.csv and its filled-in copy). */
@NullMarked
package dev.santabatch.export;

import org.jspecify.annotations.NullMarked;
