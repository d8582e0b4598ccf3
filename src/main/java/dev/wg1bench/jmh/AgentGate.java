package dev.wg1bench.jmh;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * With --agent, the fork's side of the rendezvous: every client is held before its first iteration
 * until the agents have agreed on the start, so no agent loads the server while the others are
 * still starting, and a slow fork start (seconds, on a loaded host) cannot make an agent late. The
 * fork says it is ready in a file of the trial's directory; the parent, which does the rendezvous
 * through the target, answers in another.
 */
public final class AgentGate {
  /** Written by the fork once all its clients are connected. */
  public static final String READY = "agent-ready";

  /** Written by the parent: the measurement's start in local epoch ms, or "abort REASON". */
  public static final String START = "agent-start";

  /** How much earlier than the warmup's length before the start the warmup begins. */
  static final long WARMUP_HEADSTART_MS = 1000;

  private final Path dir;
  private final long timeoutMs;
  private int arrived;
  private boolean open;
  private long measureAt;

  AgentGate(Path dir, long timeoutMs) {
    this.dir = dir;
    this.timeoutMs = timeoutMs;
  }

  /** The parent's answer: the agreed start as this host's epoch ms. */
  public static void start(Path dir, long localEpochMs) {
    write(dir, START, Long.toString(localEpochMs));
  }

  /** The parent's answer when the rendezvous failed: the fork stops without measuring. */
  public static void abort(Path dir, String why) {
    write(dir, START, "abort " + why);
  }

  /**
   * Holds the calling client until every client of the fork has arrived and the agents' start is
   * known; returns the start (local epoch ms).
   */
  long pass(int threads) {
    synchronized (this) {
      if (open) {
        return measureAt;
      }
      if (++arrived < threads) {
        while (!open) {
          try {
            wait();
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return measureAt;
          }
        }
        return measureAt;
      }
    }
    write(dir, READY, Long.toString(ProcessHandle.current().pid()));
    long answer = awaitAnswer();
    synchronized (this) {
      measureAt = answer;
      open = true;
      notifyAll();
      return measureAt;
    }
  }

  private long awaitAnswer() {
    Path f = dir.resolve(START);
    long deadline = System.currentTimeMillis() + timeoutMs;
    while (System.currentTimeMillis() < deadline) {
      if (Files.exists(f)) {
        String s;
        try {
          s = Files.readString(f, StandardCharsets.UTF_8).trim();
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
        if (!s.startsWith("abort")) {
          return Long.parseLong(s);
        }
        break;
      }
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    // the run is abandoned on every agent and this fork has nothing to report; JMH cannot stop an
    // iteration from its setup, so the fork ends here (the parent says why)
    Runtime.getRuntime().halt(1);
    return 0;
  }

  /**
   * A client's first iteration: held at the gate, then released so that the warmup ends a little
   * before the agreed start (JMH's pass from warmup to measurement took 130-560 ms here, varying by
   * agent), and the measurement window, which waits for the instant, opens exactly at it. Returns
   * the start (local epoch ms).
   */
  long enter(int threads, boolean measuring, long warmupMs) {
    long at = pass(threads);
    sleepUntil(measuring ? at : at - warmupMs - WARMUP_HEADSTART_MS);
    return at;
  }

  /** Sleeps until the local epoch ms {@code at}. */
  static void sleepUntil(long at) {
    long wait = at - System.currentTimeMillis();
    if (wait > 0) {
      try {
        Thread.sleep(wait);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private static void write(Path dir, String name, String text) {
    try {
      // written whole, then renamed, so the reader never sees half of it
      Path tmp = dir.resolve(name + ".tmp");
      Files.writeString(tmp, text, StandardCharsets.UTF_8);
      Files.move(tmp, dir.resolve(name), StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
