package dev.wg1bench.script;

import java.util.Map;
import java.util.Set;

/** Shared helpers for the script tests. */
final class ScriptTestSupport {
  static final Set<String> PREDEFINED =
      Set.of("scale", "client_id", "nclients", "default_seed", "random_seed");

  private ScriptTestSupport() {}

  static CompiledScript compile(String name, String text) throws ScriptException {
    return Script.parse(name, text).compile(PREDEFINED);
  }

  static Object[] initialSlots(CompiledScript cs) {
    return cs.newSlots(
        Map.of(
            "scale", 1L, "client_id", 0L, "nclients", 1L, "default_seed", 42L, "random_seed", 7L));
  }

  /** Runs every \set step once (SQL and sleeps skipped). */
  static void runSets(CompiledScript cs, EvalContext ctx) {
    for (Step s : cs.steps()) {
      if (s instanceof SetStep) {
        ((SetStep) s).execute(ctx);
      }
    }
  }

  /** Evaluates one expression in a script of its own ("\set x EXPR"). */
  static Object eval(String expr) throws ScriptException {
    CompiledScript cs = compile("expr.sql", "\\set x " + expr + "\n");
    EvalContext ctx = new EvalContext(initialSlots(cs), new PgbenchRandom(1), 42L);
    runSets(cs, ctx);
    return ctx.slots()[cs.slotOf("x")];
  }
}
