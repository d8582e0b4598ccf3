package dev.wg1bench.api;

import java.sql.Connection;
import java.util.Random;

/** What one op of a {@link JdbcWorkload} is given. */
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

  /** A run parameter ({@code -D NAME=VALUE}), or null when it was not given. */
  String param(String name);

  /** A run parameter as an int, or {@code fallback} when it was not given. */
  default int intParam(String name, int fallback) {
    String v = param(name);
    return v == null ? fallback : Integer.parseInt(v.strip());
  }
}
