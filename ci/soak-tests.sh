#!/usr/bin/env bash
# Flake hunt: runs server-backed and container test classes N times, optionally with a CPU hog on
# every core or a benchmark beside them, and prints passes and failures per test.
#
#   ci/soak-tests.sh [-n RUNS] [--hog] [--neighbour] [--tests CLASSES] [--its CLASSES]
#
#   -n RUNS         how many times (default 10)
#   --hog           a busy loop on every core for the whole soak (what a loaded CI machine does)
#   --neighbour     a second JVM benchmark beside the tests for the whole soak: the jar's
#                   select_only with 8 clients on an embedded server of its own, 60 s runs one after
#                   another (what another job's benchmark on a shared CI machine does: CPU, memory
#                   bandwidth, fsync and a JVM's start-ups, not just busy loops); stopped by its
#                   process group's id at the end, its log in target/soak/neighbour.log
#   --tests LIST    surefire classes, comma-separated (default: the classes that talk to a server
#                   in ways timing can disturb: faults, timeouts, poolers, containers, exact counts,
#                   and those that need ops of a trial: a short timed window, or -t counts)
#   --its LIST      failsafe classes, comma-separated (default JarIT; "none" for none)
#
# Builds once (mvn package -DskipTests), then runs only the tests each time (surefire:test,
# failsafe:integration-test), so a run costs what the tests cost. The container classes need a
# Docker engine with the images: run under `eval "$(ci/docker-engine.sh start)"` and ci/images.sh,
# as .ci/run does; without one they skip, and the table says so. Reports of every run are kept
# under target/soak/RUN/. Exit status: 0 when every test passed in every run.
set -euo pipefail
cd "$(dirname "$0")/.."

runs=10
hog=false
tests=PgBouncerTest,StatementTimeoutTest,ServerFaultsTest,ExactThroughputTest,TlsClientsTest,ClientStopsTest,FailedOpsTest,PgbenchFlagsTest,AdviseTest,AuthSecretsTest,ContainerTargetsTest,AgentsTest
# the classes that assert ops in a trial: timed windows, or -t counts that replaced them
tests+=,ScriptDbTest,WorkloadDataTest,JavaWorkloadTest,ThreadsKnobTest,DeclaredKnobTest,AdviseClassesTest,HistoryConfirmTest,ApiExampleTest,SideBySideTest,SetupFailureTest,ComparisonFailuresTest
neighbour=false
its=JarIT
while [[ $# -gt 0 ]]; do
  case "$1" in
  -n) runs=$2; shift 2 ;;
  --hog) hog=true; shift ;;
  --neighbour) neighbour=true; shift ;;
  --tests) tests=$2; shift 2 ;;
  --its) its=$2; shift 2 ;;
  *) echo "usage: $0 [-n RUNS] [--hog] [--neighbour] [--tests CLASSES] [--its CLASSES]" >&2; exit 2 ;;
  esac
done

hogs=()
neighbour_pid=
stop_hogs() {
  for p in "${hogs[@]}"; do kill "$p" 2>/dev/null || true; done
  if [[ -n $neighbour_pid ]]; then
    # its own process group (setsid): the loop, the JVM and the JVM's embedded server. TERM first,
    # so the JVM's shutdown hook stops its server and removes its data directory; KILL what is left
    kill -TERM -- "-$neighbour_pid" 2>/dev/null || true
    for _ in $(seq 1 100); do
      kill -0 -- "-$neighbour_pid" 2>/dev/null || break
      sleep 0.1
    done
    kill -KILL -- "-$neighbour_pid" 2>/dev/null || true
    echo "soak: neighbour stopped (process group $neighbour_pid)"
  fi
}
trap stop_hogs EXIT
if $hog; then
  for _ in $(seq 1 "$(nproc)"); do
    # a plain busy loop, one per core, as stress-ng --cpu would be (no package needed)
    bash -c 'while :; do :; done' &
    hogs+=($!)
  done
  echo "soak: CPU hog on $(nproc) cores (pids ${hogs[*]})"
fi

echo "soak: building once"
mvn -B -q package -DskipTests
out=target/soak
rm -rf "$out"
mkdir -p "$out"
if $neighbour; then
  # a copy of the jar: the tests' own builds must not replace the file the neighbour runs from
  cp target/wg1bench.jar "$out/neighbour.jar"
  soak=$$
  # bounded: each run lasts 60 s, and the loop ends when this script is gone, however it ended
  setsid bash -c '
    n=0
    while kill -0 "$1" 2>/dev/null; do
      n=$((n + 1))
      java -jar "$2/neighbour.jar" --workload select_only -c 8 -T 60s --warmup 0 --iterations 6 \
        --forks 1 -o "$2/neighbour-$n.json" >>"$2/neighbour.log" 2>&1 || sleep 1
    done' neighbour "$soak" "$out" &
  neighbour_pid=$!
  echo "soak: neighbour benchmark beside the tests (process group $neighbour_pid)"
fi
start=$SECONDS
for i in $(seq 1 "$runs"); do
  t0=$SECONDS
  rm -rf target/surefire-reports target/failsafe-reports
  mvn -B -o -q surefire:test -Dtest="$tests" -Dsurefire.failIfNoSpecifiedTests=false \
    >"$out/run-$i.log" 2>&1 || true
  if [[ $its != none ]]; then
    mvn -B -o -q failsafe:integration-test -Dit.test="$its" -Dfailsafe.failIfNoSpecifiedTests=false \
      >>"$out/run-$i.log" 2>&1 || true
  fi
  mkdir -p "$out/$i"
  cp target/surefire-reports/TEST-*.xml "$out/$i/" 2>/dev/null || true
  cp target/failsafe-reports/TEST-*.xml "$out/$i/" 2>/dev/null || true
  echo "soak: run $i of $runs done in $((SECONDS - t0)) s"
done
echo "soak: $runs runs in $((SECONDS - start)) s$($hog && echo ", CPU hog on every core")$($neighbour && echo ", a benchmark beside them ($(ls "$out"/neighbour-*.json 2>/dev/null | wc -l) runs of it completed)")"

python3 - "$out" "$runs" <<'PY'
import glob, os, sys, xml.etree.ElementTree as ET
out, runs = sys.argv[1], int(sys.argv[2])
rows = {}
for i in range(1, runs + 1):
    for f in glob.glob(os.path.join(out, str(i), "TEST-*.xml")):
        for tc in ET.parse(f).getroot().iter("testcase"):
            name = tc.get("classname").rsplit(".", 1)[-1] + "." + tc.get("name")
            r = rows.setdefault(name, {"pass": 0, "fail": 0, "skip": 0, "fails": []})
            if tc.find("failure") is not None or tc.find("error") is not None:
                r["fail"] += 1
                r["fails"].append(i)
            elif tc.find("skipped") is not None:
                r["skip"] += 1
            else:
                r["pass"] += 1
w = max([len(n) for n in rows] + [4])
print(f"{'test':<{w}}  runs  passed  failed  skipped  failed in runs")
bad = 0
for n in sorted(rows):
    r = rows[n]
    seen = r["pass"] + r["fail"] + r["skip"]
    bad += r["fail"] + (runs - seen)
    print(f"{n:<{w}}  {seen:>4}  {r['pass']:>6}  {r['fail']:>6}  {r['skip']:>7}  {','.join(map(str, r['fails']))}")
sys.exit(1 if bad else 0)
PY
