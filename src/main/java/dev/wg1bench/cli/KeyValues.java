package dev.wg1bench.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Stack;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The NAME=VALUE options ({@code --attr}, {@code -D}, {@code --set}, {@code --jdbc-property},
 * {@code --table-option}, {@code --where}, {@code --map-database}) read as given: split at the
 * first '=', the value kept whole, quotes and all. picocli's own map parsing splits respecting
 * quotes and, on a value with an odd number of {@code "} ({@code --attr 'note=say "hi'}), printed
 * two "[picocli WARN] Unbalanced quotes" lines beside a value it then kept as given anyway.
 */
final class KeyValues implements CommandLine.IParameterConsumer {
  /**
   * The options a parse matched: picocli's list, and the NAME=VALUE options given (a parameter
   * consumer's option is not in picocli's list).
   */
  static List<OptionSpec> matched(CommandLine.ParseResult parsed) {
    List<OptionSpec> out = new ArrayList<>(parsed.matchedOptions());
    for (OptionSpec o : parsed.commandSpec().options()) {
      if (o.parameterConsumer() instanceof KeyValues
          && o.getValue() instanceof Map<?, ?> m
          && !m.isEmpty()
          && !out.contains(o)) {
        out.add(o);
      }
    }
    return out;
  }

  @Override
  public void consumeParameters(Stack<String> args, ArgSpec argSpec, CommandSpec commandSpec) {
    OptionSpec option = (OptionSpec) argSpec;
    String name = option.longestName();
    CommandLine cl = commandSpec.commandLine();
    if (args.isEmpty() || commandSpec.optionsMap().containsKey(args.peek())) {
      throw new CommandLine.ParameterException(
          cl,
          "Missing required parameter for option '" + name + "' (" + option.paramLabel() + ")",
          argSpec,
          null);
    }
    String arg = args.pop();
    int eq = arg.indexOf('=');
    if (eq < 0) {
      throw new CommandLine.ParameterException(
          cl,
          name
              + " '"
              + arg
              + "' must be "
              + option.paramLabel()
              + ", e.g. "
              + name
              + " "
              + arg
              + "=VALUE",
          argSpec,
          arg);
    }
    Map<String, String> map = argSpec.getValue();
    if (map == null) {
      map = new LinkedHashMap<>();
      argSpec.setValue(map);
    }
    map.put(arg.substring(0, eq), arg.substring(eq + 1));
  }
}
