package dev.wg1bench.script;

import java.util.List;

/** Parsed, not yet compiled expression: variables are still names (resolved by compile()). */
sealed interface Ast permits Ast.Lit, Ast.Var, Ast.Call {

  /** A constant: Long, Double, Boolean or null. */
  record Lit(Object value) implements Ast {}

  /** A {@code :name} reference. */
  record Var(String name) implements Ast {}

  /** An operator or function application; hash/permute may omit the trailing seed. */
  record Call(Fn fn, List<Ast> args) implements Ast {}

  /** Operators and functions, with the accepted argument counts (max -1 = unbounded). */
  enum Fn {
    ADD(2, 2),
    SUB(2, 2),
    MUL(2, 2),
    DIV(2, 2),
    MOD(2, 2),
    BITAND(2, 2),
    BITOR(2, 2),
    BITXOR(2, 2),
    LSHIFT(2, 2),
    RSHIFT(2, 2),
    EQ(2, 2),
    NE(2, 2),
    LE(2, 2),
    LT(2, 2),
    AND(2, 2),
    OR(2, 2),
    NOT(1, 1),
    IS(2, 2),
    /** when1, then1, ..., else (always present, maybe a null literal). */
    CASE(3, -1),
    ABS(1, 1),
    DEBUG(1, 1),
    DOUBLE(1, 1),
    EXP(1, 1),
    GREATEST(1, -1),
    LEAST(1, -1),
    HASH_MURMUR2(1, 2),
    HASH_FNV1A(1, 2),
    INT(1, 1),
    LN(1, 1),
    PI(0, 0),
    POW(2, 2),
    RANDOM(2, 2),
    RANDOM_EXPONENTIAL(3, 3),
    RANDOM_GAUSSIAN(3, 3),
    RANDOM_ZIPFIAN(3, 3),
    SQRT(1, 1),
    PERMUTE(2, 3);

    final int minArgs;
    final int maxArgs;

    Fn(int minArgs, int maxArgs) {
      this.minArgs = minArgs;
      this.maxArgs = maxArgs;
    }
  }
}
