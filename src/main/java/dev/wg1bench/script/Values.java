package dev.wg1bench.script;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.Locale;

/**
 * Conversions between variable values and what pgbench would make of them. Values in slots are
 * {@link Long}, {@link Double}, {@link Boolean}, null (NULL) or raw values such as {@link String}
 * from {@code -D} defines or {@code \gset} results, which expressions interpret as pgbench does.
 */
public final class Values {
  private Values() {}

  /**
   * The value of a slot no command has set yet: a variable an {@code \aset} left unset because its
   * query returned no row. Using it in an expression fails with "undefined variable", as in
   * pgbench; in SQL it is left as written in simple mode and sent as NULL in the others.
   */
  public static final Object UNDEFINED =
      new Object() {
        @Override
        public String toString() {
          return "undefined";
        }
      };

  /** pgbench's valid_variable_name: non-empty, ASCII letters, digits, '_' or non-ASCII. */
  public static boolean validVariableName(String name) {
    if (name.isEmpty()) {
      return false;
    }
    for (int i = 0; i < name.length(); i++) {
      if (!ExprParser.isNameChar(name.charAt(i))) {
        return false;
      }
    }
    return true;
  }

  /** pgbench's type name of a value: "null", "boolean", "int", "double" (or "string" if raw). */
  public static String typeName(Object v) {
    if (v == null) {
      return "null";
    } else if (v instanceof Boolean) {
      return "boolean";
    } else if (v instanceof Long) {
      return "int";
    } else if (v instanceof Double) {
      return "double";
    }
    return "string";
  }

  /** Human-readable value with its type, for messages and debug(): {@code int 42}. */
  public static String describe(Object v) {
    Object n = v;
    if (v != null && !(v instanceof Long || v instanceof Double || v instanceof Boolean)) {
      try {
        n = normalize(v);
      } catch (ScriptRuntimeException e) {
        return "string \"" + v + "\"";
      }
    }
    if (n == null) {
      return "null";
    }
    return typeName(n) + " " + toText(n);
  }

  /**
   * Interprets a raw value the way pgbench interprets a variable's string: "null" is NULL, a
   * (prefix of a) boolean word is a boolean, then int64, then double; anything else fails with
   * "malformed variable value". Numbers of other Java types are widened to Long/Double.
   */
  public static Object normalize(Object v) {
    if (v == null || v instanceof Long || v instanceof Double || v instanceof Boolean) {
      return v;
    }
    if (v instanceof Integer || v instanceof Short || v instanceof Byte) {
      return ((Number) v).longValue();
    }
    if (v instanceof Float) {
      return ((Float) v).doubleValue();
    }
    if (v instanceof BigInteger) {
      BigInteger b = (BigInteger) v;
      return b.bitLength() < 64 ? (Object) b.longValue() : (Object) b.doubleValue();
    }
    if (v instanceof BigDecimal) {
      BigDecimal b = (BigDecimal) v;
      try {
        return b.longValueExact();
      } catch (ArithmeticException e) {
        return b.doubleValue();
      }
    }
    return parseString(v.toString());
  }

  static Object parseString(String raw) {
    String s = raw.strip();
    int n = s.length();
    if (raw.isEmpty()) {
      // pgbench compares the first strlen() characters with "true": an empty value is true
      return Boolean.TRUE;
    }
    if (n == 0) {
      throw malformed(raw);
    }
    if (s.equalsIgnoreCase("null")) {
      return null;
    }
    // parse_bool-like: unambiguous prefixes of true/yes/false/no, plus on/off/of
    if (isPrefixOf(s, "true") || isPrefixOf(s, "yes") || s.equalsIgnoreCase("on")) {
      return Boolean.TRUE;
    }
    if (isPrefixOf(s, "false")
        || isPrefixOf(s, "no")
        || s.equalsIgnoreCase("off")
        || s.equalsIgnoreCase("of")) {
      return Boolean.FALSE;
    }
    try {
      return Long.parseLong(s);
    } catch (NumberFormatException e) {
      if (s.matches("[+-]?[0-9]+")) {
        // pgbench: what looks like an integer must be one, not a double
        throw new ScriptRuntimeException("value \"" + raw + "\" is out of range for type bigint");
      }
      // not an int64; try a double
    }
    String t = s;
    if (t.equalsIgnoreCase("inf") || t.equalsIgnoreCase("+inf")) {
      t = "Infinity";
    } else if (t.equalsIgnoreCase("-inf")) {
      t = "-Infinity";
    } else if (t.equalsIgnoreCase("nan")) {
      t = "NaN";
    } else if (Character.isLetter(s.charAt(n - 1))) {
      // Java accepts "1d"/"1f" suffixes and "Infinity" spellings that we do not want here
      throw malformed(raw);
    }
    try {
      return Double.parseDouble(t);
    } catch (NumberFormatException e) {
      throw malformed(raw);
    }
  }

  private static boolean isPrefixOf(String s, String word) {
    return s.length() <= word.length() && word.regionMatches(true, 0, s, 0, s.length());
  }

  private static ScriptRuntimeException malformed(String raw) {
    return new ScriptRuntimeException("malformed variable value: \"" + raw + "\"");
  }

  /** pgbench's coerceToInt: ints as is, doubles rounded (rint) if in range; else an error. */
  public static long toLong(Object v) {
    if (v instanceof Long) {
      return (Long) v;
    }
    if (v instanceof Double) {
      return doubleToLong((Double) v);
    }
    if (v == null || v instanceof Boolean) {
      throw new ScriptRuntimeException("cannot coerce " + typeName(v) + " to int");
    }
    return toLong(normalize(v));
  }

  static long doubleToLong(double d) {
    double r = Math.rint(d);
    if (Double.isNaN(r) || r < -0x1.0p63 || r >= 0x1.0p63) {
      throw new ScriptRuntimeException("double to int overflow for " + PgbenchRandom.fmt(r));
    }
    return (long) r;
  }

  /** pgbench's coerceToDouble: ints and doubles; NULL and booleans are errors. */
  public static double toDouble(Object v) {
    if (v instanceof Double) {
      return (Double) v;
    }
    if (v instanceof Long) {
      return (Long) v;
    }
    if (v == null || v instanceof Boolean) {
      throw new ScriptRuntimeException("cannot coerce " + typeName(v) + " to double");
    }
    return toDouble(normalize(v));
  }

  /** pgbench's coerceToBool: only booleans are accepted. */
  public static boolean toBool(Object v) {
    if (v instanceof Boolean) {
      return (Boolean) v;
    }
    if (v != null && !(v instanceof Long || v instanceof Double)) {
      return toBool(normalize(v));
    }
    throw new ScriptRuntimeException("cannot coerce " + typeName(v) + " to boolean");
  }

  /** pgbench's valueTruth (CASE/AND/OR): NULL false, numbers true unless zero. */
  static boolean truth(Object v) {
    if (v instanceof Boolean) {
      return (Boolean) v;
    } else if (v instanceof Long) {
      return (Long) v != 0;
    } else if (v instanceof Double) {
      return (Double) v != 0.0;
    } else if (v == null) {
      return false;
    }
    return truth(normalize(v));
  }

  /**
   * The JDBC parameter a value should be bound as: Long (int8), Double (float8), Boolean, String
   * (raw values kept as text, like pgbench sends them) or null.
   */
  public static Object toJdbc(Object v) {
    if (v == null
        || v instanceof Long
        || v instanceof Double
        || v instanceof Boolean
        || v instanceof String) {
      return v;
    }
    return normalize(v);
  }

  /**
   * The text pgbench would substitute for a value: integers in decimal, doubles as C's {@code
   * %.15g}, booleans as true/false, NULL as "NULL"; raw strings unchanged.
   */
  public static String toText(Object v) {
    if (v == null) {
      return "NULL";
    } else if (v instanceof Double) {
      return formatDouble((Double) v);
    }
    return v.toString();
  }

  /**
   * C's {@code printf("%.15g", d)} (DBL_DIG significant digits), as pgbench prints doubles; with
   * PostgreSQL's own snprintf, which spells the non-finite values "Infinity", "-Infinity" and "NaN"
   * (pgbench's debug() and the text it substitutes say so, and the server reads them back).
   */
  public static String formatDouble(double d) {
    if (Double.isNaN(d)) {
      return "NaN";
    }
    if (Double.isInfinite(d)) {
      return d > 0 ? "Infinity" : "-Infinity";
    }
    if (d == 0.0) {
      return 1.0 / d < 0 ? "-0" : "0";
    }
    BigDecimal bd = new BigDecimal(d).round(new MathContext(15, RoundingMode.HALF_EVEN));
    int exp = bd.precision() - bd.scale() - 1;
    if (exp >= -4 && exp < 15) {
      return bd.stripTrailingZeros().toPlainString();
    }
    String digits = bd.unscaledValue().abs().toString();
    int end = digits.length();
    while (end > 1 && digits.charAt(end - 1) == '0') {
      end--;
    }
    StringBuilder sb = new StringBuilder();
    if (d < 0) {
      sb.append('-');
    }
    sb.append(digits.charAt(0));
    if (end > 1) {
      sb.append('.').append(digits, 1, end);
    }
    sb.append('e').append(exp < 0 ? '-' : '+');
    int a = Math.abs(exp);
    sb.append(String.format(Locale.ROOT, "%02d", a));
    return sb.toString();
  }
}
