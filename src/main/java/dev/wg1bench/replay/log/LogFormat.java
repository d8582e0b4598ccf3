package dev.wg1bench.replay.log;

import java.util.Locale;

/** The log_destination formats replay reads. */
public enum LogFormat {
  CSVLOG,
  JSONLOG,
  STDERR;

  public String cliName() {
    return name().toLowerCase(Locale.ROOT);
  }

  public static LogFormat parse(String text) {
    for (LogFormat f : values()) {
      if (f.cliName().equalsIgnoreCase(text.strip())) {
        return f;
      }
    }
    throw new IllegalArgumentException("'" + text + "' is not one of csvlog, jsonlog, stderr");
  }
}
