package dev.wg1bench.script;

/**
 * {@code \sleep N [us|ms|s]}: {@code amount} evaluates to a {@link Long} (the integer literal or
 * the variable's value coerced to an integer; failures are located run-time errors), to be
 * multiplied by {@code unitMicros}.
 */
public record SleepStep(int line, Expr amount, long unitMicros) implements Step {
  /** The delay in microseconds (saturated rather than overflowing; negative means none). */
  public long delayMicros(EvalContext ctx) {
    long n = (Long) amount.eval(ctx);
    long us = n * unitMicros;
    // saturate: a silly huge sleep must not wrap around into a negative one
    if (unitMicros != 0 && us / unitMicros != n) {
      return n < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
    }
    return us;
  }
}
