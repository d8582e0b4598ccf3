package dev.wg1bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.wg1bench.plan.AgentSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

/**
 * The deployment manifests read as Kubernetes and Compose read them: the index wiring, all agents
 * at once, the password from the environment and never on a command line, and arguments wg1bench
 * accepts once the orchestrator has expanded them.
 */
class DeployManifestsTest {
  static final String INDEX_ANNOTATION =
      "metadata.annotations['batch.kubernetes.io/job-completion-index']";

  /** Kubernetes' $(VAR) in args, Compose's ${VAR} and ${VAR:-default}. */
  static final Pattern K8S_REF = Pattern.compile("\\$\\(([A-Za-z_][A-Za-z0-9_]*)\\)");

  static final Pattern COMPOSE_REF =
      Pattern.compile("\\$\\{([A-Za-z_][A-Za-z0-9_]*)(?::([-?])([^}]*))?}");

  @SuppressWarnings("unchecked")
  static Map<String, Object> yaml(String path) throws IOException {
    return (Map<String, Object>) new Yaml().load(Files.readString(Path.of(path)));
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> map(Object o, String what) {
    assertTrue(o instanceof Map, what + " is a mapping: " + o);
    return (Map<String, Object>) o;
  }

  @SuppressWarnings("unchecked")
  static List<Object> list(Object o, String what) {
    assertTrue(o instanceof List, what + " is a list: " + o);
    return (List<Object>) o;
  }

  static String after(List<String> args, String option) {
    int i = args.indexOf(option);
    assertTrue(i >= 0 && i + 1 < args.size(), option + " with a value in " + args);
    return args.get(i + 1);
  }

  /** What wg1bench would do with these arguments: parsed by its own command line, or a failure. */
  static void accepted(List<String> args) {
    String[] a = args.toArray(String[]::new);
    Main.commandLine(a).parseArgs(a);
  }

  static void noPasswordOnTheCommandLine(List<String> args) {
    for (String a : args) {
      assertFalse(a.toLowerCase().contains("password"), "a password on the command line: " + a);
    }
  }

  @Test
  void theIndexedJobStartsAllAgentsAtOnceWithTheirIndexAndTheSecret() throws IOException {
    Map<String, Object> job = yaml("deploy/k8s/agents-job.yaml");
    assertEquals("batch/v1", job.get("apiVersion"));
    assertEquals("Job", job.get("kind"));
    assertNotNull(map(job.get("metadata"), "metadata").get("name"));
    Map<String, Object> spec = map(job.get("spec"), "spec");
    assertEquals("Indexed", spec.get("completionMode"));
    int n = (Integer) spec.get("completions");
    // the agents wait for each other: fewer at once than completions would time the first out
    assertEquals(n, spec.get("parallelism"), "parallelism = completions");
    // a retried pod would join a run whose other agents have moved on
    assertEquals(0, spec.get("backoffLimit"));
    Map<String, Object> template = map(spec.get("template"), "template");
    Map<String, Object> pod = map(template.get("spec"), "template.spec");
    assertEquals("Never", pod.get("restartPolicy"));
    // the spread constraint selects the Job's own pods
    Map<String, Object> labels =
        map(map(template.get("metadata"), "template.metadata").get("labels"), "labels");
    for (Object c : list(pod.getOrDefault("topologySpreadConstraints", List.of()), "spread")) {
      Map<String, Object> match =
          map(map(map(c, "constraint").get("labelSelector"), "selector").get("matchLabels"), "m");
      assertTrue(labels.entrySet().containsAll(match.entrySet()), match + " vs " + labels);
    }
    List<Object> containers = list(pod.get("containers"), "containers");
    assertEquals(1, containers.size());
    Map<String, Object> c = map(containers.get(0), "container");
    assertNotNull(c.get("image"));
    assertEquals(null, c.get("command"), "the image's entrypoint runs wg1bench");

    Map<String, String> values = new HashMap<>();
    String indexVar = null;
    boolean passwordFromSecret = false;
    for (Object e : list(c.get("env"), "env")) {
      Map<String, Object> v = map(e, "env entry");
      String name = (String) v.get("name");
      assertTrue(v.containsKey("value") ^ v.containsKey("valueFrom"), name + ": value or from");
      if (v.containsKey("value")) {
        assertTrue(v.get("value") instanceof String, name + "'s value is a string");
        values.put(name, (String) v.get("value"));
        continue;
      }
      Map<String, Object> from = map(v.get("valueFrom"), name + ".valueFrom");
      if (from.containsKey("fieldRef")) {
        Object path = map(from.get("fieldRef"), "fieldRef").get("fieldPath");
        if (INDEX_ANNOTATION.equals(path)) {
          indexVar = name;
        } else {
          // the downward API: the pod's labels or annotations, the same on every pod of the Job
          assertTrue(
              String.valueOf(path).matches("metadata\\.(labels|annotations)\\['[^']+'\\]"),
              name + " from " + path);
          // what Kubernetes puts there, e.g. the Job's UID as the run id
          values.put(name, "3f0c9a52-8a61-4b8e-9d0e-1c2b3a4d5e6f");
        }
      } else if (from.containsKey("secretKeyRef")) {
        Map<String, Object> ref = map(from.get("secretKeyRef"), "secretKeyRef");
        assertNotNull(ref.get("name"));
        assertNotNull(ref.get("key"));
        passwordFromSecret |= name.equals("PGPASSWORD");
      }
    }
    assertTrue(passwordFromSecret, "PGPASSWORD comes from a Secret");
    assertFalse(values.containsKey("PGPASSWORD"), "no password written in the manifest");

    List<String> args = new ArrayList<>();
    for (Object a : list(c.get("args"), "args")) {
      // Kubernetes refuses a number or a boolean where a string belongs
      assertTrue(a instanceof String, "argument " + a + " is a string");
      args.add((String) a);
    }
    noPasswordOnTheCommandLine(args);
    String agent = after(args, "--agent");
    Matcher m = Pattern.compile("\\$\\((\\w+)\\)/(\\d+)").matcher(agent);
    assertTrue(m.matches(), "--agent $(INDEX)/N: " + agent);
    // the Job controller declares JOB_COMPLETION_INDEX itself; any other name must be declared
    assertTrue(
        m.group(1).equals("JOB_COMPLETION_INDEX") || m.group(1).equals(indexVar),
        m.group(1) + " is the completion index");
    assertEquals(n, Integer.parseInt(m.group(2)), "the N of --agent I/N = completions");
    assertTrue(args.contains("--run-id"));

    // each pod's arguments after Kubernetes expands them: what wg1bench is run with
    int global = Integer.parseInt(after(args, "--clients"));
    int clients = 0;
    Set<Integer> first = new HashSet<>();
    for (int i = 0; i < n; i++) {
      Map<String, String> env = new HashMap<>(values);
      env.put(m.group(1), Integer.toString(i));
      List<String> expanded = new ArrayList<>();
      for (String a : args) {
        Matcher r = K8S_REF.matcher(a);
        StringBuilder sb = new StringBuilder();
        while (r.find()) {
          // an undeclared $(VAR) stays as it is in Kubernetes: a wrong argument, not an expansion
          assertTrue(env.containsKey(r.group(1)), "$(" + r.group(1) + ") is declared in env");
          r.appendReplacement(sb, Matcher.quoteReplacement(env.get(r.group(1))));
        }
        r.appendTail(sb);
        expanded.add(sb.toString());
      }
      accepted(expanded);
      AgentSpec s =
          AgentSpec.parse(
              after(expanded, "--agent"), after(expanded, "--run-id"), Duration.ofSeconds(60));
      assertEquals(i, s.index());
      clients += s.clients(global);
      first.add(s.firstClient(global));
    }
    assertEquals(global, clients, "the agents' shares make up --clients");
    assertEquals(n, first.size());
  }

  @Test
  @SuppressWarnings("unchecked")
  void theComposeAgentsAreZeroToNMinusOneOfOneRunAndMergeFromTheTarget() throws IOException {
    Map<String, Object> compose = yaml("deploy/compose/docker-compose.yml");
    Map<String, Object> services = map(compose.get("services"), "services");
    Map<String, String> given =
        Map.of(
            "TARGET", "jdbc:postgresql://127.0.0.1:5432/bench?user=bench",
            "RUN_ID", "run-1");
    List<Integer> indexes = new ArrayList<>();
    Set<String> outputs = new HashSet<>();
    int n = -1;
    List<String> merge = null;
    for (Map.Entry<String, Object> e : services.entrySet()) {
      Map<String, Object> svc = map(e.getValue(), e.getKey());
      assertNotNull(svc.get("image"), e.getKey() + " has an image (merge keys resolved)");
      // the password passes through from the caller's environment, never a value in the file
      Object env = svc.get("environment");
      Map<String, Object> envMap = env instanceof Map ? (Map<String, Object>) env : Map.of();
      assertTrue(envMap.containsKey("PGPASSWORD"), e.getKey() + " passes PGPASSWORD through");
      assertEquals(null, envMap.get("PGPASSWORD"), "PGPASSWORD has no value in the file");
      List<String> args = new ArrayList<>();
      for (Object a : list(svc.get("command"), e.getKey() + ".command")) {
        args.add(interpolate(String.valueOf(a), given));
      }
      noPasswordOnTheCommandLine(args);
      accepted(args);
      if (args.get(0).equals("merge")) {
        merge = args;
        assertTrue(
            list(svc.get("profiles"), "profiles").size() > 0, "merge is not started by `up`");
        continue;
      }
      AgentSpec s =
          AgentSpec.parse(after(args, "--agent"), after(args, "--run-id"), Duration.ofSeconds(60));
      assertTrue(n < 0 || n == s.count(), "every agent has the same N");
      n = s.count();
      indexes.add(s.index());
      assertEquals("run-1", s.runId());
      assertTrue(outputs.add(after(args, "--output")), "each agent its own output file");
    }
    assertEquals(n, indexes.size(), "N agent services for --agent I/" + n);
    assertEquals(n, new HashSet<>(indexes).size(), "indexes distinct: " + indexes);
    assertNotNull(merge, "a merge service");
    assertTrue(merge.contains("--from-target"));
    assertEquals("run-1", after(merge, "--run-id"));
  }

  /** Compose's interpolation: a given value, else the default, and a required one must be given. */
  static String interpolate(String s, Map<String, String> given) {
    Matcher r = COMPOSE_REF.matcher(s);
    StringBuilder sb = new StringBuilder();
    while (r.find()) {
      String v = given.get(r.group(1));
      if (v == null) {
        assertEquals("-", r.group(2), "${" + r.group(1) + "} is required but not documented");
        v = r.group(3);
      }
      r.appendReplacement(sb, Matcher.quoteReplacement(v));
    }
    r.appendTail(sb);
    return sb.toString();
  }
}
