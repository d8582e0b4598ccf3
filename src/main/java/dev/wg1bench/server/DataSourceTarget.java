package dev.wg1bench.server;

import dev.wg1bench.plan.RunPlan;
import dev.wg1bench.plan.TargetSpec;
import dev.wg1bench.plan.UsageException;
import java.util.Set;
import javax.sql.DataSource;

/**
 * An application's own {@link DataSource} (the Java API's {@code against(DataSource)}), named in
 * the plan by its id in {@link DataSources} so the plan stays serializable and free of secrets. Its
 * pool and driver settings are the application's, not the run's.
 */
public final class DataSourceTarget implements Target {
  public static final TargetSpec.Kind DATASOURCE = new TargetSpec.Kind("DATASOURCE");

  private static final String SCHEME = "datasource:";

  /** Only the Java API makes these: a DataSource cannot be named on a command line. */
  static final TargetKind KIND =
      new TargetKind(
          DATASOURCE,
          url -> false,
          (name, url, text, env, pwFile) -> {
            throw new UnsupportedOperationException("DataSource targets come from the Java API");
          },
          DataSourceTarget::new,
          Set.of());

  private final TargetSpec spec;

  private DataSourceTarget(TargetSpec spec) {
    this.spec = spec;
  }

  /** The DataSource registered under {@code id}. */
  public static TargetSpec spec(String name, String id) {
    return new TargetSpec(name, DATASOURCE, SCHEME + id, null, null, null);
  }

  @Override
  public TargetSpec spec() {
    return spec;
  }

  @Override
  public void validate(RunPlan plan) {
    if (plan.timing().forks() > 0) {
      // an application's DataSource lives in this JVM; a forked JMH JVM cannot reach it
      throw new UsageException("a DataSource target needs --forks 0 (it exists only in this JVM)");
    }
  }

  /** The application's DataSource behind a spec of this kind, else null. */
  static DataSource lookup(TargetSpec spec) {
    if (!DATASOURCE.equals(spec.kind())) {
      return null;
    }
    return DataSources.get(spec.jdbcUrl().substring(SCHEME.length()));
  }
}
