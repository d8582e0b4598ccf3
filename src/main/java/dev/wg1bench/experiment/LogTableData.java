package dev.wg1bench.experiment;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;

/**
 * The log table experiment's month of access-log rows (seed 2015 §5.2), generated once per run from
 * a fixed seed and loaded by COPY in time order or shuffled: columns as arrays, the day of row i is
 * i * DAYS / n, times increasing.
 */
record LogTableData(int[] day, int[] second, int[][] cols) {
  static LogTableData generate(int n, long seed) {
    SplittableRandom rnd = new SplittableRandom(seed);
    int[] day = new int[n];
    int[] second = new int[n];
    int[][] cols = new int[7][n];
    long[] start = new long[LogTableExperiment.DAYS + 1];
    for (int d = 0; d <= LogTableExperiment.DAYS; d++) {
      start[d] = (long) d * n / LogTableExperiment.DAYS;
    }
    for (int d = 0; d < LogTableExperiment.DAYS; d++) {
      long len = start[d + 1] - start[d];
      for (long i = start[d]; i < start[d + 1]; i++) {
        day[(int) i] = d;
        second[(int) i] = (int) ((i - start[d]) * 86400 / Math.max(len, 1));
      }
    }
    for (int i = 0; i < n; i++) {
      cols[0][i] = 1 + rnd.nextInt(LogTableExperiment.PRODUCTS); // productid
      cols[1][i] = 1 + rnd.nextInt(50); // place_id
      cols[2][i] = 1 + rnd.nextInt(1000); // machine_id
      cols[3][i] = 1 + rnd.nextInt(20); // app_id
      cols[4][i] = rnd.nextInt(300); // access_time_second
      cols[5][i] = 1 + rnd.nextInt(100); // access_count
      cols[6][i] = rnd.nextInt(10) < 9 ? 0 : 1 + rnd.nextInt(9); // err_code
    }
    return new LogTableData(day, second, cols);
  }

  /** CSV in (date, time) order, or shuffled (a fixed permutation, the same in every run). */
  byte[] csv(boolean shuffled) {
    int n = day.length;
    int[] perm = new int[n];
    for (int i = 0; i < n; i++) {
      perm[i] = i;
    }
    if (shuffled) {
      SplittableRandom rnd = new SplittableRandom(42);
      for (int i = n - 1; i > 0; i--) {
        int j = rnd.nextInt(i + 1);
        int t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
      }
    }
    String[] days = new String[LogTableExperiment.DAYS];
    for (int d = 0; d < LogTableExperiment.DAYS; d++) {
      days[d] = LogTableExperiment.day(d);
    }
    ByteArrayOutputStream b = new ByteArrayOutputStream(n * 48);
    StringBuilder s = new StringBuilder(64);
    for (int k = 0; k < n; k++) {
      int i = perm[k];
      int sec = second[i];
      s.setLength(0);
      s.append(days[day[i]]).append(',');
      two(s, sec / 3600);
      two(s, sec / 60 % 60);
      two(s, sec % 60);
      for (int[] col : cols) {
        s.append(',').append(col[i]);
      }
      s.append('\n');
      b.writeBytes(s.toString().getBytes(StandardCharsets.US_ASCII));
    }
    return b.toByteArray();
  }

  private static void two(StringBuilder s, int v) {
    s.append((char) ('0' + v / 10)).append((char) ('0' + v % 10));
  }
}
