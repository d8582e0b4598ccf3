package dev.wg1bench.api;

import static org.apiguardian.api.API.Status.STABLE;

import java.sql.Connection;
import java.time.Duration;
import java.util.Random;
import java.util.concurrent.Callable;
import org.apiguardian.api.API;

/** What one op of a {@link JdbcWorkload} is given. */
@API(status = STABLE, since = "0.1")
public interface Op {
  /**
   * The connection for this op: the client's own, or one borrowed from the pool under {@code
   * --pool-size}, with the run's driver properties, isolation and session settings applied. Do not
   * close it; leave it outside a transaction (autocommit as given, or committed).
   */
  Connection connection();

  /** The client's random source, seeded from {@code --random-seed} and the client's number. */
  Random random();

  /** This client's number, from 0. */
  int client();

  /** How many clients the run has. */
  int clients();

  /**
   * Which try of this op this is: 1, then 2 and on when the op is tried again after a serialization
   * failure or deadlock under {@code --max-tries}. A retry should repeat the same work (the same
   * inputs), as a terminal resubmits the same transaction.
   */
  int attempt();

  /** A run parameter ({@code -D NAME=VALUE}), or null when it was not given. */
  String param(String name);

  /**
   * Runs {@code step} as a named, timed part of this op: its latency, failures and retries are
   * reported per step name, as pgbench -r reports each statement of a script (mean latency in ms,
   * count, failures, and a latency histogram), over the same measured ops as the headline. An
   * exception out of the step is rethrown as it is: the op fails (or is retried) as usual, and the
   * failure (or retry) is counted on this step.
   *
   * <pre>{@code
   * op.step("load order", () -> orders.load(id));
   * Order o = op.step("load order", () -> orders.find(id));
   * }</pre>
   */
  void step(String name, Step step) throws Exception;

  /** As {@link #step(String, Step)}, for a step that returns a value; returns it. */
  <T> T step(String name, Callable<T> step) throws Exception;

  /**
   * Reports that the step running now ended in a rollback the workload meant (TPC-C's New-Order
   * naming an unused item, clause 2.4.2.3): the step completes as a success, timed as usual, and is
   * counted besides as rolled back by design ({@code rolledBack} beside {@code count} in the
   * result, so {@code count - rolledBack} committed). Not a failure and not retried. Call it inside
   * {@link #step}, after rolling back; outside any step it throws {@link IllegalStateException}.
   */
  void rolledBackByDesign();

  /**
   * The application's user thinks for {@code time} after this op (TPC-C's think and keying times,
   * clause 5.2.5.7): this client's next op starts no sooner than {@code time} after this one ended.
   * The wait is outside every op's latency, so latency stays the response time, and inside the
   * throughput (a client that thinks runs fewer ops, as a terminal does). It is carried across the
   * trial's iterations, never holding one open, and a run keeps its duration. The last call in an
   * op counts; zero or negative waits nothing (the default: the next op starts at once).
   */
  void thinkTime(Duration time);

  /** A part of an op that returns nothing and may throw. */
  @API(status = STABLE, since = "0.1")
  @FunctionalInterface
  interface Step {
    void run() throws Exception;
  }

  /** A run parameter as an int, or {@code fallback} when it was not given. */
  default int intParam(String name, int fallback) {
    String v = param(name);
    return v == null ? fallback : Integer.parseInt(v.strip());
  }
}
