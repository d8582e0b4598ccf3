/**
 * The result of a replay trial and of a sweep of trials, as records: filled by the player and the
 * report, read by the tables, the verdict and the history's store.
 */
package dev.wg1bench.replay.result;
