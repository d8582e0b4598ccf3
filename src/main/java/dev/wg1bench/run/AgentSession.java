package dev.wg1bench.run;

import dev.wg1bench.fork.ForkReport;
import dev.wg1bench.jmh.AgentGate;
import dev.wg1bench.jmh.JmhLaunch;
import dev.wg1bench.jmh.TrialSpec;
import dev.wg1bench.plan.AgentSpec;
import dev.wg1bench.plan.Matrix;
import dev.wg1bench.plan.RunFailure;
import dev.wg1bench.plan.RunPlan;
import dev.wg1bench.plan.UsageException;
import dev.wg1bench.result.AgentRun;
import dev.wg1bench.result.BenchmarkRun;
import dev.wg1bench.result.Machine;
import dev.wg1bench.result.TrialResult;
import dev.wg1bench.server.ConnectionFactory;
import dev.wg1bench.server.TargetKind;
import dev.wg1bench.server.Targets;
import dev.wg1bench.workload.OpCounts;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * This process as one agent of a run: its share of the clients, the rendezvous before each trial,
 * its window of each trial in the server's clock, and its result stored in the target at the end.
 */
final class AgentSession implements AutoCloseable {
  private final AgentSpec spec;
  private final int globalClients;
  private final Rendezvous rendezvous;
  private final String host;
  private final long pid;
  private final List<AgentRun.Part> parts = new ArrayList<>();
  private Instant agreed;

  /** How much longer than the rendezvous timeout a fork waits for its parent's answer. */
  private static final Duration GATE_GRACE = Duration.ofSeconds(60);

  private AgentSession(AgentSpec spec, int globalClients, Rendezvous r, String host) {
    this.spec = spec;
    this.globalClients = globalClients;
    this.rendezvous = r;
    this.host = host;
    this.pid = ProcessHandle.current().pid();
  }

  /**
   * The combinations an agent cannot run: each trial must be one fork on one shared server, with
   * the same clients in every point (the share is fixed when the agent joins), and at least one
   * client per agent.
   */
  static void validate(AgentSpec spec, Matrix m) {
    if (m.targets().size() != 1) {
      throw new UsageException(
          "--agent needs exactly one --target (the server every agent reaches), got "
              + m.targets().size());
    }
    if (Targets.has(m.targets().get(0).kind(), TargetKind.Trait.ONE_PER_PROCESS)) {
      throw new UsageException(
          "--agent needs a --target every agent reaches (a jdbc:postgresql:// URL); an embedded"
              + " server would be one per agent");
    }
    List<Integer> clients = m.points().stream().map(p -> p.plan().clients()).distinct().toList();
    if (clients.size() != 1) {
      throw new UsageException(
          "--agent needs one --clients value (the agents split it), got " + clients);
    }
    if (clients.get(0) < spec.count()) {
      throw new UsageException(
          "--clients must be at least the number of agents ("
              + spec.count()
              + ") with --agent, got "
              + clients.get(0));
    }
    for (Matrix.Point p : m.points()) {
      int forks = p.plan().timing().forks();
      if (forks != 1) {
        throw new UsageException(
            "--forks must be 1 with --agent (each agent's fork is held until all agents are"
                + " ready), got "
                + forks);
      }
    }
  }

  static AgentSession join(AgentSpec spec, Matrix m, ConnectionFactory admin, PrintStream out) {
    int global = m.points().get(0).plan().clients();
    String host = Machine.current().hostname();
    Rendezvous r = new Rendezvous(spec, admin, out);
    try {
      r.join(
          host,
          ProcessHandle.current().pid(),
          spec.firstClient(global),
          spec.clients(global),
          global);
    } catch (RuntimeException e) {
      r.close();
      throw e;
    }
    return new AgentSession(spec, global, r, host);
  }

  /** Only agent 0 prepares tables and does the hygiene between trials; the others wait for it. */
  boolean preparesData() {
    return spec.index() == 0;
  }

  /** The plan this agent's JMH runs: its share of the clients. */
  RunPlan share(RunPlan plan) {
    return plan.withClients(spec.clients(globalClients));
  }

  /** The trial with this agent's slot: its global client ids, its fork held at the gate. */
  TrialSpec slot(TrialSpec t) {
    long gateTimeout = spec.rendezvousTimeout().plus(GATE_GRACE).toMillis();
    return t.withSlot(
        new TrialSpec.ClientSlot(spec.firstClient(globalClients), globalClients, gateTimeout));
  }

  /**
   * Runs the trial's JMH fork and, once its clients are connected and held at the gate, meets the
   * other agents and lets the fork go at the agreed start (see {@link AgentGate}).
   */
  JmhLaunch.Outcome run(
      TrialSpec t, RunPlan plan, Supplier<JmhLaunch.Outcome> jmh, PrintStream out) {
    AtomicReference<JmhLaunch.Outcome> outcome = new AtomicReference<>();
    AtomicReference<RuntimeException> failure = new AtomicReference<>();
    Thread runner =
        new Thread(
            () -> {
              try {
                outcome.set(jmh.get());
              } catch (RuntimeException e) {
                failure.set(e);
              }
            },
            "wg1bench-agent-trial");
    runner.start();
    Path ready = t.dir().resolve(AgentGate.READY);
    try {
      while (!Files.exists(ready) && runner.isAlive()) {
        Thread.sleep(20);
      }
      if (Files.exists(ready)) {
        try {
          agreed = rendezvous.await(t.sequence(), plan.timing().warmup());
        } catch (RuntimeException e) {
          AgentGate.abort(t.dir(), ConnectionFactory.oneLine(e));
          runner.join();
          throw e;
        }
        AgentGate.start(t.dir(), rendezvous.toLocalEpochMs(agreed));
        out.printf(
            "all %d agents arrived; measurement starts at %s (server clock)%n",
            spec.count(), agreed);
      }
      runner.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      AgentGate.abort(t.dir(), "interrupted");
      throw new RunFailure("--agent: interrupted while running the trial");
    }
    if (failure.get() != null) {
      throw failure.get();
    }
    return outcome.get();
  }

  /** Records this agent's part of the trial: its window in the server's clock, its counts. */
  void measured(TrialResult r, JmhLaunch.Outcome outcome) {
    long start = Long.MAX_VALUE;
    long end = Long.MIN_VALUE;
    long cpu = 0;
    long coreNanos = 0;
    OpCounts measured = new OpCounts();
    OpCounts whole = new OpCounts();
    for (ForkReport f : outcome.forks()) {
      measured.add(f.measured);
      whole.add(f.whole);
      for (ForkReport.Window w : f.windows) {
        long startMs = w.startEpochMicros / 1000;
        start = Math.min(start, startMs);
        end = Math.max(end, startMs + Math.round(w.nanos / 1e6));
      }
      cpu += f.measuredCpuNanos;
      coreNanos += f.cores > 0 ? f.measuredNanos * f.cores : 0;
    }
    boolean any = start != Long.MAX_VALUE;
    parts.add(
        new AgentRun.Part(
            r.sequence(),
            r.point(),
            r.repeat(),
            agreed.toString(),
            any ? rendezvous.toServer(start).toString() : null,
            any ? rendezvous.toServer(end).toString() : null,
            r.measurement().ops(),
            r.measurement().failedOps(),
            coreNanos > 0 ? (double) cpu / coreNanos : null,
            r.measurement().latencyHistogram(),
            measured,
            whole));
  }

  /** The run as this agent's part, stored in the target for {@code merge --from-target}. */
  BenchmarkRun deliver(BenchmarkRun run) {
    AgentRun.Member me =
        new AgentRun.Member(
            spec.index(),
            host,
            pid,
            spec.firstClient(globalClients),
            spec.clients(globalClients),
            rendezvous.offsetMs(),
            rendezvous.rttMs(),
            List.copyOf(parts));
    BenchmarkRun mine =
        run.withAgents(
            new AgentRun(spec.runId(), spec.count(), globalClients, List.of(me), List.of()),
            run.trials(),
            run.summary());
    rendezvous.deliver(mine);
    return mine;
  }

  void fail(String why) {
    rendezvous.fail(why);
  }

  @Override
  public void close() {
    rendezvous.close();
  }
}
