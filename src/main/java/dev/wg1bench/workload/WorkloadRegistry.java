package dev.wg1bench.workload;

import dev.wg1bench.plan.RunPlan;
import dev.wg1bench.plan.ScriptSource;
import dev.wg1bench.plan.UsageException;
import dev.wg1bench.plan.WorkloadKnobs;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * The built-in workloads, one registration line each. A script workload's SQL, description and seed
 * section live in its file under {@code workloads/}; a Java workload is built from the run's
 * workload knobs (e.g. --batch-size).
 */
public final class WorkloadRegistry {
  private static final Map<String, Function<WorkloadKnobs, Workload>> BUILTIN =
      new LinkedHashMap<>();

  /**
   * Applications written on the Java API, by name: the class {@link JavaWorkloads} makes (the
   * applications sit on top of the API, which this package never imports beyond its workload
   * interfaces, so the class is named, not referenced).
   */
  private static final Map<String, String> APPLICATIONS = new LinkedHashMap<>();

  /**
   * An application's row in {@code wg1bench list}, and what a run of it says in the console and the
   * JSON: name, the source it reproduces and what it does.
   */
  public record Listed(String name, String seed, String description) {}

  private static final Map<String, Listed> LISTED = new LinkedHashMap<>();

  private static final List<String> SSB_QUERIES =
      List.of(
          "ssb/q1.1",
          "ssb/q1.2",
          "ssb/q1.3",
          "ssb/q2.1",
          "ssb/q2.2",
          "ssb/q2.3",
          "ssb/q3.1",
          "ssb/q3.2",
          "ssb/q3.3",
          "ssb/q3.4",
          "ssb/q4.1",
          "ssb/q4.2",
          "ssb/q4.3");

  private static final String SSB_ALL =
      "-- @description the 13 Star Schema Benchmark queries Q1.1 .. Q4.3 in order, one op = all 13\n"
          + "-- @seed 2020 §6.2.2\n-- @read-only\n-- @tables ssb\n";

  static {
    script("tpcb");
    script("select_only");
    script("simple_update");
    script("select_range");
    script("update1");
    script("write1");
    script("write10");
    script("rr_write10");
    script("insert8");
    script("insert8_multirow");
    java("insert_batch", k -> new InsertWorkload(InsertWorkload.Variant.BATCH, k.batchSize()));
    java(
        "insert_multirow", k -> new InsertWorkload(InsertWorkload.Variant.MULTIROW, k.batchSize()));
    java("insert_copy", k -> new InsertWorkload(InsertWorkload.Variant.COPY, k.batchSize()));
    sequence("ssb", SSB_ALL, SSB_QUERIES);
    script("ssb_q1.1", "ssb/q1.1");
    script("ssb_q1.2", "ssb/q1.2");
    script("ssb_q1.3", "ssb/q1.3");
    script("ssb_q2.1", "ssb/q2.1");
    script("ssb_q2.2", "ssb/q2.2");
    script("ssb_q2.3", "ssb/q2.3");
    script("ssb_q3.1", "ssb/q3.1");
    script("ssb_q3.2", "ssb/q3.2");
    script("ssb_q3.3", "ssb/q3.3");
    script("ssb_q3.4", "ssb/q3.4");
    script("ssb_q4.1", "ssb/q4.1");
    script("ssb_q4.2", "ssb/q4.2");
    script("ssb_q4.3", "ssb/q4.3");
    APPLICATIONS.put("tpcc", "dev.wg1bench.tpcc.Tpcc");
    LISTED.put(
        "tpcc",
        new Listed(
            "tpcc",
            "TPC-C 5.11",
            "TPC-C's five transactions, deck mix 45/43/4/4/4, on the Java API; loads --scale W"
                + " warehouses (default 1) on the embedded server, else load with 'init --workload"
                + " tpcc --scale W'"));
  }

  /** The applications, as {@code wg1bench list} shows them after the built-ins. */
  public static List<Listed> applications() {
    return List.copyOf(LISTED.values());
  }

  /** An application's row (tpcc), or null for any other name. */
  static Listed application(String name) {
    return LISTED.get(name);
  }

  private WorkloadRegistry() {}

  /** A workload whose one op runs several script files in order. */
  private static void sequence(String name, String header, List<String> files) {
    Workload w = ScriptWorkload.sequence(name, header, files);
    BUILTIN.put(name, k -> w);
  }

  private static void script(String name) {
    script(name, name);
  }

  /** A script workload whose file, under workloads/, is named differently (e.g. ssb/q1.1). */
  private static void script(String name, String file) {
    Workload w = ScriptWorkload.builtin(name, file);
    BUILTIN.put(name, k -> w);
  }

  private static void java(String name, Function<WorkloadKnobs, Workload> factory) {
    BUILTIN.put(name, factory);
  }

  /** Every built-in, with default knobs (for listings and contract tests). */
  public static List<Workload> all() {
    WorkloadKnobs defaults = new WorkloadKnobs(null, Map.of(), WorkloadKnobs.DEFAULT_BATCH_SIZE, 0);
    return BUILTIN.values().stream().map(f -> f.apply(defaults)).toList();
  }

  public static boolean exists(String name) {
    return BUILTIN.containsKey(name) || APPLICATIONS.containsKey(name);
  }

  /** Every name --workload takes, the built-ins' then the applications'. */
  private static List<String> names() {
    List<String> all = new ArrayList<>(BUILTIN.keySet());
    all.addAll(APPLICATIONS.keySet());
    return all;
  }

  /** The class of an application workload (tpcc), or null for any other name. */
  public static String applicationClass(String name) {
    return APPLICATIONS.get(name);
  }

  /**
   * " (did you mean X?)" for the names within a few typing mistakes of {@code name} (edit distance
   * up to a third of its length, at least 2), closest first; "" when none is.
   */
  static String didYouMean(String name, Collection<String> names) {
    String n = name.toLowerCase(Locale.ROOT);
    int limit = Math.max(2, n.length() / 3);
    TreeMap<Integer, List<String>> near = new TreeMap<>();
    for (String c : names) {
      int d = editDistance(n, c);
      if (d <= limit) {
        near.computeIfAbsent(d, x -> new ArrayList<>()).add(c);
      }
    }
    if (near.isEmpty()) {
      return "";
    }
    List<String> best = near.firstEntry().getValue();
    return " (did you mean " + String.join(" or ", best) + "?)";
  }

  /** Levenshtein distance, adjacent transpositions counting one (tpbc is one slip from tpcb). */
  static int editDistance(String a, String b) {
    int[][] d = new int[a.length() + 1][b.length() + 1];
    for (int i = 0; i <= a.length(); i++) {
      d[i][0] = i;
    }
    for (int j = 0; j <= b.length(); j++) {
      d[0][j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      for (int j = 1; j <= b.length(); j++) {
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
        if (i > 1
            && j > 1
            && a.charAt(i - 1) == b.charAt(j - 2)
            && a.charAt(i - 2) == b.charAt(j - 1)) {
          d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
        }
      }
    }
    return d[a.length()][b.length()];
  }

  private static Function<WorkloadKnobs, Workload> factory(String name) {
    Function<WorkloadKnobs, Workload> f = BUILTIN.get(name);
    if (f == null) {
      throw new UsageException(
          "--workload '"
              + name
              + "' is not a workload"
              + didYouMean(name, names())
              + "; valid: "
              + String.join(", ", names()));
    }
    return f;
  }

  /** The workload a plan describes: a built-in by name with the plan's knobs, or its scripts. */
  public static Workload resolve(RunPlan plan) {
    if (BUILTIN.containsKey(plan.workload())) {
      return BUILTIN.get(plan.workload()).apply(plan.params());
    }
    if (plan.workload().startsWith(CLASS_PREFIX) || APPLICATIONS.containsKey(plan.workload())) {
      Workload w = JavaWorkloads.resolve(plan.workload(), plan);
      if (w == null) {
        throw new UsageException("--workload-class: no such workload class " + plan.workload());
      }
      return w;
    }
    return new ScriptWorkload(plan.workload(), plan.scripts());
  }

  /** A workload named by a Java class of the user's: {@code class:com.acme.OrderLookup}. */
  public static final String CLASS_PREFIX = "class:";

  /** Script text of a built-in (none for Java workloads), so a plan carries exactly what runs. */
  public static List<ScriptSource> sources(String name) {
    if (APPLICATIONS.containsKey(name)) {
      return List.of();
    }
    Workload w =
        factory(name).apply(new WorkloadKnobs(null, Map.of(), WorkloadKnobs.DEFAULT_BATCH_SIZE, 0));
    if (w instanceof ScriptWorkload s) {
      return s.sources();
    }
    return List.of();
  }
}
