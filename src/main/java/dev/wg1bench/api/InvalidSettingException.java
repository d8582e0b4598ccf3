package dev.wg1bench.api;

import static org.apiguardian.api.API.Status.STABLE;

import org.apiguardian.api.API;

/**
 * An argument or setting the API refuses, before anything runs: one line naming the call, the value
 * in the caller's unit and what is valid ({@code allowedFailureRate(1.5): a share between 0 and 1,
 * got 1.5}). A setter refuses its own value when it is given; settings that only clash together
 * ({@code poolSize()} above {@code clients()}) are refused by {@code run()}, naming the methods.
 */
@API(status = STABLE, since = "0.1")
public final class InvalidSettingException extends Wg1benchException {
  private static final long serialVersionUID = 1L;

  InvalidSettingException(String message, Throwable cause) {
    super(message, cause);
  }
}
