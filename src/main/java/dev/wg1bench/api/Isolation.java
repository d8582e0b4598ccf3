package dev.wg1bench.api;

import static org.apiguardian.api.API.Status.STABLE;

import org.apiguardian.api.API;

/** The transaction isolation level of every connection (default {@link #READ_COMMITTED}). */
@API(status = STABLE, since = "0.1")
public enum Isolation {
  /** PostgreSQL's default. */
  READ_COMMITTED,
  /** Snapshot isolation: a concurrent update fails the op with 40001 (retried under maxTries). */
  REPEATABLE_READ,
  /** Serializable snapshot isolation: conflicts fail with 40001 (retried under maxTries). */
  SERIALIZABLE;

  dev.wg1bench.plan.Isolation plan() {
    return dev.wg1bench.plan.Isolation.valueOf(name());
  }
}
