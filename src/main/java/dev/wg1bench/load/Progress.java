package dev.wg1bench.load;

import java.io.PrintStream;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

/**
 * Progress of a long load: a bar on a terminal, and on a pipe or CI log a line at every tenth (as
 * pgbench -i prints "N of M tuples (x%) done") so logs stay readable.
 */
public final class Progress implements AutoCloseable {
  private final String task;
  private final long total;
  private final PrintStream log;
  private final ProgressBar bar;
  private long done;
  private int lastTenth;

  private Progress(String task, long total, PrintStream log, boolean terminal) {
    this.task = task;
    this.total = Math.max(total, 1);
    this.log = log;
    this.bar =
        terminal
            ? new ProgressBarBuilder()
                .setTaskName(task)
                .setInitialMax(total)
                .setStyle(ProgressBarStyle.ASCII)
                .setUpdateIntervalMillis(250)
                .showSpeed()
                .build()
            : null;
  }

  /** A bar when stderr is a terminal, tenth-lines otherwise; nothing at all when log is null. */
  public static Progress start(String task, long total, PrintStream log) {
    return new Progress(task, total, log, log != null && System.console() != null);
  }

  public void stepBy(long n) {
    done += n;
    if (bar != null) {
      bar.stepBy(n);
    } else if (log != null) {
      int tenth = (int) (done * 10 / total);
      if (tenth > lastTenth) {
        lastTenth = tenth;
        log.printf("%s: %d of %d rows (%d%%) done%n", task, done, total, tenth * 10);
      }
    }
  }

  @Override
  public void close() {
    if (bar != null) {
      bar.close();
    }
  }
}
