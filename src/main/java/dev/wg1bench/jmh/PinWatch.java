package dev.wg1bench.jmh;

import dev.wg1bench.fork.ForkReport;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingStream;

/**
 * Counts, in the JVM that runs the clients, the JFR {@code jdk.VirtualThreadPinned} events of a
 * virtual-thread trial (a virtual thread that blocked while pinned to its carrier: inside a
 * synchronized block before Java 24, under a native frame on any version) and the carrier threads
 * the scheduler had running. The threshold is zero, not JFR's default 20 ms: a pin of a socket read
 * lasts about one round trip, far less than that, and would go unseen.
 */
final class PinWatch {
  static final String EVENT = "jdk.VirtualThreadPinned";

  /** Class of the virtual-thread scheduler's carrier threads in the JDK. */
  private static final String CARRIER = "jdk.internal.misc.CarrierThread";

  private record Pin(long startEpochMicros, long nanos, String site) {}

  private final RecordingStream stream;
  private final ConcurrentLinkedQueue<Pin> pins = new ConcurrentLinkedQueue<>();
  private final AtomicInteger carriersPeak = new AtomicInteger();

  private PinWatch() {
    stream = new RecordingStream();
    stream.enable(EVENT).withoutThreshold().withStackTrace();
    stream.onEvent(EVENT, this::pinned);
    // JFR flushes about once a second: a sample of the carriers in use each time
    stream.onFlush(this::sampleCarriers);
  }

  static PinWatch start() {
    PinWatch w = new PinWatch();
    w.stream.startAsync();
    return w;
  }

  private void pinned(RecordedEvent e) {
    Instant s = e.getStartTime();
    pins.add(
        new Pin(
            s.getEpochSecond() * 1_000_000 + s.getNano() / 1000,
            e.getDuration().toNanos(),
            site(e)));
  }

  /**
   * Where the pin happened: the first frame of the application (not the JDK's) and, after "in", the
   * JDK frame it blocked in, e.g. {@code org.postgresql.core.PGStream.receiveChar:... in
   * java.lang.Object.wait0}.
   */
  static String site(RecordedEvent e) {
    if (e.getStackTrace() == null) {
      return "unknown";
    }
    List<RecordedFrame> frames = e.getStackTrace().getFrames();
    String top = null;
    for (RecordedFrame f : frames) {
      if (!f.isJavaFrame()) {
        continue;
      }
      String cls = f.getMethod().getType().getName();
      String name = cls + "." + f.getMethod().getName();
      if (cls.startsWith("java.") || cls.startsWith("jdk.") || cls.startsWith("sun.")) {
        if (top == null) {
          top = name;
        }
        continue;
      }
      String at = name + ":" + f.getLineNumber();
      return top == null ? at : at + " in " + top;
    }
    return top == null ? "unknown" : top;
  }

  private void sampleCarriers() {
    int n = 0;
    for (Thread t : Thread.getAllStackTraces().keySet()) {
      if (t.getClass().getName().equals(CARRIER) && t.isAlive()) {
        n++;
      }
    }
    carriersPeak.accumulateAndGet(n, Math::max);
  }

  /**
   * Stops the recording (waiting for its last events) and puts the counts into the report: pins
   * within the measurement windows, pins over the whole trial, the busiest pin sites.
   */
  void finish(ForkReport report) {
    try {
      // RecordingStream.stop() (Java 20+) delivers the events still buffered; close() drops them
      stream.getClass().getMethod("stop").invoke(stream);
    } catch (ReflectiveOperationException | RuntimeException e) {
      // without stop() the last second's events may be lost: the counts are then a lower bound
    }
    sampleCarriers();
    stream.close();
    long measured = 0;
    long measuredNanos = 0;
    long all = 0;
    Map<String, Long> sites = new ConcurrentHashMap<>();
    for (Pin p : pins) {
      all++;
      sites.merge(p.site, 1L, Long::sum);
      for (ForkReport.Window w : report.windows) {
        if (p.startEpochMicros >= w.startEpochMicros
            && p.startEpochMicros < w.startEpochMicros + w.nanos / 1000) {
          measured++;
          measuredNanos += p.nanos;
          break;
        }
      }
    }
    report.pinned = measured;
    report.pinnedNanos = measuredNanos;
    report.pinnedAll = all;
    report.carriersPeak = carriersPeak.get();
    report.carrierParallelism =
        Integer.getInteger(
            "jdk.virtualThreadScheduler.parallelism", Runtime.getRuntime().availableProcessors());
    Map<String, Long> top = new LinkedHashMap<>();
    sites.entrySet().stream()
        .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
        .limit(5)
        .forEach(x -> top.put(x.getKey(), x.getValue()));
    report.pinSites = top;
  }
}
