package dev.wg1bench.api;

/**
 * Anything the Java API refuses or could not do, with one line saying what and why (the line the
 * command line would print). Its two kinds are {@link InvalidSettingException} and {@link
 * RunFailedException}.
 */
public class Wg1benchException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  Wg1benchException(String message, Throwable cause) {
    super(message, cause);
  }
}
