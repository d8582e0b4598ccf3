package dev.wg1bench.server;

import com.github.dockerjava.api.exception.NotFoundException;
import dev.wg1bench.plan.RunFailure;
import java.io.PrintStream;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.images.RemoteDockerImage;
import org.testcontainers.utility.DockerImageName;

/** The checks every container a run starts goes through first, each failing in one line. */
final class Containers {
  private Containers() {}

  /** Fails with one line when no Docker engine answers. */
  static void requireEngine(String who) {
    boolean up;
    try {
      up = DockerClientFactory.instance().isDockerAvailable();
    } catch (RuntimeException | LinkageError e) {
      up = false;
    }
    if (!up) {
      String host = System.getenv("DOCKER_HOST");
      throw new RunFailure(
          who
              + " needs a Docker engine and none answers"
              + (host == null ? " at the default socket" : " at DOCKER_HOST=" + host)
              + "; start one (see README, Containers) or choose another --target");
    }
  }

  /**
   * Makes sure {@code image} is in the engine: present, or pulled now; fails with one line when it
   * is neither, instead of Testcontainers' retries and stack traces.
   */
  static void requireImage(String image, String who, PrintStream out) {
    try {
      DockerClientFactory.instance().client().inspectImageCmd(image).exec();
      return;
    } catch (NotFoundException missing) {
      // pulled below
    }
    out.printf("%s: image %s is not here; pulling it%n", who, image);
    try {
      new RemoteDockerImage(DockerImageName.parse(image)).get();
    } catch (RuntimeException e) {
      throw new RunFailure(
          who
              + ": image "
              + image
              + " is not in the engine and could not be pulled ("
              + ConnectionFactory.oneLine(rootCause(e))
              + "); build it with ci/images.sh or choose another image",
          e);
    }
  }

  static Throwable rootCause(Throwable e) {
    Throwable t = e;
    while (t.getCause() != null && t.getCause() != t) {
      t = t.getCause();
    }
    return t;
  }
}
