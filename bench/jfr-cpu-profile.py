#!/usr/bin/env python3
"""Where a wg1bench fork's CPU goes, from a JFR recording's CPU samples.

  bench/jfr-cpu-profile.py RECORDING.jfr [SECONDS] [JFR]

Reads jdk.CPUTimeSample (Java 25+, native and Java code, user and system time of each Java thread)
and falls back to jdk.ExecutionSample (Java code only) when the recording has none. Only samples of
the last SECONDS (default 10) before the last op are kept, so set-up and warmup are left out.

Each sample is charged to the component that owns the running code: the top frame's, or for a JDK
frame the nearest caller outside the JDK (a socket read called by pgjdbc is pgjdbc's I/O). Printed:
shares by component, by top frame, and wg1bench's own frames. JVM threads (GC, JIT) are not Java
threads and are not sampled: their CPU is the fork's total minus what the samples cover.

Record a fork with e.g.
  JAVA_TOOL_OPTIONS="-XX:StartFlightRecording=filename=/tmp/w-%p.jfr,jdk.CPUTimeSample#enabled=true,jdk.CPUTimeSample#throttle=2ms" java -jar target/wg1bench.jar ...
(the largest file is the fork's).
"""
import collections
import datetime
import json
import subprocess
import sys

OWNERS = [
    ("org.HdrHistogram.", "wg1bench per-op bookkeeping (HdrHistogram)"),
    ("dev.wg1bench.jmh.", "wg1bench per-op bookkeeping (jmh/)"),
    ("dev.wg1bench.", "wg1bench script session (workload/, script/)"),
    ("org.postgresql.", "pgjdbc"),
    ("org.openjdk.jmh.", "JMH"),
    ("com.zaxxer.", "HikariCP"),
]
JDK = ("java.", "jdk.", "sun.", "javax.", "com.sun.")
# JDK leaf frames grouped by what they do, whoever called them
JDK_KIND = [
    (("sun.nio.ch.", "java.net.", "java.io."), "socket I/O"),
    (("java.lang.VirtualThread", "jdk.internal.vm.Continuation", "java.util.concurrent.ForkJoin",
      "jdk.internal.misc.Unsafe.park", "java.util.concurrent.locks.LockSupport"), "thread scheduling"),
    (("java.lang.System.nanoTime", "jdk.internal.misc.VM.getNanoTimeAdjustment"), "clock"),
]


def frame_name(f):
    m = f["method"]
    return m["type"]["name"].replace("/", ".") + "." + m["name"]


def owner(frames):
    for f in frames:
        n = frame_name(f)
        if n.startswith(JDK):
            continue
        for prefix, label in OWNERS:
            if n.startswith(prefix):
                return label
        return "other: " + n.rsplit(".", 2)[0]
    return "JDK only (no caller outside the JDK in the stack)"


def jdk_kind(top):
    for prefixes, label in JDK_KIND:
        if top.startswith(prefixes):
            return label
    return "other JDK code" if top.startswith(JDK) else None


def main():
    path = sys.argv[1]
    window = float(sys.argv[2]) if len(sys.argv) > 2 else 10.0
    jfr = sys.argv[3] if len(sys.argv) > 3 else "jfr"
    events = []
    for kind in ("jdk.CPUTimeSample", "jdk.ExecutionSample"):
        out = subprocess.run([jfr, "print", "--json", "--stack-depth", "64", "--events", kind, path],
                             check=True, capture_output=True, text=True).stdout
        events = [e for e in json.loads(out)["recording"]["events"]
                  if e["values"].get("stackTrace") and not e["values"].get("failed")]
        if events:
            break
    def at(e):
        return datetime.datetime.fromisoformat(e["values"]["startTime"]).timestamp()
    ops = [at(e) for e in events
           if any("WorkloadBenchmark" in frame_name(f) for f in e["values"]["stackTrace"]["frames"])]
    end = max(ops) if ops else max(at(e) for e in events)
    kept = [e for e in events if end - window <= at(e) <= end]
    n = len(kept)
    print(f"{kind}: {n} samples in the last {window:g} s before the last op ({len(events)} in all)")
    by_owner, by_top, own, by_io = (collections.Counter() for _ in range(4))
    for e in kept:
        frames = e["values"]["stackTrace"]["frames"]
        top = frame_name(frames[0])
        o = owner(frames)
        by_owner[o] += 1
        by_top[top] += 1
        k = jdk_kind(top)
        by_io[f"{o} / {k or 'own code'}"] += 1
        if o.startswith("wg1bench per-op"):
            own[next(frame_name(f) for f in frames if not frame_name(f).startswith(JDK))
                + ("" if k is None else f" -> {top}")] += 1
    for title, c, rows in (("by owner", by_owner, 20), ("by owner / JDK leaf kind", by_io, 25),
                           ("by top frame", by_top, 25), ("wg1bench per-op frames", own, 25)):
        print(f"\n{title}:")
        for k, v in c.most_common(rows):
            print(f"  {100.0 * v / n:5.1f}%  {v:6d}  {k}")


if __name__ == "__main__":
    main()
