package dev.wg1bench.script;

/**
 * A compiled expression tree node. {@link #eval} returns a {@link Long}, {@link Double}, {@link
 * Boolean}, {@link String} (only when reading a raw variable value) or null (pgbench's NULL).
 */
public interface Expr {
  Object eval(EvalContext ctx);
}
