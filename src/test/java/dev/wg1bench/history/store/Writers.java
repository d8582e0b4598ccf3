package dev.wg1bench.history.store;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.wg1bench.support.TestJava;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Many writers appending to one history at once: threads of this JVM and processes of their own,
 * all started before any appends, so their appends overlap.
 */
final class Writers {
  private Writers() {}

  /**
   * Runs {@code threads} writer threads and {@code processes} writer processes of {@code each}
   * appends; returns every stored id with the tag of the run it was given.
   */
  static Map<String, String> append(
      String location, Path home, int threads, int processes, int each) throws Exception {
    Map<String, String> stored = new ConcurrentHashMap<>();
    List<Process> procs = new ArrayList<>();
    Path go = java.nio.file.Files.createTempDirectory("wg1bench-writers-").resolve("go");
    for (int p = 0; p < processes; p++) {
      List<String> cmd = TestJava.command();
      cmd.addAll(
          List.of(
              "-cp",
              System.getProperty("java.class.path"),
              Appender.class.getName(),
              location,
              home.toString(),
              "proc" + p,
              String.valueOf(each),
              go.toString()));
      procs.add(new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start());
    }
    List<java.io.BufferedReader> outs = new ArrayList<>();
    for (Process p : procs) {
      java.io.BufferedReader r =
          new java.io.BufferedReader(
              new java.io.InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
      assertEquals("ready", r.readLine(), "writer process opened the history");
      outs.add(r);
    }
    CountDownLatch start = new CountDownLatch(1);
    List<Thread> ts = new ArrayList<>();
    List<Throwable> errors = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      String writer = "thread" + t;
      Thread th =
          new Thread(
              () -> {
                try (HistoryStore s = HistoryStores.open(location, home)) {
                  start.await();
                  for (int i = 0; i < each; i++) {
                    String tag = writer + "-" + i;
                    stored.put(s.append(Appender.run(tag, i)).run().id(), tag);
                  }
                } catch (Throwable e) {
                  synchronized (errors) {
                    errors.add(e);
                  }
                }
              });
      th.start();
      ts.add(th);
    }
    java.nio.file.Files.createFile(go);
    start.countDown();
    for (Thread th : ts) {
      th.join(TimeUnit.MINUTES.toMillis(2));
    }
    assertEquals(List.of(), errors, "every thread's appends succeed");
    for (int i = 0; i < procs.size(); i++) {
      for (String l = outs.get(i).readLine(); l != null; l = outs.get(i).readLine()) {
        String[] f = l.split(" ");
        stored.put(f[0], f[1]);
      }
      assertEquals(0, procs.get(i).waitFor(), "writer process exit");
    }
    return stored;
  }
}
