package dev.wg1bench.result;

/**
 * A trial's mean latency and throughput predicted at one round-trip time (Predictions): the JSON's
 * {@code measurement.prediction[]}.
 *
 * @param rttMs the round-trip time predicted at, in ms
 * @param latencyMeanMs the predicted mean latency of an op, in ms
 * @param tps the predicted successful ops per second at the trial's clients; null where undefined
 */
public record Prediction(double rttMs, double latencyMeanMs, Double tps) {}
