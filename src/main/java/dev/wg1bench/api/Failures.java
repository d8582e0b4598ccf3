package dev.wg1bench.api;

import dev.wg1bench.plan.RunFailure;
import dev.wg1bench.plan.UsageException;
import java.util.Map;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The engine's exceptions turned into the API's own, at the API's edge. */
final class Failures {
  private Failures() {}

  /**
   * Runs {@code body}; a usage error becomes an {@link InvalidSettingException}, a failure a {@link
   * RunFailedException}, both with the engine's one line.
   */
  static <T> T translated(Supplier<T> body) {
    try {
      return body.get();
    } catch (UsageException e) {
      throw new InvalidSettingException(inApiWords(e.getMessage()), e);
    } catch (RunFailure e) {
      throw new RunFailedException(e.getMessage(), e);
    }
  }

  /** A command-line option as the API method that sets it: --pool-size as poolSize(). */
  private static final Pattern OPTION =
      Pattern.compile("(?<![\\w-])--([a-z][a-z0-9]*(?:-[a-z0-9]+)*)");

  /** The options whose API method is not the option's name in camel case. */
  private static final Map<String, String> RENAMED =
      Map.of(
          "workload-class", "workload",
          "target", "against",
          "define", "param",
          "rewrite-batched-inserts", "reWriteBatchedInserts",
          "password-file", "against");

  /**
   * A refusal the engine words for the command line, in the API's words: each option named as the
   * method that sets it ({@code --pool-size} as {@code poolSize()}). Each setter refuses its own
   * value in its own words before this; what reaches here is how settings combine ({@code
   * poolSize()} above {@code clients()}, virtual threads on Java 17).
   */
  static String inApiWords(String message) {
    Matcher m = OPTION.matcher(message);
    StringBuilder b = new StringBuilder();
    while (m.find()) {
      String option = m.group(1);
      String method = RENAMED.getOrDefault(option, camel(option));
      m.appendReplacement(b, Matcher.quoteReplacement(method + "()"));
    }
    return m.appendTail(b).toString();
  }

  private static String camel(String kebab) {
    StringBuilder b = new StringBuilder();
    boolean up = false;
    for (char c : kebab.toCharArray()) {
      if (c == '-') {
        up = true;
      } else {
        b.append(up ? Character.toUpperCase(c) : c);
        up = false;
      }
    }
    return b.toString();
  }

  /** A workload made by a Supplier in this JVM asked to run in forks, which cannot call it. */
  static InvalidSettingException suppliedInForks(int forks, String workload) {
    return Args.refused(
        "forks(" + forks + ")",
        "0 for the workload "
            + workload
            + ", made by a Supplier in this JVM, which a forked JVM cannot call (or a JdbcWorkload"
            + " class)",
        forks);
  }
}
