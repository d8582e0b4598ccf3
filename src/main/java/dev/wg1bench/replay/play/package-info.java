/**
 * Playing one trial of a capture against a server: the session threads, the order gate and the
 * watchdog, the pool, the reset between trials, and what the player measured as it went.
 */
package dev.wg1bench.replay.play;
