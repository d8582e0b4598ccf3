package dev.wg1bench.server;

import java.net.URL;
import java.net.URLClassLoader;
import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.SQLException;

/**
 * pgjdbc loaded a second time, by a class loader of its own, for the tool's own connections in the
 * JVM that runs the clients: the measured windows' snapshots and wait sampler, and the server's
 * counter read at each window's ends.
 *
 * <p>Why: the JIT compiles pgjdbc's methods once for the whole JVM, from the paths taken so far.
 * The clients' driver code is compiled during warmup from the clients' paths alone; the window's
 * own queries (unnamed statements, an array parameter, text columns, a socket read with a timeout)
 * then took paths that code had never taken, each an uncommon trap. At the first measured window of
 * a 7-select op at 4 clients, 130 methods were compiled and 48 made not entrant, among them
 * pgjdbc's {@code processResults}, {@code sendBind}, {@code receiveTupleV3} and the op path's
 * {@code OpPath::run} that inlines them (40 and 16 with no window), and the clients then ran on
 * code compiled from the mixed profile. A driver of its own has classes, profiles and compiled code
 * of its own, so the tool's queries cannot reshape the code whose cost the clients measure.
 *
 * <p>Only {@code org.postgresql} is loaded twice; everything else (a user's {@code socketFactory}
 * class, the JDK) comes from the application's loader, so a connection is made as the clients' are.
 * The copy is taken out of {@link DriverManager}, where it would only ever be skipped.
 */
final class OwnDriver {
  private static final String PACKAGE = "org.postgresql.";

  private OwnDriver() {}

  /** The copy's driver; made once, on first use. */
  static Driver get() throws SQLException {
    return Holder.DRIVER;
  }

  private static final class Holder {
    static final Driver DRIVER = load();
  }

  private static Driver load() {
    URL jar = org.postgresql.Driver.class.getProtectionDomain().getCodeSource().getLocation();
    ClassLoader app = OwnDriver.class.getClassLoader();
    try {
      Class<?> c = Class.forName(PACKAGE + "Driver", true, new ChildFirst(jar, app));
      c.getMethod("deregister").invoke(null);
      return (Driver) c.getDeclaredConstructor().newInstance();
    } catch (ReflectiveOperationException | LinkageError | SecurityException e) {
      // a JVM that will not load it twice (a security manager, an odd class path): the tool's
      // connections then share the clients' driver, as they did before
      return new org.postgresql.Driver();
    }
  }

  /** Loads pgjdbc's classes itself, from the jar they came from; the rest from the application. */
  private static final class ChildFirst extends URLClassLoader {
    static {
      registerAsParallelCapable();
    }

    ChildFirst(URL jar, ClassLoader parent) {
      super("wg1bench-own-pgjdbc", new URL[] {jar}, parent);
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
      if (!name.startsWith(PACKAGE)) {
        return super.loadClass(name, resolve);
      }
      synchronized (getClassLoadingLock(name)) {
        Class<?> c = findLoadedClass(name);
        if (c == null) {
          c = findClass(name);
        }
        if (resolve) {
          resolveClass(c);
        }
        return c;
      }
    }
  }
}
