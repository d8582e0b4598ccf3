package dev.wg1bench.jmh;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.wg1bench.json.Json;
import dev.wg1bench.plan.RunPlan;
import dev.wg1bench.plan.TargetSpec;
import dev.wg1bench.server.ClientSettings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Map;

/**
 * One measurement of a plan on one target, as the forked JMH JVMs see it. It crosses the process
 * boundary as a JSON file named by a system property; the password never touches the disk: the fork
 * receives it through a {@link SecretChannel} (a Unix-domain socket in the trial's owner-only
 * directory), so neither the fork's command line, any {@code @Param} nor any file ever holds it.
 *
 * @param target resolved target (the embedded server's URL once it runs), without password
 * @param scale pgbench scale the scripts see as :scale
 * @param client how each client connection is set up, decided once from the plan and the workload
 *     (the isolation is the plan's, else the workload's default; null = server's)
 * @param dir directory the forks write their reports into
 * @param secrets the socket that serves the password to the forks ({@link SecretChannel}), or null
 * @param point knob values identifying this trial's matrix point
 * @param repeat 1-based repetition of the point
 * @param sequence 1-based position of the trial in the run's order
 * @param slot with --agent: this agent's global client ids and the agreed window start, else null
 */
public record TrialSpec(
    RunPlan plan,
    TargetSpec target,
    int scale,
    ClientSettings client,
    Path dir,
    Path secrets,
    Map<String, String> point,
    int repeat,
    int sequence,
    ClientSlot slot) {

  /**
   * Where an agent's clients sit among all agents' ({@code :client_id} and {@code :nclients} are
   * global), and how long its fork waits for the agents' start (see {@link AgentGate}).
   */
  public record ClientSlot(int firstClient, int clients, long gateTimeoutMs) {}

  /** This trial for an agent, its file rewritten so the forks see the slot. */
  public TrialSpec withSlot(ClientSlot s) {
    TrialSpec t =
        new TrialSpec(plan, target, scale, client, dir, secrets, point, repeat, sequence, s);
    try {
      JSON.writeValue(file().toFile(), t);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return t;
  }

  /** System property naming the trial file in a forked JVM. */
  public static final String PROPERTY = "wg1bench.trial";

  static final ObjectMapper JSON = Json.MAPPER;

  /**
   * Writes the trial and, if the target has a password, opens the channel that serves it to the
   * forks (closed by {@link #release}).
   */
  public static TrialSpec write(
      RunPlan plan,
      TargetSpec target,
      int scale,
      ClientSettings client,
      Path dir,
      Map<String, String> point,
      int repeat,
      int sequence) {
    try {
      Path secrets =
          target.password() != null
              ? SecretChannel.open(dir, target.password(), Math.max(1, plan.timing().forks()))
              : null;
      TrialSpec t =
          new TrialSpec(plan, target, scale, client, dir, secrets, point, repeat, sequence, null);
      JSON.writeValue(dir.resolve("trial.json").toFile(), t);
      return t;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Stops serving the password of the trial in {@code dir}, if any; the trial's end. */
  public static void release(Path dir) {
    SecretChannel.closeIn(dir);
  }

  public Path file() {
    return dir.resolve("trial.json");
  }

  /** Reads the trial named by the system property, receiving the password from its channel. */
  public static TrialSpec load() {
    String f = System.getProperty(PROPERTY);
    if (f == null) {
      throw new IllegalStateException("system property " + PROPERTY + " is not set");
    }
    try {
      TrialSpec t = JSON.readValue(Path.of(f).toFile(), TrialSpec.class);
      if (t.secrets() != null) {
        TargetSpec withPw = t.target().withPassword(SecretChannel.fetch(t.secrets()));
        return new TrialSpec(
            t.plan(),
            withPw,
            t.scale(),
            t.client(),
            t.dir(),
            t.secrets(),
            t.point(),
            t.repeat(),
            t.sequence(),
            t.slot());
      }
      return t;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
