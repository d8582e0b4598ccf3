package dev.wg1bench.plan;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.postgresql.PGProperty;

/**
 * Every knob a run varies, each declared once: option, help, sweep, check, place in the plan and
 * label. The order here is the order of a point's labels and of the sweep's nesting (the first knob
 * varies slowest in a sequential run).
 *
 * <p><b>Knob or {@code @Option}:</b> a setting that can differ between the points of a run (it
 * sweeps, or it sets up the clients' connections or sessions, so it appears in a point's label and
 * its JSON/CSV column) is a {@link Knob}, declared here; the Java API and replay's arms get it from
 * this declaration. Anything else (how long and how often to measure, where to write, what to
 * print, pgbench compatibility) is a plain picocli {@code @Option} on the command, or on a mixin in
 * {@code cli} when several commands share it. A knob that maps to a pgjdbc property declares it
 * with {@code stored(...).pgjdbc(...)} (--binary-transfer, --fetch-size, --rewrite-batched-inserts,
 * --rtt): its value is kept as text in the plan, which forks, agents and replay read back whole;
 * the connection factory applies them all in one loop, and {@code --jdbc-property} refuses the
 * property with a pointer to the option, so a new pgjdbc knob is one declaration in this file. Only
 * --sslmode keeps a field in {@link DriverKnobs} ({@code driver(...)}): the URL's own sslmode is
 * read beside it.
 */
public final class Knobs {
  private Knobs() {}

  private static final String NAME = "[A-Za-z_][A-Za-z0-9_.]*";

  public static final Knob<String> WORKLOAD =
      Knob.<String>builder("workload", Knob.Shape.LIST, String.class, "-w", "--workload")
          .param("NAME")
          .help("Built-in workload (see 'wg1bench list'); sweeps.")
          .sweeps()
          .in(RunPlan::workload, (d, v) -> d.workload = v)
          .declare();

  /** Clients when nobody says: --help, a PlanDraft and the Java API read it from here. */
  private static final int CLIENTS_UNSET = 4;

  public static final Knob<Integer> CLIENTS =
      Knob.<Integer>builder("clients", Knob.Shape.LIST, Integer.class, "-c", "--clients")
          .param("N")
          .help(
              "Concurrent clients, one connection each (default: "
                  + CLIENTS_UNSET
                  + "); sweeps, e.g. 1,2,4,8,16.")
          .sweeps()
          .unset(CLIENTS_UNSET)
          .in(RunPlan::clients, (d, v) -> d.clients = v)
          .check((v, p) -> Checks.range("--clients", v, 1, 10_000))
          .declare();

  public static final Knob<QueryMode> QUERY_MODE =
      Knob.<QueryMode>builder("queryMode", Knob.Shape.LIST, QueryMode.class, "-M", "--query-mode")
          .param("MODE")
          .help(
              "simple, extended or prepared, as pgbench -M (default: "
                  + QueryMode.SIMPLE.cliName()
                  + "); sweeps.",
              "simple = preferQueryMode=simple; extended = preferQueryMode=extended,"
                  + " prepareThreshold=0;",
              "prepared = preferQueryMode=extended, prepareThreshold=1.")
          .sweeps()
          .parse(QueryMode::parse)
          .unset(QueryMode.SIMPLE)
          .in(p -> p.session().queryMode(), (d, v) -> d.queryMode = v)
          .format(QueryMode::cliName)
          .declare();

  /** Labelled even when unset: the point shows the level in effect ("default" = the server's). */
  public static final Knob<Isolation> ISOLATION =
      Knob.<Isolation>builder("isolation", Knob.Shape.LIST, Isolation.class, "--isolation")
          .param("LEVEL")
          .help(
              "read_committed, repeatable_read or serializable (default: the workload's, else the"
                  + " server's); sweeps.")
          .sweeps()
          .parse(Isolation::parse)
          .in(p -> p.session().isolation(), (d, v) -> d.isolation = v)
          .format(Isolation::cliName)
          .unsetLabel("default")
          .declare();

  public static final Knob<Integer> POOL_SIZE =
      Knob.<Integer>builder("poolSize", Knob.Shape.LIST, Integer.class, "--pool-size")
          .param("M")
          .help(
              "Let M pooled connections (HikariCP) serve the clients, M <= clients; time waiting"
                  + " for one is reported apart (default: one connection per client); sweeps.")
          .sweeps()
          .in(RunPlan::poolSize, (d, v) -> d.poolSize = v)
          .check((v, p) -> Checks.range("--pool-size", v, 1, p.clients()))
          .declare();

  public static final Knob<Integer> BATCH_SIZE =
      Knob.<Integer>builder("batchSize", Knob.Shape.LIST, Integer.class, "--batch-size")
          .param("N")
          .help(
              "Rows per op of insert_batch, insert_multirow and insert_copy (default: "
                  + WorkloadKnobs.DEFAULT_BATCH_SIZE
                  + "); sweeps.")
          .sweeps()
          .unset(WorkloadKnobs.DEFAULT_BATCH_SIZE)
          .in(p -> p.params().batchSize(), (d, v) -> d.batchSize = v)
          .check((v, p) -> Checks.range("--batch-size", v, 1, 100_000))
          .declare();

  public static final Knob<Double> RATE =
      Knob.<Double>builder("rate", Knob.Shape.SINGLE, Double.class, "-R", "--rate")
          .param("OPS_PER_S")
          .help(
              "Fixed rate over all clients, Poisson arrivals, as pgbench -R; latency counts from"
                  + " each op's scheduled start.")
          .in(p -> p.timing().rate(), (d, v) -> d.rate = v)
          .check(
              (v, p) -> {
                if (!(v > 0 && v <= 10_000_000)) {
                  throw new UsageException("--rate must be > 0 and <= 10000000 ops/s, got " + v);
                }
              })
          .declare();

  public static final Knob<Map<String, String>> SET =
      Knob.<Map<String, String>>builder("set", Knob.Shape.MAP, String.class, "--set")
          .param("NAME=VALUE")
          .help(
              "Session setting on every connection, repeatable (for example synchronous_commit=off);"
                  + " NAME=V1,V2 sweeps (\\, for a literal comma).")
          .sweeps()
          .labelPrefix("set.")
          .in(p -> p.session().settings(), (d, v) -> d.settings = new LinkedHashMap<>(v))
          .check(
              (v, p) -> {
                for (String k : v.keySet()) {
                  if (!k.matches(NAME)) {
                    throw new UsageException(
                        "--set '" + k + "' is not a setting name (letters, digits, _ and .)");
                  }
                }
              })
          .declare();

  public static final Knob<Integer> FILLFACTOR =
      Knob.<Integer>builder("fillfactor", Knob.Shape.LIST, Integer.class, "-F", "--fillfactor")
          .param("PCT")
          .help(
              "Fillfactor of the pgbench tables wg1bench creates (embedded server,"
                  + " --between-trials reinit); sweeps, e.g. 100,80 (HOT).")
          .sweeps()
          .in(p -> p.params().fillfactor(), (d, v) -> d.fillfactor = v)
          .check((v, p) -> Checks.range("--fillfactor", v, 10, 100))
          .declare();

  public static final Knob<Map<String, String>> TABLE_OPTION =
      Knob.<Map<String, String>>builder(
              "tableOption", Knob.Shape.MAP, String.class, "--table-option")
          .param("NAME=VALUE")
          .help(
              "Storage parameter set on the workload's tables before each trial, e.g."
                  + " autovacuum_enabled=on,off; sweeps.")
          .sweeps()
          .labelPrefix("table.")
          .in(p -> p.params().tableOptions(), (d, v) -> d.tableOptions = new LinkedHashMap<>(v))
          .check((v, p) -> checkTableOptions(v))
          .declare();

  public static final Knob<Integer> PREPARE_THRESHOLD =
      Knob.<Integer>builder(
              "prepareThreshold", Knob.Shape.LIST, Integer.class, "--prepare-threshold")
          .param("N")
          .help(
              "pgjdbc prepareThreshold, overriding the query mode's (extended and prepared modes"
                  + " only); sweeps.")
          .sweeps()
          .in(p -> p.driver().prepareThreshold(), (d, v) -> d.prepareThreshold = v)
          .check(
              (v, p) -> {
                Checks.range("--prepare-threshold", v, -1, 1_000_000);
                if (p.session().queryMode() == QueryMode.SIMPLE) {
                  throw new UsageException(
                      "--prepare-threshold has no effect with --query-mode simple; use extended"
                          + " or prepared");
                }
              })
          .declare();

  public static final Knob<Boolean> BINARY_TRANSFER =
      Knob.<Boolean>builder("binaryTransfer", Knob.Shape.LIST, Boolean.class, "--binary-transfer")
          .param("true|false")
          .help("pgjdbc binaryTransfer (default: pgjdbc's, true); sweeps.")
          .sweeps()
          .stored(Boolean::valueOf, String::valueOf)
          .pgjdbc(PGProperty.BINARY_TRANSFER)
          .declare();

  public static final Knob<Integer> FETCH_SIZE =
      Knob.<Integer>builder("fetchSize", Knob.Shape.LIST, Integer.class, "--fetch-size")
          .param("N")
          .help("pgjdbc defaultRowFetchSize (default: pgjdbc's, 0 = all rows); sweeps.")
          .sweeps()
          .stored(Integer::valueOf, String::valueOf)
          .pgjdbc(PGProperty.DEFAULT_ROW_FETCH_SIZE)
          .check((v, p) -> Checks.range("--fetch-size", v, 0, 100_000_000))
          .declare();

  public static final Knob<Boolean> REWRITE_BATCHED_INSERTS =
      Knob.<Boolean>builder(
              "rewriteBatchedInserts", Knob.Shape.FLAG, boolean.class, "--rewrite-batched-inserts")
          .help("pgjdbc reWriteBatchedInserts: send a batch of INSERTs as multi-row INSERTs.")
          .stored(Boolean::valueOf, String::valueOf)
          .pgjdbc(PGProperty.REWRITE_BATCHED_INSERTS)
          .declare();

  public static final Knob<String> SSLMODE =
      Knob.<String>builder("sslmode", Knob.Shape.SINGLE, String.class, "--sslmode")
          .param("MODE")
          .help(
              "pgjdbc sslmode: disable, allow, prefer, require, verify-ca, verify-full (default:"
                  + " pgjdbc's prefer).")
          .driver(PGProperty.SSL_MODE, DriverKnobs::sslmode, (d, v) -> d.sslmode = v)
          .check(
              (v, p) -> {
                if (!DriverKnobs.SSLMODES.contains(v)) {
                  throw new UsageException(
                      "--sslmode '"
                          + v
                          + "' is not one of "
                          + String.join(", ", DriverKnobs.SSLMODES));
                }
              })
          .declare();

  public static final Knob<Map<String, String>> JDBC_PROPERTY =
      Knob.<Map<String, String>>builder(
              "jdbcProperty", Knob.Shape.MAP, String.class, "--jdbc-property")
          .param("NAME=VALUE")
          .help(
              "Any other pgjdbc property, repeatable; the name is checked against pgjdbc's list;"
                  + " NAME=V1,V2 sweeps (\\, for a literal comma).")
          .sweeps()
          .labelPrefix("jdbc.")
          .in(p -> p.driver().properties(), (d, v) -> d.jdbcProperties = new LinkedHashMap<>(v))
          .check((v, p) -> DriverKnobs.checkProperties(v))
          .declare();

  /**
   * statement_timeout on every client session, so a sweep can show what a timeout policy does to a
   * workload; a statement it cancels (SQLSTATE 57014) fails its op as its own kind, "timeout".
   */
  public static final Knob<Duration> STATEMENT_TIMEOUT =
      Knob.<Duration>builder(
              "statementTimeout", Knob.Shape.LIST, Duration.class, "--statement-timeout")
          .param("DURATION")
          .help(
              "statement_timeout of every client session, e.g. 500ms, 0 = none (default: the"
                  + " server's); a statement it cancels fails its op as kind timeout; sweeps, e.g."
                  + " 1ms,0.")
          .sweeps()
          .parse(Durations::parse)
          .stored(Durations::parse, d -> d.isZero() ? "0" : d.toMillis() + "ms")
          .check(
              (v, p) -> {
                if (p.session().settings().containsKey("statement_timeout")) {
                  throw new UsageException(
                      "--statement-timeout and --set statement_timeout exclude each other; give"
                          + " one of them");
                }
              })
          .sessionSettings(v -> Map.of("statement_timeout", Long.toString(v.toMillis())))
          .declare();

  /**
   * What the clients run on. Virtual threads need a Java 21+ runtime, checked here so a Java 17
   * runtime refuses the plan before any server starts; unset is platform threads, recorded with
   * each trial (client.threads in the JSON).
   */
  public static final Knob<ThreadKind> THREADS =
      Knob.<ThreadKind>builder("threads", Knob.Shape.LIST, ThreadKind.class, "--threads")
          .param("KIND")
          .help(
              "platform or virtual: the clients run on platform threads or on virtual threads"
                  + " (Java 21+ runtime) (default: "
                  + ThreadKind.PLATFORM.cliName()
                  + "); sweeps, e.g. platform,virtual.")
          .sweeps()
          .parse(ThreadKind::parse)
          .stored(ThreadKind::parse, ThreadKind::cliName)
          .check((v, p) -> v.checkRuntime())
          .declare();

  /**
   * The network between the clients and the server: every client connection's replies become
   * readable this long after they arrived (server/delay's line, pgjdbc's socketFactory with this as
   * its socketFactoryArg), so an app-side choice is measured at the round-trip time of the
   * application's own network, not loopback's. 0 installs no line at all.
   */
  public static final Knob<Duration> RTT =
      Knob.<Duration>builder("rtt", Knob.Shape.LIST, Duration.class, "--rtt")
          .param("DURATION")
          .help(
              "Round-trip time added to every client connection, e.g. 0.5ms (a zone), 2ms"
                  + " (across zones); replies are readable RTT after they arrive, so a pipelined"
                  + " batch pays it once (default: 0, the path as it is); sweeps, e.g. 0,0.5ms,2ms.")
          .sweeps()
          .parse(RoundTrip::parse)
          .stored(RoundTrip::parse, RoundTrip::text)
          .pgjdbc(socketFactoryArg())
          .check(
              (v, p) -> {
                if (!v.isZero()
                    && p.driver().properties().containsKey(PGProperty.SOCKET_FACTORY.getName())) {
                  throw new UsageException(
                      "--rtt "
                          + RoundTrip.text(v)
                          + " cannot be combined with --jdbc-property socketFactory: the delay"
                          + " line is pgjdbc's socket factory; give one of them");
                }
              })
          .declare();

  @SuppressWarnings("deprecation")
  private static PGProperty socketFactoryArg() {
    return PGProperty.SOCKET_FACTORY_ARG;
  }

  /** Every knob, in label and sweep order. */
  public static final List<Knob<?>> ALL =
      List.of(
          WORKLOAD,
          CLIENTS,
          QUERY_MODE,
          ISOLATION,
          POOL_SIZE,
          THREADS,
          BATCH_SIZE,
          RATE,
          SET,
          FILLFACTOR,
          TABLE_OPTION,
          PREPARE_THRESHOLD,
          BINARY_TRANSFER,
          FETCH_SIZE,
          REWRITE_BATCHED_INSERTS,
          SSLMODE,
          JDBC_PROPERTY,
          STATEMENT_TIMEOUT,
          RTT);

  /** Each knob's constraints on a plan, in declaration order. */
  static void validate(RunPlan plan) {
    for (Knob<?> k : ALL) {
      k.validate(plan);
    }
  }

  /** The thread kind the clients run on: platform unless the plan says virtual. */
  public static ThreadKind threads(RunPlan plan) {
    ThreadKind k = THREADS.get(plan);
    return k == null ? ThreadKind.PLATFORM : k;
  }

  /** The pgjdbc properties of stored knobs (no field of their own) in a plan's knob texts. */
  static Map<String, String> declaredPgjdbc(Map<String, String> knobs) {
    Map<String, String> out = new LinkedHashMap<>();
    for (Knob<?> k : ALL) {
      String text = k.storedText(knobs);
      if (k.pgProperty() != null && text != null) {
        out.put(k.pgProperty().getName(), text);
      }
    }
    return out;
  }

  /** Session settings implied by knobs (beyond --set). */
  static Map<String, String> sessionSettings(RunPlan plan) {
    Map<String, String> out = new LinkedHashMap<>();
    for (Knob<?> k : ALL) {
      out.putAll(k.sessionSettings(plan));
    }
    return out;
  }

  private static void checkTableOptions(Map<String, String> options) {
    for (Map.Entry<String, String> e : options.entrySet()) {
      if (!e.getKey().matches(NAME)) {
        throw new UsageException(
            "--table-option '" + e.getKey() + "' is not a storage parameter name");
      }
      if (!e.getValue().matches("[A-Za-z0-9_.\\-]+")) {
        throw new UsageException(
            "--table-option "
                + e.getKey()
                + "='"
                + e.getValue()
                + "': a value is a number or a word");
      }
    }
  }
}
