package dev.wg1bench.cli;

import dev.wg1bench.plan.Knob;
import dev.wg1bench.plan.Knobs;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import picocli.CommandLine.IModelTransformer;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.TypeConversionException;

/**
 * Adds an option for every declared knob ({@link Knobs#ALL}) to the {@link RunOptions} mixin, so a
 * knob's option and help come from its one declaration.
 */
public final class KnobOptions implements IModelTransformer {
  @Override
  public CommandSpec transform(CommandSpec spec) {
    RunOptions options = runOptions(spec);
    if (options == null || !options.knobOptions.isEmpty()) {
      return spec;
    }
    for (Knob<?> k : Knobs.ALL) {
      OptionSpec o = option(k);
      spec.addOption(o);
      options.knobOptions.put(k, o);
    }
    return spec;
  }

  /** picocli hands the transformer the command that mixes RunOptions in, or RunOptions itself. */
  private static RunOptions runOptions(CommandSpec spec) {
    if (spec.userObject() instanceof RunOptions r) {
      return r;
    }
    for (CommandSpec m : spec.mixins().values()) {
      if (m.userObject() instanceof RunOptions r) {
        return r;
      }
    }
    return null;
  }

  static OptionSpec option(Knob<?> k) {
    OptionSpec.Builder b =
        OptionSpec.builder(k.names().toArray(new String[0]))
            // one paragraph: picocli wraps it at the usage width, a line break of ours would be
            // wrapped again
            .description(String.join(" ", k.help()));
    if (!k.paramLabel().isEmpty()) {
      b.paramLabel(k.paramLabel());
    }
    switch (k.shape()) {
      case LIST -> {
        b.type(List.class).auxiliaryTypes(k.type()).splitRegex(",").arity("1");
        converter(k, b);
      }
      case MAP ->
          // NAME=VALUE taken as given (see KeyValues)
          b.type(Map.class)
              .auxiliaryTypes(String.class, String.class)
              .parameterConsumer(new KeyValues());
      case FLAG -> b.type(boolean.class).arity("0");
      default -> {
        b.type(k.type());
        converter(k, b);
      }
    }
    return b.build();
  }

  /** The knob's own parser, its message kept (the option is named by picocli). */
  private static void converter(Knob<?> k, OptionSpec.Builder b) {
    Function<String, ?> parse = k.parser();
    if (parse == null) {
      return;
    }
    ITypeConverter<Object> c =
        text -> {
          try {
            return parse.apply(text);
          } catch (IllegalArgumentException e) {
            throw new TypeConversionException(e.getMessage());
          }
        };
    b.converters(c);
  }
}
