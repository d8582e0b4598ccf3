#!/usr/bin/env bash
# Flake hunt: runs server-backed and container test classes N times, optionally with a CPU hog on
# every core, and prints passes and failures per test.
#
#   ci/soak-tests.sh [-n RUNS] [--hog] [--tests CLASSES] [--its CLASSES]
#
#   -n RUNS         how many times (default 10)
#   --hog           a busy loop on every core for the whole soak (what a loaded CI machine does)
#   --tests LIST    surefire classes, comma-separated (default: the classes that talk to a server
#                   in ways timing can disturb: faults, timeouts, poolers, containers, exact counts)
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
its=JarIT
while [[ $# -gt 0 ]]; do
  case "$1" in
  -n) runs=$2; shift 2 ;;
  --hog) hog=true; shift ;;
  --tests) tests=$2; shift 2 ;;
  --its) its=$2; shift 2 ;;
  *) echo "usage: $0 [-n RUNS] [--hog] [--tests CLASSES] [--its CLASSES]" >&2; exit 2 ;;
  esac
done

hogs=()
stop_hogs() {
  for p in "${hogs[@]}"; do kill "$p" 2>/dev/null || true; done
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
echo "soak: $runs runs in $((SECONDS - start)) s$($hog && echo ", CPU hog on every core")"

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
