package dev.wg1bench.history.store;

import java.util.regex.Pattern;

/**
 * Series names matched by a glob, as {@code --series} takes it: {@code *} any text (slashes
 * included, so {@code *}{@code /tps} is every configuration's tps), {@code ?} one character, the
 * rest literal, and the glob matched against the whole name.
 */
final class Globs {
  private Globs() {}

  /** The glob as a pattern; null or empty matches everything. */
  static Pattern compile(String glob) {
    if (glob == null || glob.isEmpty()) {
      return Pattern.compile(".*", Pattern.DOTALL);
    }
    StringBuilder re = new StringBuilder();
    StringBuilder literal = new StringBuilder();
    for (char c : glob.toCharArray()) {
      if (c == '*' || c == '?') {
        if (literal.length() > 0) {
          re.append(Pattern.quote(literal.toString()));
          literal.setLength(0);
        }
        re.append(c == '*' ? ".*" : ".");
      } else {
        literal.append(c);
      }
    }
    if (literal.length() > 0) {
      re.append(Pattern.quote(literal.toString()));
    }
    return Pattern.compile(re.toString(), Pattern.DOTALL);
  }
}
