package dev.wg1bench.workload;

import java.util.List;

/**
 * Per-command latency, failures and retries of one client's op in progress (pgbench -r), each
 * command's in the one count value ({@link OpCounts}), preallocated once for the commands of all
 * scripts: recording a command is a few field updates, with no allocation.
 *
 * <p>An op's figures wait here until the caller knows whether the op counts (it completed inside a
 * measurement window): {@link #commit} adds them to the client's {@link OpCounts}, as the parts of
 * its script's part, {@link #discard()} drops them, so per-command figures cover exactly the ops
 * the headline counts. As in pgbench, a command's latency is recorded each time it completes
 * (retried executions included), a retry is counted on the command whose error caused it, and a
 * failed op's failure on the command that failed last.
 */
public final class CommandTimes {
  private final int[] offset;

  /** Per script, the command of each step (see {@link ScriptOutline#commandOfStep()}). */
  private final int[][] commandOf;

  private final String[] scriptKeys;

  /** The op in progress's figures, one value per command slot. */
  private final OpCounts[] pending;

  /** The value the op's figures were last added to, and its command parts, flat as above. */
  private OpCounts into;

  private OpCounts[] target;

  /** The script of the op in progress, -1 when none is pending. */
  private int opScript = -1;

  /** One slot per command of each script, in {@link ScriptOutline} order. */
  public CommandTimes(List<ScriptOutline> outline) {
    offset = new int[outline.size() + 1];
    commandOf = new int[outline.size()][];
    for (int s = 0; s < outline.size(); s++) {
      offset[s + 1] = offset[s] + outline.get(s).commands().size();
      commandOf[s] = outline.get(s).commandOfStep();
    }
    scriptKeys = ScriptOutline.keys(outline);
    pending = new OpCounts[offset[outline.size()]];
    for (int k = 0; k < pending.length; k++) {
      pending[k] = new OpCounts();
    }
  }

  /** An op of script {@code s} starts; whatever an earlier op left pending is dropped. */
  public void begin(int s) {
    discard();
    opScript = s;
  }

  /** The command step {@code i} of script {@code s} is (the first one, for a pipeline part). */
  public int command(int s, int i) {
    return commandOf[s][i];
  }

  /** Step {@code i} of script {@code s} completed in {@code nanos}. */
  public void completed(int s, int i, long nanos) {
    completedCommand(s, commandOf[s][i], nanos);
  }

  /** Command {@code c} of script {@code s} completed in {@code nanos}. */
  public void completedCommand(int s, int c, long nanos) {
    pending[offset[s] + c].completed(nanos);
  }

  /** Command {@code c} of script {@code s} failed and its op will be tried again. */
  public void retried(int s, int c) {
    pending[offset[s] + c].retries++;
  }

  /** Command {@code c} of script {@code s} failed and so did its op. */
  public void failed(int s, int c) {
    pending[offset[s] + c].failed++;
  }

  /**
   * The pending op counts: its commands' figures are added to {@code counts}, each command a part
   * of its script's part (named by {@link ScriptOutline#keys} and {@link
   * ScriptOutline#commandKey}), made once, on the first op added to that value.
   */
  public void commit(OpCounts counts) {
    if (opScript < 0) {
      return;
    }
    if (counts != into) {
      resolve(counts);
    }
    for (int k = offset[opScript]; k < offset[opScript + 1]; k++) {
      target[k].add(pending[k]);
    }
    discard();
  }

  private void resolve(OpCounts counts) {
    into = counts;
    target = new OpCounts[pending.length];
    for (int s = 0; s < scriptKeys.length; s++) {
      OpCounts script = counts.part(scriptKeys[s]);
      for (int k = offset[s]; k < offset[s + 1]; k++) {
        target[k] = script.part(ScriptOutline.commandKey(k - offset[s]));
      }
    }
  }

  /** The pending op does not count. */
  public void discard() {
    if (opScript < 0) {
      return;
    }
    for (int k = offset[opScript]; k < offset[opScript + 1]; k++) {
      pending[k].clear();
    }
    opScript = -1;
  }

  /** Forgets the op in progress (a new iteration). */
  public void reset() {
    discard();
  }
}
