package dev.wg1bench.support;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The java command a test starts a JVM with: this JVM's binary and its {@code -XX:} flags (the test
 * JVMs' JIT setting, {@code test.jvm.flags} in pom.xml), so that a JVM a test starts costs the CPU
 * the test's own does; JMH's forks inherit the flags by themselves.
 */
public final class TestJava {
  private TestJava() {}

  /** The binary and the flags, ready for the class path or -jar and the arguments. */
  public static List<String> command() {
    List<String> cmd = new ArrayList<>();
    cmd.add(
        ProcessHandle.current()
            .info()
            .command()
            .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
    for (String a : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
      if (a.startsWith("-XX:")) {
        cmd.add(a);
      }
    }
    return cmd;
  }
}
