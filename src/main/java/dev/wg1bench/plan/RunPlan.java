package dev.wg1bench.plan;

import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Everything a run needs, validated once and then never changed. The CLI builds it; every later
 * stage only reads it. It is serialized (minus passwords) into the JSON result and into the file
 * that forked JMH JVMs read.
 *
 * @param workload built-in workload name, or {@code custom} for {@code --script} runs
 * @param scripts the scripts of the op mix, with their text and weight
 * @param targets servers to run against, in order; at least one (the embedded server by default)
 * @param clients concurrent clients = JMH threads
 * @param poolSize connections shared by the clients (HikariCP), or null for one per client
 * @param timing measurement, pacing and progress
 * @param session isolation, query mode, session settings, retries
 * @param driver pgjdbc settings
 * @param params scale, defines, batch size, random seed
 * @param output JSON result path
 * @param knobs values of knobs that have no field in the records above, as text by knob key
 */
public record RunPlan(
    String workload,
    List<ScriptSource> scripts,
    List<TargetSpec> targets,
    int clients,
    Integer poolSize,
    Timing timing,
    SessionKnobs session,
    DriverKnobs driver,
    WorkloadKnobs params,
    Path output,
    Map<String, String> knobs) {

  /** Scale the embedded server is initialized at when the user gives no --scale. */
  public static final int EMBEDDED_DEFAULT_SCALE = 1;

  /** Canonical constructor: fields are assigned first so validation sees the final values. */
  public RunPlan(
      String workload,
      List<ScriptSource> scripts,
      List<TargetSpec> targets,
      int clients,
      Integer poolSize,
      Timing timing,
      SessionKnobs session,
      DriverKnobs driver,
      WorkloadKnobs params,
      Path output,
      Map<String, String> knobs) {
    this.workload = workload;
    this.scripts = List.copyOf(scripts);
    this.targets = List.copyOf(targets);
    this.clients = clients;
    this.poolSize = poolSize;
    this.timing = timing;
    this.session = session;
    this.params = params;
    this.output = output;
    this.knobs = Collections.unmodifiableMap(new LinkedHashMap<>(knobs));
    // the pgjdbc properties of stored knobs follow the knobs' texts, so a plan read back from its
    // JSON (a fork's, an agent's) applies them as the plan that wrote it did
    this.driver = driver == null ? null : driver.withDeclared(Knobs.declaredPgjdbc(this.knobs));
    validate();
  }

  /** A plan that sets no knob beyond the records' own fields. */
  public RunPlan(
      String workload,
      List<ScriptSource> scripts,
      List<TargetSpec> targets,
      int clients,
      Integer poolSize,
      Timing timing,
      SessionKnobs session,
      DriverKnobs driver,
      WorkloadKnobs params,
      Path output) {
    this(
        workload, scripts, targets, clients, poolSize, timing, session, driver, params, output,
        Map.of());
  }

  /**
   * Settings applied with set_config on every client connection: --set's, and those other knobs
   * imply (a statement timeout, say).
   */
  public Map<String, String> sessionSettings() {
    Map<String, String> all = new LinkedHashMap<>(session.settings());
    all.putAll(Knobs.sessionSettings(this));
    return all;
  }

  /** Every combination is checked here, in one place, with "option constraint, got value". */
  private void validate() {
    Knobs.validate(this);
    timing.validate();
    session.validate();
    params.validate();
    if (session.exitOnError() && timing.forks() == 0) {
      // JMH skips its trial teardown when a benchmark throws in-process, leaving stale state
      throw new UsageException(
          "--exit-on-error needs --forks 1 or more: JMH cannot stop an in-process run cleanly");
    }
    if (session.exitOnAbort() && timing.forks() == 0) {
      throw new UsageException(
          "--exit-on-abort needs --forks 1 or more: JMH cannot stop an in-process run cleanly");
    }
    if (workload == null || workload.isBlank()) {
      throw new UsageException("--workload or --script is required (see 'wg1bench list')");
    }
    if (!scripts.isEmpty() && scripts.stream().mapToInt(ScriptSource::weight).sum() == 0) {
      throw new UsageException("--script weights must not all be 0");
    }
    if (targets.isEmpty()) {
      throw new UsageException("at least one target is required");
    }
    long names = targets.stream().map(TargetSpec::name).distinct().count();
    if (names != targets.size()) {
      throw new UsageException("--target names must differ; name them with NAME=URL");
    }
  }

  /**
   * This plan with another number of clients: an agent's share of the run's (--pool-size is then
   * per agent and must not exceed the share).
   */
  public RunPlan withClients(int c) {
    return new RunPlan(
        workload, scripts, targets, c, poolSize, timing, session, driver, params, output, knobs);
  }

  /** Connections the run opens per target: the pool's size, else one per client. */
  public int connections() {
    return poolSize != null ? poolSize : clients;
  }

  public boolean pooled() {
    return poolSize != null && poolSize < clients;
  }
}
