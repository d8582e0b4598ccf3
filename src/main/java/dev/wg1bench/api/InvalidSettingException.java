package dev.wg1bench.api;

import static org.apiguardian.api.API.Status.STABLE;

import org.apiguardian.api.API;

/**
 * A setting the command line would refuse with exit 2, refused by the API with the same words: it
 * names the setting, the value and what is valid, before anything runs (for example {@code blocks
 * must be between 2 and 1000, got 1 (an interval needs 2 blocks)}).
 */
@API(status = STABLE, since = "0.1")
public final class InvalidSettingException extends Wg1benchException {
  private static final long serialVersionUID = 1L;

  InvalidSettingException(String message, Throwable cause) {
    super(message, cause);
  }
}
