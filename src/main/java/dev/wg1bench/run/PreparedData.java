package dev.wg1bench.run;

/** What a workload runs on: the scale its scripts see as :scale, and a description. */
record PreparedData(int scale, String description) {
  static PreparedData pgbench(int scale) {
    return new PreparedData(scale, "pgbench scale " + scale);
  }
}
