package dev.wg1bench.workload;

import dev.wg1bench.api.JdbcWorkload;
import dev.wg1bench.plan.Isolation;
import java.io.PrintStream;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import javax.sql.DataSource;

/**
 * A {@link JdbcWorkload} as the runner's {@link Workload}: one instance per client, its op run on
 * the connection the runner hands it, its failures counted by SQLSTATE kind and its serialization
 * failures and deadlocks retried as a script's are, and an op that leaves a transaction behind
 * failed and rolled back, never a success.
 */
final class JavaClassWorkload implements Workload {
  private final String name;
  private final String label;
  private final Supplier<JdbcWorkload> instances;
  private final String description;
  private final String seed;
  private final Map<String, String> params;

  /** An application's loader for a fresh server (tpcc's), null for a user's class. */
  private final Loader loader;

  /** The data of an application of the tool's at a scale, on a server made for the run. */
  interface Loader {
    String load(DataSource dataSource, int scale, PrintStream log) throws Exception;
  }

  JavaClassWorkload(
      String name,
      String label,
      String description,
      String seed,
      Loader loader,
      Supplier<JdbcWorkload> instances,
      Map<String, String> params) {
    this.name = name;
    this.loader = loader;
    this.label = label;
    this.description = description;
    this.seed = seed;
    this.instances = instances;
    this.params = params;
  }

  /** A user's class (or a supplier a test registered): described as theirs, its source "custom". */
  static JavaClassWorkload users(
      String name, String label, Supplier<JdbcWorkload> instances, Map<String, String> params) {
    return new JavaClassWorkload(
        name, label, "your workload class " + label, "custom", null, instances, params);
  }

  @Override
  public boolean loadsFresh() {
    return loader != null;
  }

  @Override
  public String loadFresh(DataSource dataSource, int scale, PrintStream log) throws Exception {
    if (loader == null) {
      return Workload.super.loadFresh(dataSource, scale, log);
    }
    return loader.load(dataSource, scale, log);
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public String description() {
    return description;
  }

  @Override
  public String seed() {
    return seed;
  }

  @Override
  public Schema schema() {
    return Schema.OWN;
  }

  /** Its statements are its own JDBC calls: the runner does not see them. */
  @Override
  public boolean countsStatements() {
    return false;
  }

  @Override
  public Isolation defaultIsolation() {
    return null;
  }

  @Override
  public int rowsInsertedPerOp() {
    return 0;
  }

  @Override
  public void check(Set<String> predefined) {}

  /** The tables the class names; one instance asked, then closed (it has seen no connection). */
  @Override
  public List<String> ownTables() {
    JdbcWorkload w = instances.get();
    try {
      return List.copyOf(w.tables());
    } finally {
      try {
        w.close();
      } catch (Exception e) {
        // nothing was opened: a close that fails has nothing to release
      }
    }
  }

  @Override
  public void setUp(DataSource dataSource) throws Exception {
    JdbcWorkload w = instances.get();
    try {
      w.setUp(dataSource, params);
    } finally {
      w.close();
    }
  }

  @Override
  public Map<String, String> verify(DataSource dataSource, long committedOps) throws Exception {
    JdbcWorkload w = instances.get();
    try {
      return w.checkConditions(dataSource, committedOps, params);
    } finally {
      w.close();
    }
  }

  /** Whether the class has a check() of its own, either form (JdbcWorkload's do nothing). */
  @Override
  public boolean verifies() {
    JdbcWorkload w = instances.get();
    try {
      return w.getClass().getMethod("check", DataSource.class, long.class).getDeclaringClass()
              != JdbcWorkload.class
          || w.getClass()
                  .getMethod("check", DataSource.class, long.class, Map.class)
                  .getDeclaringClass()
              != JdbcWorkload.class
          || w.getClass()
                  .getMethod("checkConditions", DataSource.class, long.class, Map.class)
                  .getDeclaringClass()
              != JdbcWorkload.class;
    } catch (NoSuchMethodException e) {
      return false;
    } finally {
      try {
        w.close();
      } catch (Exception e) {
        // an instance made only to look at its class
      }
    }
  }

  @Override
  public DataCheck dataCheck() {
    return DataCheck.NONE;
  }

  @Override
  public ClientSession open(ClientContext context) {
    return new JavaClassSession(instances.get(), context, label);
  }
}
