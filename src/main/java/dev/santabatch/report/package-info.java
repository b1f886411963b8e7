/** Run outputs meant for people: {@link dev.santabatch.report.AuditFile} (audit.csv and its filled-in copy). */
@NullMarked
package dev.santabatch.report;

import org.jspecify.annotations.NullMarked;
