/**
 * The CI gate ({@code history check}): each series' latest runs judged against the segment before
 * them, borderline ones re-measured on this machine, and the findings as console lines and JSON.
 */
package dev.wg1bench.history.gate;
