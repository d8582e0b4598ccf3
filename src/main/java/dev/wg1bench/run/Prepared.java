package dev.wg1bench.run;

/** What a workload runs on: the scale its scripts see as :scale, and a description. */
record Prepared(int scale, String description) {
  static Prepared pgbench(int scale) {
    return new Prepared(scale, "pgbench scale " + scale);
  }
}
