/**
 * The export step and the run's outputs: catalog.csv and the other CSV files (each item where the
 * shipping invariant places it), report.json (typed records written by Jackson), report.html, the
 * audit file and its filled-in copy, the printed summary.
 */
@NullMarked
package dev.santabatch.export;

import org.jspecify.annotations.NullMarked;
