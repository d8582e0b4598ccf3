package dev.wg1bench.server;

import com.github.dockerjava.api.exception.NotFoundException;
import dev.wg1bench.plan.RunFailure;
import java.io.PrintStream;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.images.builder.ImageFromDockerfile;
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
    out.printf("%s: image %s is not in the engine; pulling it%n", who, image);
    // one attempt, straight to the engine: Testcontainers' own pull retries for two minutes
    // where no registry is reachable
    DockerImageName n = DockerImageName.parse(image);
    try {
      DockerClientFactory.instance()
          .client()
          .pullImageCmd(n.getUnversionedPart())
          .withTag(n.getVersionPart())
          .start()
          .awaitCompletion(10, TimeUnit.MINUTES);
      DockerClientFactory.instance().client().inspectImageCmd(image).exec();
    } catch (RuntimeException e) {
      throw new RunFailure(
          who
              + ": image "
              + image
              + " is not in the engine and could not be pulled ("
              + ConnectionFactory.oneLine(rootCause(e))
              + "); build it with ci/images.sh or choose another image",
          e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new RunFailure(who + ": interrupted while pulling " + image, e);
    }
  }

  /**
   * Makes sure {@code image} is in the engine: present, or built now from the Dockerfile and files
   * under {@code resourceDir} on the classpath (which needs a registry for its base image).
   */
  static void requireBuilt(
      String image, String resourceDir, List<String> files, String who, PrintStream out) {
    try {
      DockerClientFactory.instance().client().inspectImageCmd(image).exec();
      return;
    } catch (NotFoundException missing) {
      // built below
    } catch (RuntimeException e) {
      // the engine went away since it answered (stopped, its socket removed): one line
      throw new RunFailure(
          who
              + ": the Docker engine did not answer ("
              + ConnectionFactory.oneLine(rootCause(e))
              + ")",
          e);
    }
    out.printf("%s: image %s is not in the engine; building it%n", who, image);
    ImageFromDockerfile build = new ImageFromDockerfile(image, false);
    for (String f : files) {
      build.withFileFromClasspath(f, resourceDir + "/" + f);
    }
    try {
      build.get(10, TimeUnit.MINUTES);
    } catch (TimeoutException | RuntimeException e) {
      throw new RunFailure(
          who
              + ": image "
              + image
              + " is not in the engine and could not be built ("
              + ConnectionFactory.oneLine(rootCause(e))
              + "); ci/images.sh builds it without a registry",
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
