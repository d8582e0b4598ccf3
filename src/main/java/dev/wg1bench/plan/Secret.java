package dev.wg1bench.plan;

import java.util.Objects;

/**
 * A password. It prints as {@code ****} so it cannot leak through toString, logs or exception
 * messages; Jackson never sees it because {@link TargetSpec} ignores the field.
 */
public final class Secret {
  private final String value;

  private Secret(String value) {
    this.value = Objects.requireNonNull(value);
  }

  public static Secret of(String value) {
    return value == null ? null : new Secret(value);
  }

  /** The only way to the clear text: call it where the driver needs it, nowhere else. */
  public String reveal() {
    return value;
  }

  @Override
  public String toString() {
    return "****";
  }
}
