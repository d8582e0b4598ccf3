package dev.wg1bench.api;

import static org.apiguardian.api.API.Status.STABLE;

import org.apiguardian.api.API;

/** What the clients run on (default {@link #PLATFORM}). */
@API(status = STABLE, since = "0.1")
public enum ThreadKind {
  /** One platform thread per client. */
  PLATFORM,
  /** One virtual thread per client; needs a Java 21+ runtime. */
  VIRTUAL;

  dev.wg1bench.plan.ThreadKind plan() {
    return dev.wg1bench.plan.ThreadKind.valueOf(name());
  }
}
