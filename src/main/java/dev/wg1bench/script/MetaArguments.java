package dev.wg1bench.script;

import dev.wg1bench.script.Ast.Call;
import dev.wg1bench.script.Ast.Fn;
import dev.wg1bench.script.Ast.Lit;
import dev.wg1bench.script.Ast.Var;
import java.util.List;
import java.util.Locale;

/**
 * The word arguments of one meta-command, read as pgbench reads them: variable names, the legacy
 * {@code \setrandom} and {@code \sleep} with its unit. Errors name the script and the command's
 * line.
 */
final class MetaArguments {
  private final String src;
  private final int line;

  MetaArguments(String src, int line) {
    this.src = src;
    this.line = line;
  }

  private ScriptException error(String msg) {
    return new ScriptException(src, line, msg);
  }

  void checkVarName(String var) throws ScriptException {
    boolean ok = !var.isEmpty();
    for (int i = 0; ok && i < var.length(); i++) {
      ok = ExprParser.isNameChar(var.charAt(i));
    }
    if (!ok) {
      throw error("invalid variable name: \"" + var + "\"");
    }
  }

  /** Legacy {@code \setrandom NAME MIN MAX [uniform | gaussian P | exponential P]}. */
  ParsedCommand.Set setRandom(String[] w) throws ScriptException {
    if (w.length < 3) {
      throw error("missing argument in command \"\\setrandom\"");
    }
    checkVarName(w[0]);
    Ast min = intArg(w[1]);
    Ast max = intArg(w[2]);
    Ast expr;
    String dist = w.length > 3 ? w[3].toLowerCase(Locale.ROOT) : "uniform";
    switch (dist) {
      case "uniform":
        if (w.length > 4) {
          throw error("too many arguments in command \"\\setrandom\"");
        }
        expr = new Call(Fn.RANDOM, List.of(min, max));
        break;
      case "gaussian":
      case "exponential":
        if (w.length < 5) {
          throw error("missing parameter for " + dist + " distribution in \"\\setrandom\"");
        }
        if (w.length > 5) {
          throw error("too many arguments in command \"\\setrandom\"");
        }
        Ast p = doubleArg(w[4]);
        expr =
            new Call(
                dist.equals("gaussian") ? Fn.RANDOM_GAUSSIAN : Fn.RANDOM_EXPONENTIAL,
                List.of(min, max, p));
        break;
      default:
        throw error("invalid distribution \"" + w[3] + "\" in \"\\setrandom\"");
    }
    return new ParsedCommand.Set(line, w[0], expr);
  }

  private Ast intArg(String w) throws ScriptException {
    Ast v = varArg(w);
    if (v != null) {
      return v;
    }
    try {
      return new Lit(Long.parseLong(w));
    } catch (NumberFormatException e) {
      throw error("invalid integer argument \"" + w + "\"");
    }
  }

  private Ast doubleArg(String w) throws ScriptException {
    Ast v = varArg(w);
    if (v != null) {
      return v;
    }
    try {
      double d = Double.parseDouble(w);
      if (Character.isLetter(w.charAt(w.length() - 1)) || Double.isInfinite(d)) {
        throw new NumberFormatException();
      }
      return new Lit(d);
    } catch (NumberFormatException e) {
      throw error("invalid numeric argument \"" + w + "\"");
    }
  }

  private Ast varArg(String w) throws ScriptException {
    if (w.length() > 1 && w.charAt(0) == ':') {
      checkVarName(w.substring(1));
      return new Var(w.substring(1));
    }
    return null;
  }

  /** {@code \sleep N [us | ms | s]} or {@code \sleep :var [unit]}; a unit may be attached. */
  ParsedCommand.Sleep sleep(String[] w) throws ScriptException {
    if (w.length < 1) {
      throw error("missing argument in command \"\\sleep\"");
    }
    if (w.length > 2) {
      throw error("too many arguments in command \"\\sleep\"");
    }
    if (w.length == 1 && !w[0].startsWith(":")) {
      // as pgbench: a unit may be attached to the number ("\sleep 2ms")
      int k = w[0].startsWith("+") || w[0].startsWith("-") ? 1 : 0;
      int digits = k;
      while (k < w[0].length() && Character.isDigit(w[0].charAt(k))) {
        k++;
      }
      if (k > digits && k < w[0].length()) {
        w = new String[] {w[0].substring(0, k), w[0].substring(k)};
      }
    }
    Ast amount = varArg(w[0]);
    if (amount == null) {
      try {
        amount = new Lit(Long.parseLong(w[0]));
      } catch (NumberFormatException e) {
        throw error("invalid sleep time \"" + w[0] + "\", must be an integer or a :variable");
      }
    }
    return new ParsedCommand.Sleep(line, amount, w.length == 2 ? unitMicros(w[1]) : 1_000_000L);
  }

  private long unitMicros(String unit) throws ScriptException {
    return switch (unit.toLowerCase(Locale.ROOT)) {
      case "us" -> 1L;
      case "ms" -> 1_000L;
      case "s" -> 1_000_000L;
      default -> throw error("unrecognized time unit \"" + unit + "\", must be us, ms or s");
    };
  }
}
