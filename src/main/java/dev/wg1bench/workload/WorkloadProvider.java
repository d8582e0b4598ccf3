package dev.wg1bench.workload;

import dev.wg1bench.plan.RunPlan;

/**
 * Workloads that live outside this package, found through {@link java.util.ServiceLoader}: the Java
 * API's user-written workload classes. A provider claims the names it knows ({@code class:...}) and
 * returns null for every other.
 */
public interface WorkloadProvider {
  Workload resolve(String name, RunPlan plan);
}
