/**
 * From the log's records to the capture: the sessions and their statements, their order, what can
 * be replayed and what is selected, modelled from what the server logged: the second stage.
 */
package dev.wg1bench.replay.capture;
