package dev.wg1bench.result;

/**
 * The connection pool clients shared, when --pool-size was below --clients.
 *
 * @param implementation pool library and version
 * @param size connections in the pool (minimum idle = maximum)
 * @param connectionTimeoutMs how long an op waits for a connection before failing
 */
public record PoolInfo(String implementation, int size, long connectionTimeoutMs) {}
