package dev.wg1bench.api;

import static org.apiguardian.api.API.Status.STABLE;

import org.apiguardian.api.API;

/**
 * How statements go to the server, as pgbench's {@code --protocol} (default {@link #SIMPLE}, as the
 * command line's {@code --query-mode}).
 */
@API(status = STABLE, since = "0.1")
public enum QueryMode {
  /** One query message per statement, values inlined: pgbench's simple protocol. */
  SIMPLE,
  /** Parse, bind and execute for each statement, nothing kept: pgbench's extended protocol. */
  EXTENDED,
  /** Server-side prepared statements from the first execution: pgbench's prepared protocol. */
  PREPARED;

  dev.wg1bench.plan.QueryMode plan() {
    return dev.wg1bench.plan.QueryMode.valueOf(name());
  }
}
