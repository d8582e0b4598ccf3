/**
 * The history's files in other tools' formats: exported for Otava, Bencher and
 * github-action-benchmark (and as plain CSV), and Otava's CSV and JSON imported as stored runs.
 */
package dev.wg1bench.history.format;
