package dev.wg1bench.script;

/**
 * {@code \if COND} or {@code \elif COND}: when the condition is false, execution continues at step
 * {@code elseTarget} (the next {@code \elif}/{@code \else} branch or the step after {@code
 * \endif}). The condition is read as pgbench reads it: NULL and zero are false.
 */
public record BranchStep(int line, Expr cond, int elseTarget) implements Step {
  public boolean test(EvalContext ctx) {
    return Values.truth(cond.eval(ctx));
  }
}
