package dev.wg1bench.api;

import static org.apiguardian.api.API.Status.STABLE;

import org.apiguardian.api.API;

/**
 * Anything the Java API refuses or could not do, with one line saying what and why (the line the
 * command line would print). Its two kinds are {@link InvalidSettingException} and {@link
 * RunFailedException}.
 */
@API(status = STABLE, since = "0.1")
public class Wg1benchException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  Wg1benchException(String message, Throwable cause) {
    super(message, cause);
  }
}
