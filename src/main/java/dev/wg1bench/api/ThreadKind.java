package dev.wg1bench.api;

/** What the clients run on (default {@link #PLATFORM}). */
public enum ThreadKind {
  /** One platform thread per client. */
  PLATFORM,
  /** One virtual thread per client; needs a Java 21+ runtime. */
  VIRTUAL;

  dev.wg1bench.plan.ThreadKind plan() {
    return dev.wg1bench.plan.ThreadKind.valueOf(name());
  }
}
