package dev.wg1bench.server;

import dev.wg1bench.plan.DriverKnobs;
import dev.wg1bench.plan.Isolation;
import dev.wg1bench.plan.QueryMode;
import dev.wg1bench.plan.RunPlan;
import java.util.Map;

/**
 * How each client connection is set up: the app-side knobs that live in the connection rather than
 * in the workload.
 *
 * @param isolation level set with {@link java.sql.Connection#setTransactionIsolation}, or null to
 *     leave the server default
 * @param sessionSettings applied with {@code set_config(name, value, false)} right after connect
 * @param driver pgjdbc properties
 */
public record ClientSettings(
    QueryMode queryMode,
    Isolation isolation,
    Map<String, String> sessionSettings,
    DriverKnobs driver) {

  /**
   * The settings a trial's clients use, decided once where the plan becomes a trial: the plan's,
   * with the workload's default isolation where the plan names none (null: the server's).
   */
  public static ClientSettings of(RunPlan plan, Isolation workloadDefault) {
    Isolation isolation =
        plan.session().isolation() != null ? plan.session().isolation() : workloadDefault;
    return new ClientSettings(
        plan.session().queryMode(), isolation, plan.sessionSettings(), plan.driver());
  }

  public static ClientSettings defaults() {
    return new ClientSettings(QueryMode.SIMPLE, null, Map.of(), DriverKnobs.defaults());
  }

  /** The prepareThreshold in effect: --prepare-threshold if given, else the query mode's. */
  public int prepareThreshold() {
    return driver.prepareThreshold() != null
        ? driver.prepareThreshold()
        : queryMode.prepareThreshold();
  }
}
