package dev.wg1bench.workload;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * One script of a workload as the per-script and per-command figures name it: its file, its weight
 * in the mix, and its commands in the order a session numbers them (see {@link
 * ClientSession#opParts()}).
 *
 * @param name the script's file name as given (pgbench's "SQL script N: FILE")
 * @param weight its weight in the mix ({@code FILE@WEIGHT}, 1 by default)
 * @param commands every command a client executes, SQL and meta commands alike
 * @param commandOfStep for each step of the compiled script, the index of its command: an {@code
 *     \elif} is two steps (the jump that ends the branch before it, and its own test) but one
 *     command, as in pgbench; a pipeline part is one step but several commands, listed from this
 *     one on: its {@code \startpipeline} (first part only), each command in it, and the line
 *     closing it
 */
public record ScriptOutline(String name, int weight, List<Command> commands, int[] commandOfStep) {
  public ScriptOutline {
    commands = List.copyOf(commands);
    commandOfStep = commandOfStep.clone();
  }

  /**
   * The name each script's figures go by among a client's {@link OpCounts#parts}: its file as
   * given, numbered after the first when a mix names one file twice.
   */
  public static String[] keys(List<ScriptOutline> outline) {
    return keysOf(outline.stream().map(ScriptOutline::name).toList());
  }

  /** As {@link #keys(List)}, from the scripts' names in order. */
  public static String[] keysOf(List<String> names) {
    String[] keys = new String[names.size()];
    Set<String> seen = new HashSet<>();
    for (int s = 0; s < keys.length; s++) {
      String name = names.get(s);
      keys[s] = seen.add(name) ? name : name + " #" + (s + 1);
      seen.add(keys[s]);
    }
    return keys;
  }

  /** The name a command's figures go by among its script's {@link OpCounts#parts}: its index. */
  public static String commandKey(int i) {
    return Integer.toString(i);
  }

  /**
   * A command: the line it starts on and that line's text, as pgbench prints a command's first
   * line.
   */
  public record Command(int line, String text) {}
}
