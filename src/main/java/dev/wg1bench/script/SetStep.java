package dev.wg1bench.script;

/**
 * {@code \set} (or legacy {@code \setrandom}): store {@code expr.eval(ctx)} into {@code
 * slots[slot]}. The expression reports failures as located {@link ScriptRuntimeException}s.
 */
public record SetStep(int line, int slot, Expr expr) implements Step {
  /** Evaluates the expression and stores the result; returns the stored value. */
  public Object execute(EvalContext ctx) {
    Object v = expr.eval(ctx);
    ctx.slots()[slot] = v;
    return v;
  }
}
