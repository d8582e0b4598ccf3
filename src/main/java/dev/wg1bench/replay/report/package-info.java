/**
 * Turning what a trial measured into its result, and writing results: the report, the tables and
 * their columns, and the verdict on how faithful the replay was.
 */
package dev.wg1bench.replay.report;
