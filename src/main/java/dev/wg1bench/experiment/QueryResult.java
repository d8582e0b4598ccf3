package dev.wg1bench.experiment;

/**
 * One query timed on a warm cache: one untimed run, then {@code repeat} timed runs of {@code
 * EXPLAIN (ANALYZE, BUFFERS, TIMING OFF, FORMAT JSON)}, as the seed measured with EXPLAIN ANALYZE.
 *
 * @param sql the query (without EXPLAIN)
 * @param executionMs the server's "Execution Time" of each timed run
 * @param wallMs the client's elapsed time of each timed EXPLAIN ANALYZE round trip (planning and
 *     network included)
 * @param rows rows the query returned
 * @param scan how the measured table was read: {@code seq}, {@code index}, {@code index-only},
 *     {@code bitmap}, or {@code mixed} when its partitions were read differently
 * @param index the first index the plan used, null when none
 * @param indexUsed whether the plan read the table through an index
 * @param scans scan nodes on the table or its partitions (partitions not pruned)
 * @param plan the plan's node types, top down (scans on partitions collapsed into one entry)
 * @param sharedHitBlocks buffers found in shared_buffers (last timed run)
 * @param sharedReadBlocks buffers read from the OS (last timed run)
 */
public record QueryResult(
    String sql,
    Timings executionMs,
    Timings wallMs,
    long rows,
    String scan,
    String index,
    boolean indexUsed,
    int scans,
    String plan,
    long sharedHitBlocks,
    long sharedReadBlocks) {}
