package dev.wg1bench.history.store;

import java.io.IOException;

/**
 * A history written by a newer wg1bench than this one (a schema version or run file format it does
 * not know): read nothing, write nothing, and say which version would.
 */
public final class NewerFormatException extends IOException {
  private static final long serialVersionUID = 1L;

  public NewerFormatException(String message) {
    super(message);
  }
}
