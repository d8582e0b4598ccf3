package dev.wg1bench.workload;

import dev.wg1bench.api.JdbcWorkload;
import dev.wg1bench.plan.RunFailure;
import dev.wg1bench.plan.RunPlan;
import dev.wg1bench.plan.UsageException;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import java.util.stream.Stream;
import javax.sql.DataSource;

/**
 * Finds the user's {@link JdbcWorkload}s for the workload registry: a class named by {@code
 * --workload-class}, loaded from {@code --classpath} in every JVM that runs clients, or a supplier
 * a JUnit test registered in this JVM; and the tool's own applications written on the API (tpcc).
 * The registry asks it directly: {@code JdbcWorkload} and {@code Op} are the API's workload
 * interfaces, which name nothing of the tool's, so this package may use them without reaching up to
 * the API's entry ({@code Wg1bench}), which registers suppliers here.
 */
public final class JavaWorkloads {
  /** Suppliers of this JVM by id (in-process runs only: a lambda cannot cross into a fork). */
  private static final Map<String, Supplier<JdbcWorkload>> SUPPLIERS = new ConcurrentHashMap<>();

  private static final AtomicLong IDS = new AtomicLong();
  private static final String SUPPLIER = "supplier/";

  /** One loader per class path, shared by every client of this JVM. */
  private static final Map<List<String>, ClassLoader> LOADERS = new ConcurrentHashMap<>();

  private JavaWorkloads() {}

  /** The workload a class name or a registered supplier names; null for any other name. */
  static Workload resolve(String name, RunPlan plan) {
    String application = WorkloadRegistry.applicationClass(name);
    if (application != null) {
      // a built-in written on this API (tpcc): the tool's own class, under its short name
      Constructor<? extends JdbcWorkload> c = constructor(application, List.of());
      WorkloadRegistry.Listed listed = WorkloadRegistry.application(name);
      return new JavaClassWorkload(
          name,
          name,
          listed.description(),
          listed.seed(),
          loader(c.getDeclaringClass()),
          () -> instantiate(c),
          plan.params().defines());
    }
    if (!name.startsWith(WorkloadRegistry.CLASS_PREFIX)) {
      return null;
    }
    String rest = name.substring(WorkloadRegistry.CLASS_PREFIX.length());
    if (rest.startsWith(SUPPLIER)) {
      Supplier<JdbcWorkload> s = SUPPLIERS.get(rest);
      if (s == null) {
        throw new UsageException(
            "workload " + label(name) + " is a supplier of another JVM: run it with forks(0)");
      }
      return JavaClassWorkload.users(name, label(name), s, plan.params().defines());
    }
    Constructor<? extends JdbcWorkload> c = constructor(rest, plan.params().classpath());
    return JavaClassWorkload.users(name, rest, () -> instantiate(c), plan.params().defines());
  }

  /**
   * An application's loader for a fresh server: its class's public static {@code String
   * loadFresh(DataSource, int scale, PrintStream log)}, called by name as the class is made by name
   * (this package does not import the applications above it); null when it has none.
   */
  private static JavaClassWorkload.Loader loader(Class<?> application) {
    Method m;
    try {
      m = application.getMethod("loadFresh", DataSource.class, int.class, PrintStream.class);
    } catch (NoSuchMethodException e) {
      return null;
    }
    return (dataSource, scale, log) -> {
      try {
        return (String) m.invoke(null, dataSource, scale, log);
      } catch (InvocationTargetException e) {
        // the loader's own exception (a SQLException from the server), not reflection's wrapper
        throw e.getCause() instanceof Exception x ? x : e;
      }
    };
  }

  /** The workload name of a class: {@code class:com.acme.OrderLookup}. */
  public static String nameOf(String className) {
    return WorkloadRegistry.CLASS_PREFIX + className;
  }

  /** Registers a supplier for runs in this JVM; returns its workload name. */
  public static String register(String label, Supplier<JdbcWorkload> supplier) {
    String id = SUPPLIER + IDS.incrementAndGet() + "/" + label;
    SUPPLIERS.put(id, supplier);
    return WorkloadRegistry.CLASS_PREFIX + id;
  }

  /** Forgets a supplier registered in this JVM, once no run description holds it. */
  public static void unregister(String name) {
    SUPPLIERS.remove(name.substring(WorkloadRegistry.CLASS_PREFIX.length()));
  }

  /** What a name shows: the class, or the label a supplier was registered with. */
  public static String label(String name) {
    String rest = name.substring(WorkloadRegistry.CLASS_PREFIX.length());
    if (rest.startsWith(SUPPLIER)) {
      return rest.substring(rest.indexOf('/', SUPPLIER.length()) + 1);
    }
    return rest;
  }

  /**
   * The class's public no-argument constructor, or a usage error that says what is wrong with the
   * class in one line (exit 2): it is not on the class path, does not implement JdbcWorkload, or
   * cannot be made.
   */
  public static Constructor<? extends JdbcWorkload> constructor(
      String className, List<String> classpath) {
    String where =
        classpath.isEmpty()
            ? ""
            : " (--classpath " + String.join(File.pathSeparator, classpath) + ")";
    Class<?> k;
    try {
      k = Class.forName(className, false, loader(classpath));
    } catch (ClassNotFoundException | LinkageError e) {
      throw new UsageException(
          "--workload-class "
              + className
              + ": no such class on the class path"
              + where
              + (e instanceof LinkageError ? " (" + e + ")" : ""));
    }
    if (!JdbcWorkload.class.isAssignableFrom(k)) {
      throw new UsageException(
          "--workload-class " + className + " does not implement " + JdbcWorkload.class.getName());
    }
    if (k.isInterface() || Modifier.isAbstract(k.getModifiers())) {
      throw new UsageException(
          "--workload-class " + className + " is abstract: name a class wg1bench can make");
    }
    try {
      @SuppressWarnings("unchecked")
      Constructor<? extends JdbcWorkload> c =
          (Constructor<? extends JdbcWorkload>) k.getConstructor();
      if (!Modifier.isPublic(k.getModifiers())) {
        throw new NoSuchMethodException();
      }
      return c;
    } catch (NoSuchMethodException e) {
      throw new UsageException(
          "--workload-class "
              + className
              + " has no public no-argument constructor (wg1bench makes one instance per client;"
              + " a public class with 'public "
              + k.getSimpleName()
              + "()' is needed)");
    }
  }

  /**
   * One instance of the user's class; a constructor that throws is the class's failure, not the
   * tool's, and ends the run in one line naming the class, the exception and its causes (exit 1, as
   * a setUp() that throws), wherever the instance is made: the parent asking its tables, or a
   * client in the fork.
   */
  private static JdbcWorkload instantiate(Constructor<? extends JdbcWorkload> c) {
    try {
      return c.newInstance();
    } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
      Throwable thrown =
          e.getCause() != null && !(e instanceof RuntimeException) ? e.getCause() : e;
      throw new RunFailure(
          "--workload-class "
              + c.getDeclaringClass().getName()
              + ": new "
              + c.getDeclaringClass().getSimpleName()
              + "() threw "
              + chain(thrown),
          thrown);
    }
  }

  /** An exception and its causes on one line: "X: m (caused by Y: n)". */
  static String chain(Throwable t) {
    StringBuilder b = new StringBuilder(oneLine(t));
    Set<Throwable> seen = new HashSet<>(List.of(t));
    for (Throwable c = t.getCause(); c != null && seen.add(c); c = c.getCause()) {
      b.append(" (caused by ").append(oneLine(c)).append(')');
    }
    return b.toString();
  }

  private static String oneLine(Throwable t) {
    return String.valueOf(t).replaceAll("\\s*\\R\\s*", " ");
  }

  /** The class path's loader, or this class's own for an empty one. */
  static ClassLoader loader(List<String> classpath) {
    if (classpath.isEmpty()) {
      return JavaWorkloads.class.getClassLoader();
    }
    return LOADERS.computeIfAbsent(
        List.copyOf(classpath),
        cp -> new URLClassLoader(urls(cp), JavaWorkloads.class.getClassLoader()));
  }

  /** Entries as java's -cp takes them: directories, jars, and dir/* for every jar in dir. */
  private static URL[] urls(List<String> classpath) {
    List<URL> out = new ArrayList<>();
    for (String entry : classpath) {
      for (String e : entry.split(File.pathSeparator)) {
        if (e.isBlank()) {
          continue;
        }
        try {
          if (e.endsWith("/*") || e.equals("*")) {
            Path dir = Path.of(e.equals("*") ? "." : e.substring(0, e.length() - 2));
            try (Stream<Path> jars = Files.list(dir)) {
              for (Path j : jars.filter(p -> p.toString().endsWith(".jar")).sorted().toList()) {
                out.add(j.toUri().toURL());
              }
            }
          } else {
            out.add(Path.of(e).toAbsolutePath().toUri().toURL());
          }
        } catch (MalformedURLException ex) {
          throw new UsageException("--classpath " + e + ": " + ex.getMessage());
        } catch (IOException ex) {
          throw new UsageException("--classpath " + e + ": cannot list " + ex.getMessage());
        }
      }
    }
    return out.toArray(URL[]::new);
  }
}
