#!/usr/bin/env bash
# Every built-in pgbench-family workload in every query mode against one target, then a table of
# tps, p99 and failures read from the JSON results. Usage:
#   bench/all-workloads.sh [TARGET_URL] [CLIENTS] [DURATION]
# e.g. bench/all-workloads.sh jdbc:postgresql://127.0.0.1:5432/test 4 10s
# The target must have been initialized (wg1bench init --scale N --target URL).
set -euo pipefail
cd "$(dirname "$0")/.."
target=${1:-jdbc:postgresql://127.0.0.1:5432/test}
clients=${2:-4}
duration=${3:-10s}
jar=target/wg1bench.jar
[ -f "$jar" ] || mvn -B -q package -DskipTests
out=results/all-workloads-$(date +%Y%m%d-%H%M%S)
mkdir -p "$out"
workloads=$(java -jar "$jar" list | awk 'NR > 1 {print $1}')
for w in $workloads; do
  for m in simple extended prepared; do
    echo "== $w -M $m"
    code=0
    java -jar "$jar" --workload "$w" -M "$m" --clients "$clients" --duration "$duration" --warmup 2s \
      --target "local=$target" --output "$out/$w-$m.json" > "$out/$w-$m.log" 2>&1 || code=$?
    grep -E '^(tps|number of ops|failures)' "$out/$w-$m.log" || tail -3 "$out/$w-$m.log"
    [ "$code" = 0 ] || echo "   exit code $code"
  done
done
python3 - "$out" <<'PY'
import json, glob, sys, os
rows = []
for f in sorted(glob.glob(os.path.join(sys.argv[1], '*.json'))):
    d = json.load(open(f))
    t = d['trials'][0]; m = t['measurement']
    rows.append((d['workload'], t['client']['queryMode'], m['tps'], m['tpsError'] or 0, m.get('rowsPerSecond'),
                 m['latencyMs']['p50'], m['latencyMs']['p99'], m['failedOps'], m['retries'], t['client']['ssl']))
print(f"{'workload':18} {'mode':9} {'tps':>10} {'±99.9%':>8} {'rows/s':>10} {'p50 ms':>8} {'p99 ms':>8} {'failed':>7} {'retries':>7} ssl")
for r in rows:
    rs = f"{r[4]:10.0f}" if r[4] else f"{'':>10}"
    print(f"{r[0]:18} {r[1]:9} {r[2]:10.1f} {r[3]:8.1f} {rs} {r[5]:8.3f} {r[6]:8.3f} {r[7]:7d} {r[8]:7d} {r[9]}")
PY
