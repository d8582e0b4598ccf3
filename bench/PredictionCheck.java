import dev.wg1bench.server.delay.DelayedSocketFactory;
import dev.wg1bench.server.wire.Wire;
import dev.wg1bench.server.wire.WireCounts;
import dev.wg1bench.server.wire.WireMark;
import dev.wg1bench.server.wire.WireSocketFactory;
import dev.wg1bench.stats.OpTime;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Properties;

/**
 * How far stats/OpTime's prediction holds, on one client: each op is measured at no added RTT on a
 * counted connection (its mean latency and round trips per op), predicted at 0.5, 1 and 2 ms, then
 * measured through the --rtt delay line at each (as `--rtt` runs it). Server time is left in the
 * rest (it does not change with the RTT, so the prediction is the same either way).
 *
 * <pre>java -cp target/wg1bench.jar bench/PredictionCheck.java URL SECONDS</pre>
 *
 * Ops: point (one lookup), nplus1 (ten lookups), any (one = ANY query of ten rows), batch100 (a
 * 100-row JDBC batch insert into a temporary table), tpcb (pgbench's TPC-B-like transaction on the
 * database's pgbench tables at scale 1, as its builtin script sends it: BEGIN, three updates, a
 * select, an insert, END, seven round trips; left out where the tables are not there). With one
 * client no op waits for another's row lock, so the commit's flush is server time like the rest:
 * the case the prediction is for.
 */
public final class PredictionCheck {
  public static void main(String[] args) throws Exception {
    String url = args[0];
    double seconds = Double.parseDouble(args[1]);
    System.out.println("op roundTripsPerOp rttMs predictedMs measuredMs errorPct");
    for (String op : ops(url)) {
      double[] base = measure(url, op, Duration.ZERO, seconds);
      OpTime.Split split = OpTime.split(base[0], 0, base[1], 0);
      for (OpTime.Prediction p : OpTime.predict(split, OpTime.DEFAULT_RTTS_MS, 1, Double.NaN)) {
        double measured =
            measure(url, op, Duration.ofNanos((long) (p.rttMs() * 1e6)), seconds)[0];
        System.out.printf(
            "%s %.2f %.1f %.3f %.3f %+.1f%n",
            op,
            base[1],
            p.rttMs(),
            p.latencyMeanMs(),
            measured,
            100 * (p.latencyMeanMs() - measured) / measured);
      }
    }
  }

  /** The ops this database can run: tpcb needs pgbench's tables (pgbench -i -s 1). */
  static List<String> ops(String url) throws Exception {
    try (Connection c = new org.postgresql.Driver().connect(url, new Properties());
        Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT to_regclass('pgbench_accounts') IS NOT NULL")) {
      rs.next();
      if (rs.getBoolean(1)) {
        return List.of("point", "nplus1", "any", "batch100", "tpcb");
      }
      System.out.println("# tpcb left out: no pgbench tables in this database (pgbench -i -s 1)");
      return List.of("point", "nplus1", "any", "batch100");
    }
  }

  /** Mean latency (ms) and round trips per op, after a warm-up of a third of the time. */
  static double[] measure(String url, String op, Duration rtt, double seconds) throws Exception {
    Properties p = new Properties();
    if (!rtt.isZero()) {
      DelayedSocketFactory.install(p, rtt);
    } else {
      // as the tool's clients without --rtt: a channel's socket, one blocking read per answer
      p.setProperty("socketFactory", dev.wg1bench.server.BlockingSocketFactory.class.getName());
    }
    WireSocketFactory.install(p, url);
    try (Connection c = new org.postgresql.Driver().connect(url, p);
        Statement st = c.createStatement()) {
      st.execute("CREATE TEMP TABLE b (i int)");
      st.execute("CREATE TEMP TABLE l (id int PRIMARY KEY, v text)");
      st.execute("INSERT INTO l SELECT g, md5(g::text) FROM generate_series(1, 1000) g");
      st.execute("ANALYZE l");
      WireCounts w = Wire.of(c);
      WireMark m = new WireMark();
      try (PreparedStatement one = c.prepareStatement("SELECT v FROM l WHERE id = ?");
          PreparedStatement any = c.prepareStatement("SELECT v FROM l WHERE id = ANY(?)");
          PreparedStatement ins = c.prepareStatement("INSERT INTO b VALUES (?)");
          Tpcb tpcb = op.equals("tpcb") ? new Tpcb(c) : null) {
        long warm = System.nanoTime() + (long) (seconds / 3 * 1e9);
        while (System.nanoTime() < warm) {
          run(op, one, any, ins, tpcb, c);
        }
        st.execute("TRUNCATE b");
        long n = 0;
        long total = 0;
        m.take(w);
        long end = System.nanoTime() + (long) (seconds * 1e9);
        while (System.nanoTime() < end) {
          long t = System.nanoTime();
          run(op, one, any, ins, tpcb, c);
          total += System.nanoTime() - t;
          n++;
        }
        return new double[] {total / 1e6 / n, (double) m.roundTrips() / n};
      }
    }
  }

  static void run(
      String op,
      PreparedStatement one,
      PreparedStatement any,
      PreparedStatement ins,
      Tpcb tpcb,
      Connection c)
      throws Exception {
    switch (op) {
      case "tpcb" -> tpcb.run();
      case "point" -> lookup(one, 1);
      case "nplus1" -> {
        for (int i = 1; i <= 10; i++) {
          lookup(one, i);
        }
      }
      case "any" -> {
        any.setArray(1, c.createArrayOf("int4", new Integer[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10}));
        try (ResultSet rs = any.executeQuery()) {
          while (rs.next()) {
            rs.getString(1);
          }
        }
      }
      default -> {
        for (int i = 0; i < 100; i++) {
          ins.setInt(1, i);
          ins.addBatch();
        }
        ins.executeBatch();
      }
    }
  }

  static void lookup(PreparedStatement ps, int id) throws Exception {
    ps.setInt(1, id);
    try (ResultSet rs = ps.executeQuery()) {
      rs.next();
      rs.getString(1);
    }
  }

  /** pgbench's builtin tpcb-like script at scale 1, its statements prepared, in autocommit. */
  static final class Tpcb implements AutoCloseable {
    private final java.util.Random random = new java.util.Random(1);
    private final PreparedStatement begin;
    private final PreparedStatement accounts;
    private final PreparedStatement balance;
    private final PreparedStatement tellers;
    private final PreparedStatement branches;
    private final PreparedStatement history;
    private final PreparedStatement end;

    Tpcb(Connection c) throws Exception {
      begin = c.prepareStatement("BEGIN");
      accounts = c.prepareStatement("UPDATE pgbench_accounts SET abalance = abalance + ? WHERE aid = ?");
      balance = c.prepareStatement("SELECT abalance FROM pgbench_accounts WHERE aid = ?");
      tellers = c.prepareStatement("UPDATE pgbench_tellers SET tbalance = tbalance + ? WHERE tid = ?");
      branches = c.prepareStatement("UPDATE pgbench_branches SET bbalance = bbalance + ? WHERE bid = ?");
      history =
          c.prepareStatement(
              "INSERT INTO pgbench_history (tid, bid, aid, delta, mtime)"
                  + " VALUES (?, ?, ?, ?, CURRENT_TIMESTAMP)");
      end = c.prepareStatement("END");
    }

    void run() throws Exception {
      int aid = 1 + random.nextInt(100_000);
      int tid = 1 + random.nextInt(10);
      int bid = 1;
      int delta = random.nextInt(10_001) - 5_000;
      begin.execute();
      update(accounts, delta, aid);
      balance.setInt(1, aid);
      try (ResultSet rs = balance.executeQuery()) {
        rs.next();
      }
      update(tellers, delta, tid);
      update(branches, delta, bid);
      history.setInt(1, tid);
      history.setInt(2, bid);
      history.setInt(3, aid);
      history.setInt(4, delta);
      history.executeUpdate();
      end.execute();
    }

    private static void update(PreparedStatement ps, int delta, int key) throws Exception {
      ps.setInt(1, delta);
      ps.setInt(2, key);
      ps.executeUpdate();
    }

    @Override
    public void close() throws Exception {
      for (PreparedStatement ps : List.of(begin, accounts, balance, tellers, branches, history, end)) {
        ps.close();
      }
    }
  }
}
