package dev.wg1bench.result;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The client machine and JVM a result was measured on.
 *
 * @param scheduler how the kernel shares CPU between processes, where it says: "autogroup on" (by
 *     session first; every PostgreSQL backend is a session of its own, so a server on this machine
 *     weighs one session per backend against the client's one), "autogroup off" (by thread), or
 *     null where the kernel does not tell
 */
public record Machine(
    String hostname,
    String os,
    String kernel,
    String arch,
    int cores,
    long memoryBytes,
    String cpuModel,
    String jvm,
    String jvmVersion,
    @JsonInclude(JsonInclude.Include.NON_NULL) String scheduler) {

  public static Machine current() {
    return new Machine(
        readHostname(),
        System.getProperty("os.name"),
        System.getProperty("os.version"),
        System.getProperty("os.arch"),
        Runtime.getRuntime().availableProcessors(),
        memTotal(),
        readCpuModel(),
        System.getProperty("java.vm.name"),
        System.getProperty("java.runtime.version"),
        readScheduler());
  }

  private static String readScheduler() {
    List<String> l = lines("/proc/sys/kernel/sched_autogroup_enabled");
    if (l.isEmpty()) {
      return null;
    }
    return l.get(0).strip().equals("0") ? "autogroup off" : "autogroup on";
  }

  private static String readHostname() {
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (IOException e) {
      return "unknown";
    }
  }

  private static long memTotal() {
    for (String l : lines("/proc/meminfo")) {
      if (l.startsWith("MemTotal:")) {
        return Long.parseLong(l.replaceAll("\\D+", "")) * 1024;
      }
    }
    return -1;
  }

  private static String readCpuModel() {
    for (String l : lines("/proc/cpuinfo")) {
      if (l.startsWith("model name")) {
        return l.substring(l.indexOf(':') + 1).trim();
      }
    }
    return "unknown";
  }

  private static List<String> lines(String f) {
    try {
      return Files.readAllLines(Path.of(f));
    } catch (IOException | RuntimeException e) {
      return List.of();
    }
  }
}
