package dev.wg1bench.server;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import org.testcontainers.containers.ContainerLaunchException;
import org.testcontainers.containers.output.OutputFrame;
import org.testcontainers.containers.wait.strategy.AbstractWaitStrategy;

/**
 * A container's start read from its log as the log is written: ready at the first line that says
 * so, failed at the first fatal line or when the log ends first (the process exited), every line
 * kept for the failure's reason. Both a log consumer and the wait strategy of one container.
 *
 * <p>Why not Testcontainers' log-message wait: it polls until its timeout even after the process
 * has exited, so a PgBouncer that stopped at once on a port in use held the run for the whole
 * minute, and by the time the failure was reported its container and log were gone, so the reason
 * given was the timeout, not PgBouncer's own line.
 */
final class ContainerStartLog extends AbstractWaitStrategy implements Consumer<OutputFrame> {
  private final Pattern ready;
  private final Pattern fatal;
  private final CountDownLatch settled = new CountDownLatch(1);
  private final List<String> lines = new ArrayList<>();
  private final StringBuilder partial = new StringBuilder();
  private boolean isReady;
  private String failure;

  /**
   * @param ready a line that says the process is up
   * @param fatal a line after which it will not be
   */
  ContainerStartLog(Pattern ready, Pattern fatal) {
    this.ready = ready;
    this.fatal = fatal;
  }

  @Override
  public synchronized void accept(OutputFrame frame) {
    if (isReady) {
      // the start is over: the rest of a long-lived container's log is not kept
      return;
    }
    if (frame.getType() == OutputFrame.OutputType.END) {
      flush();
      if (!isReady && failure == null) {
        failure = "it exited" + (lines.isEmpty() ? " without a line" : ": " + last());
      }
      settled.countDown();
      return;
    }
    String text = frame.getUtf8String();
    for (int i = 0; i < text.length(); i++) {
      char ch = text.charAt(i);
      if (ch == '\n') {
        line(partial.toString());
        partial.setLength(0);
      } else if (ch != '\r') {
        partial.append(ch);
      }
    }
  }

  private void flush() {
    if (partial.length() > 0) {
      line(partial.toString());
      partial.setLength(0);
    }
  }

  private void line(String line) {
    lines.add(line);
    if (isReady || failure != null) {
      return;
    }
    if (ready.matcher(line).find()) {
      isReady = true;
      settled.countDown();
    } else if (fatal.matcher(line).find()) {
      failure = line.strip();
      settled.countDown();
    }
  }

  private String last() {
    return lines.get(lines.size() - 1).strip();
  }

  /** Waits, under the start-up timeout, for the line that says the process is up or is not. */
  @Override
  protected void waitUntilReady() {
    try {
      if (!settled.await(startupTimeout.toMillis(), TimeUnit.MILLISECONDS)) {
        throw new ContainerLaunchException(
            "no line matching '" + ready + "' in " + startupTimeout.toSeconds() + " s");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ContainerLaunchException("interrupted while it started");
    }
    synchronized (this) {
      if (!isReady) {
        throw new ContainerLaunchException(failure);
      }
    }
  }

  /** The line that says why the start failed, or null when none did. */
  synchronized String failure() {
    return failure;
  }

  /** Every line written so far, to look one up. */
  synchronized List<String> lines() {
    flush();
    return List.copyOf(lines);
  }
}
