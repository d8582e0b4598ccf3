package dev.wg1bench.support;

import org.testcontainers.DockerClientFactory;

/** Whether a Docker engine answers: the container tests assume it, so they skip cleanly without. */
public final class Docker {
  private Docker() {}

  public static boolean available() {
    try {
      return DockerClientFactory.instance().isDockerAvailable();
    } catch (RuntimeException | LinkageError e) {
      return false;
    }
  }
}
