package dev.wg1bench.workload;

import dev.wg1bench.plan.ScriptSource;
import dev.wg1bench.plan.UsageException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The built-in workloads, one registration line each. A script workload's SQL, description and seed
 * section live in its file under {@code workloads/}.
 */
public final class WorkloadRegistry {
  private static final Map<String, Workload> BUILTIN = new LinkedHashMap<>();

  static {
    register(ScriptWorkload.builtin("tpcb"));
    register(ScriptWorkload.builtin("select_only"));
    register(ScriptWorkload.builtin("select_range"));
    register(ScriptWorkload.builtin("update1"));
    register(ScriptWorkload.builtin("write1"));
    register(ScriptWorkload.builtin("write10"));
    register(ScriptWorkload.builtin("rr_write10"));
    register(ScriptWorkload.builtin("insert8"));
    register(ScriptWorkload.builtin("insert8_multirow"));
    register(ScriptWorkload.builtin("ssb"));
    register(ScriptWorkload.builtin("ssb_q1.1", "ssb/q1.1"));
    register(ScriptWorkload.builtin("ssb_q1.2", "ssb/q1.2"));
    register(ScriptWorkload.builtin("ssb_q1.3", "ssb/q1.3"));
    register(ScriptWorkload.builtin("ssb_q2.1", "ssb/q2.1"));
    register(ScriptWorkload.builtin("ssb_q2.2", "ssb/q2.2"));
    register(ScriptWorkload.builtin("ssb_q2.3", "ssb/q2.3"));
    register(ScriptWorkload.builtin("ssb_q3.1", "ssb/q3.1"));
    register(ScriptWorkload.builtin("ssb_q3.2", "ssb/q3.2"));
    register(ScriptWorkload.builtin("ssb_q3.3", "ssb/q3.3"));
    register(ScriptWorkload.builtin("ssb_q3.4", "ssb/q3.4"));
    register(ScriptWorkload.builtin("ssb_q4.1", "ssb/q4.1"));
    register(ScriptWorkload.builtin("ssb_q4.2", "ssb/q4.2"));
    register(ScriptWorkload.builtin("ssb_q4.3", "ssb/q4.3"));
  }

  private WorkloadRegistry() {}

  private static void register(Workload w) {
    BUILTIN.put(w.name(), w);
  }

  public static List<Workload> all() {
    return List.copyOf(BUILTIN.values());
  }

  public static Workload get(String name) {
    Workload w = BUILTIN.get(name);
    if (w == null) {
      throw new UsageException(
          "--workload '"
              + name
              + "' is not a workload; valid: "
              + String.join(", ", BUILTIN.keySet()));
    }
    return w;
  }

  /** The workload a plan describes: a built-in by name, or the user's scripts. */
  public static Workload resolve(String name, List<ScriptSource> scripts) {
    if (BUILTIN.containsKey(name)) {
      return BUILTIN.get(name);
    }
    return new ScriptWorkload(name, scripts);
  }

  /** Script text of a built-in, so a plan carries exactly what runs. */
  public static List<ScriptSource> sources(String name) {
    Workload w = get(name);
    if (w instanceof ScriptWorkload s) {
      return s.sources();
    }
    return List.of();
  }
}
