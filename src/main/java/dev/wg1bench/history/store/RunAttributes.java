package dev.wg1bench.history.store;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * What a stored run was measured from: the git commit and branch of the working directory, the CI
 * build from the usual environment variables, and the user's {@code --attr KEY=VALUE}, each
 * overriding the one before (a CI system knows the commit it builds better than a detached
 * checkout's HEAD does; the user knows best).
 */
public final class RunAttributes {
  private RunAttributes() {}

  /**
   * A CI system as its environment names it.
   *
   * @param name the {@code ci} attribute's value
   * @param marker a variable only that CI sets
   * @param commit its commit variable
   * @param branch its branch variable
   * @param build its build or pipeline id variable
   */
  private record Ci(String name, String marker, String commit, String branch, String build) {}

  private static final List<Ci> CIS =
      List.of(
          new Ci(
              "github-actions", "GITHUB_ACTIONS", "GITHUB_SHA", "GITHUB_REF_NAME", "GITHUB_RUN_ID"),
          new Ci("gitlab", "GITLAB_CI", "CI_COMMIT_SHA", "CI_COMMIT_REF_NAME", "CI_PIPELINE_ID"),
          new Ci("jenkins", "JENKINS_URL", "GIT_COMMIT", "BRANCH_NAME", "BUILD_NUMBER"),
          new Ci(
              "buildkite",
              "BUILDKITE",
              "BUILDKITE_COMMIT",
              "BUILDKITE_BRANCH",
              "BUILDKITE_BUILD_NUMBER"),
          new Ci("circleci", "CIRCLECI", "CIRCLE_SHA1", "CIRCLE_BRANCH", "CIRCLE_BUILD_NUM"),
          new Ci(
              "azure-pipelines",
              "TF_BUILD",
              "BUILD_SOURCEVERSION",
              "BUILD_SOURCEBRANCHNAME",
              "BUILD_BUILDID"),
          new Ci("travis", "TRAVIS", "TRAVIS_COMMIT", "TRAVIS_BRANCH", "TRAVIS_BUILD_NUMBER"));

  /** How long git may take to answer: a hung git must not hold up storing a run. */
  private static final long GIT_TIMEOUT_MS = 5_000;

  /**
   * The attributes of a run measured now: git's in {@code dir}, then the CI's in {@code env}, then
   * the user's.
   */
  public static Map<String, String> collect(
      Path dir, Map<String, String> env, Map<String, String> user) {
    Map<String, String> a = new LinkedHashMap<>();
    putIf(a, "commit", git(dir, "rev-parse", "HEAD"));
    String branch = git(dir, "rev-parse", "--abbrev-ref", "HEAD");
    if (branch != null && !branch.equals("HEAD")) {
      // "HEAD" is git's word for a detached checkout: no branch
      a.put("branch", branch);
    }
    for (Ci ci : CIS) {
      if (present(env, ci.marker()) || present(env, ci.build())) {
        if (!present(env, ci.marker()) && !present(env, ci.commit())) {
          continue; // BUILD_NUMBER alone is too common a name to mean Jenkins
        }
        a.put("ci", ci.name());
        putIf(a, "commit", env.get(ci.commit()));
        String b = env.get(ci.branch());
        if (ci.name().equals("jenkins") && !present(env, ci.branch())) {
          b = env.get("GIT_BRANCH");
        }
        putIf(a, "branch", b);
        putIf(a, "build", env.get(ci.build()));
        break;
      }
    }
    a.putAll(user);
    return a;
  }

  private static boolean present(Map<String, String> env, String name) {
    String v = env.get(name);
    return v != null && !v.isBlank();
  }

  private static void putIf(Map<String, String> a, String key, String value) {
    if (value != null && !value.isBlank()) {
      a.put(key, value.trim());
    }
  }

  /** git's one-line answer in {@code dir}, null without git, outside a repository or too slow. */
  static String git(Path dir, String... args) {
    String[] cmd = new String[args.length + 1];
    cmd[0] = "git";
    System.arraycopy(args, 0, cmd, 1, args.length);
    Process p;
    try {
      p =
          new ProcessBuilder(cmd)
              .directory(dir.toFile())
              .redirectError(ProcessBuilder.Redirect.DISCARD)
              .start();
    } catch (IOException e) {
      return null; // no git installed
    }
    try {
      p.getOutputStream().close();
      if (!p.waitFor(GIT_TIMEOUT_MS, TimeUnit.MILLISECONDS)) {
        p.destroyForcibly();
        return null;
      }
      if (p.exitValue() != 0) {
        return null;
      }
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
      return out.isEmpty() ? null : out.lines().findFirst().orElse(null);
    } catch (IOException e) {
      return null;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      p.destroyForcibly();
      return null;
    }
  }
}
