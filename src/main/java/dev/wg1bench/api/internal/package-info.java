/**
 * Plumbing of the Java API, not part of it: what the workload registry and the command line reach
 * through a {@link java.util.ServiceLoader} or from another package, so it must be public, kept out
 * of {@code dev.wg1bench.api} (the whole public surface). It may change without notice.
 */
package dev.wg1bench.api.internal;
