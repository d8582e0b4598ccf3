package dev.wg1bench.tpcc;

import dev.wg1bench.api.JdbcWorkload;
import dev.wg1bench.api.Op;
import java.io.PrintStream;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;

/**
 * TPC-C 5.11 on the public API ({@code --workload tpcc}): one op is one transaction of the five,
 * dealt from a shuffled deck of 100 cards per terminal (clause 5.2.4.2's deck, with HammerDB's mix:
 * 45 New-Order, 43 Payment, 4 each of Order-Status, Delivery and Stock-Level), each timed as a step
 * of its own name. Client k is a terminal of warehouse 1 + k mod W. No keying or think time by
 * default: the terminals send their next transaction at once, as HammerDB does; {@code -D
 * keyandthink=true} adds clause 5.2.5.7's (see {@link KeyingAndThinking}).
 *
 * <p>A New-Order that names the unused item rolls back by design (clause 2.4.2.3): the op succeeds,
 * timed on the step {@value #NEW_ORDER} and reported with {@link Op#rolledBackByDesign()}, so the
 * step's count less its rolled-back ones is the committed New-Orders, NOPM's numerator.
 */
public final class Tpcc implements JdbcWorkload {
  public static final String NEW_ORDER = "new_order";
  public static final String PAYMENT = "payment";
  public static final String ORDER_STATUS = "order_status";
  public static final String DELIVERY = "delivery";
  public static final String STOCK_LEVEL = "stock_level";

  /** The deck: 100 cards per pass, in these counts (clause 5.2.3's minimum mix and HammerDB's). */
  private static final int[] MIX = {45, 43, 4, 4, 4};

  private final int[] deck = new int[100];
  private int dealt = deck.length;
  private Terminal terminal;

  /**
   * Before each trial: the tables must be loaded; a database without them fails the run in one line
   * that names the command which loads them.
   */
  @Override
  public void setUp(DataSource dataSource, Map<String, String> params) throws SQLException {
    fullCheck(params);
    KeyingAndThinking.on(params.get("keyandthink"));
    try (Connection c = dataSource.getConnection()) {
      warehouses(c);
    }
  }

  /**
   * The nine tables: {@code --table-option} sets their storage parameters (autovacuum's, as the NTT
   * slides' long runs did; a fillfactor applies to pages written after it) and a long run samples
   * their sizes, dead tuples and autovacuum runs.
   */
  @Override
  public List<String> tables() {
    return Schema.TABLES;
  }

  /**
   * The embedded server's tables ({@code --workload tpcc} with no --target): {@code warehouses}
   * warehouses loaded as {@code init --workload tpcc} loads them, on a server made for this run and
   * removed at its end, which no init could have reached. The workload registry calls it by name.
   */
  public static String loadFresh(DataSource dataSource, int warehouses, PrintStream log)
      throws SQLException {
    new TpccLoader(dataSource, log)
        .load(warehouses, false, TpccLoader.defaultThreads(warehouses), System.nanoTime());
    return "TPC-C, " + warehouses + " warehouse(s), loaded on the fresh server";
  }

  /** W, the warehouses loaded; a SQLException naming init when there are none. */
  static int warehouses(Connection c) throws SQLException {
    try (Statement st = c.createStatement()) {
      for (String t : Schema.TABLES) {
        try (ResultSet rs = st.executeQuery("SELECT to_regclass('" + t + "') IS NULL")) {
          rs.next();
          if (rs.getBoolean(1)) {
            throw new SQLException(
                "table "
                    + t
                    + " does not exist: load TPC-C's tables first with 'wg1bench init --workload"
                    + " tpcc --scale W --target URL'",
                "42P01");
          }
        }
      }
      try (ResultSet rs =
          st.executeQuery("SELECT count(*), coalesce(max(w_id), 0) FROM warehouse")) {
        rs.next();
        if (rs.getInt(1) == 0 || rs.getInt(1) != rs.getInt(2)) {
          throw new SQLException(
              "table warehouse holds no warehouses 1..W: load TPC-C's tables with 'wg1bench init"
                  + " --workload tpcc --scale W --target URL --force'",
              "42P01");
        }
        return rs.getInt(1);
      }
    }
  }

  @Override
  public void open(Op op) throws SQLException {
    Connection c = op.connection();
    terminal =
        Terminal.of(op.client(), warehouses(c), Constants.read(c), new TpccRandom(op.random()));
    keyAndThink = KeyingAndThinking.on(op.param("keyandthink"));
  }

  /** Whether the terminal's user keys and thinks (clause 5.2.5.7) around each transaction. */
  private boolean keyAndThink;

  /** The transaction being tried, and its inputs: a retry repeats them (see Op.attempt()). */
  private int card;

  private NewOrder.Input newOrder;
  private Payment.Input payment;

  @Override
  public void op(Op op) throws Exception {
    Connection c = op.connection();
    if (op.attempt() == 1) {
      card = upcoming >= 0 ? upcoming : next(op);
      newOrder = card == 0 ? NewOrder.input(terminal) : null;
      payment = card == 1 ? Payment.input(terminal) : null;
      if (keyAndThink) {
        // the user thinks after this transaction, then keys the next one's input: the next card is
        // dealt now, so that both times are waited before the next op (Op.thinkTime), outside the
        // response times. A terminal's first transaction goes without its keying time.
        upcoming = next(op);
        op.thinkTime(
            KeyingAndThinking.think(card, op.random()).plus(KeyingAndThinking.keying(upcoming)));
      }
    }
    transaction(op, c);
  }

  /** Under keying and think times, the card of the next transaction, dealt ahead; else -1. */
  private int upcoming = -1;

  /** The card's transaction, timed as the step of its name. */
  private void transaction(Op op, Connection c) throws Exception {
    switch (card) {
      case 0 -> {
        NewOrder.Input in = newOrder;
        op.step(
            NEW_ORDER,
            () -> {
              if (!NewOrder.run(c, in)) {
                op.rolledBackByDesign();
              }
            });
      }
      case 1 -> {
        Payment.Input in = payment;
        op.step(PAYMENT, () -> Payment.run(c, in));
      }
      case 2 -> op.step(ORDER_STATUS, () -> OrderStatus.run(c, terminal));
      case 3 -> op.step(DELIVERY, () -> Delivery.run(c, terminal));
      default -> op.step(STOCK_LEVEL, () -> StockLevel.run(c, terminal));
    }
  }

  /** The next card, the deck shuffled anew once all 100 are dealt. */
  private int next(Op op) {
    if (dealt == deck.length) {
      int k = 0;
      for (int type = 0; type < MIX.length; type++) {
        for (int i = 0; i < MIX[type]; i++) {
          deck[k++] = type;
        }
      }
      for (int i = deck.length - 1; i > 0; i--) {
        int j = op.random().nextInt(i + 1);
        int t = deck[i];
        deck[i] = deck[j];
        deck[j] = t;
      }
      dealt = 0;
    }
    return deck[dealt++];
  }

  /**
   * Under --check: clause 3.3.2's consistency conditions 1 to 4, 8 and 9; with {@code -D
   * check=full} all twelve, each named with its clause and rule and said to hold or not.
   */
  @Override
  public Map<String, String> checkConditions(
      DataSource dataSource, long committedOps, Map<String, String> params) throws SQLException {
    try (Connection c = dataSource.getConnection()) {
      return Consistency.check(c, fullCheck(params));
    }
  }

  /** The same conditions for a caller of the API: an AssertionError names every one that fails. */
  @Override
  public void check(DataSource dataSource, long committedOps, Map<String, String> params)
      throws SQLException {
    List<String> failures = new ArrayList<>();
    checkConditions(dataSource, committedOps, params)
        .forEach(
            (k, broke) -> {
              if (broke != null) {
                failures.add(k + " " + broke);
              }
            });
    if (!failures.isEmpty()) {
      throw new AssertionError(String.join("; ", failures));
    }
  }

  /** -D check=full asks for all twelve conditions; any other value is refused before the run. */
  private static boolean fullCheck(Map<String, String> params) {
    String depth = params.getOrDefault("check", "");
    if (!depth.isEmpty() && !depth.equals("full")) {
      throw new IllegalArgumentException(
          "-D check="
              + depth
              + " is not valid: the only value is full (all twelve conditions of"
              + " TPC-C 3.3.2)");
    }
    return depth.equals("full");
  }
}
