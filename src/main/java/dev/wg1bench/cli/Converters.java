package dev.wg1bench.cli;

import dev.wg1bench.plan.Durations;
import java.time.Duration;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** picocli converters whose messages name what would be valid. */
final class Converters {
  private Converters() {}

  static final class DurationConverter implements ITypeConverter<Duration> {
    @Override
    public Duration convert(String value) {
      try {
        return Durations.parse(value);
      } catch (IllegalArgumentException e) {
        throw new TypeConversionException(e.getMessage());
      }
    }
  }

  /** A duration where a bare number means milliseconds (pgbench -L takes ms). */
  static final class MillisConverter implements ITypeConverter<Duration> {
    @Override
    public Duration convert(String value) {
      String v = value.trim();
      try {
        return Durations.parse(v.matches("\\d+(\\.\\d+)?") ? v + "ms" : v);
      } catch (IllegalArgumentException e) {
        throw new TypeConversionException(e.getMessage());
      }
    }
  }
}
