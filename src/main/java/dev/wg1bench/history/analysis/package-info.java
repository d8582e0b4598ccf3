/**
 * A history's series and what is computed on them: change points (E-Divisive means) with their
 * figures and formats, and counts tested as rates; it knows nothing of where the runs are kept.
 */
package dev.wg1bench.history.analysis;
