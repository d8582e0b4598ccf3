#!/usr/bin/env bash
# Client CPU per op and latency of the --rtt delay line: one client, select_only (one statement
# per op) and tpcb (seven), at --rtt 0 (no line installed), 1us (the line installed, next to no
# delay: its own cost), 0.5ms and 2ms, in one randomised run per workload. Client CPU is the whole
# client JVM's (the line's pump threads and its end-of-wait spin included).
# Usage: bench/rtt-cost.sh [TARGET_URL] [DURATION]   (needs pgbench tables: wg1bench init)
set -euo pipefail
cd "$(dirname "$0")/.."
TARGET=${1:-jdbc:postgresql://127.0.0.1:5432/postgres?user=postgres}
DURATION=${2:-10s}
OUT=$(mktemp -d)
for w in select_only tpcb; do
  java -jar target/wg1bench.jar --target "$TARGET" -w "$w" -c 1 -T "$DURATION" --warmup 3s \
    --repeat 1 --rtt 0,1us,0.5ms,2ms -o "$OUT/$w.json" >/dev/null
done
python3 - "$OUT" <<'PY'
import json, sys, glob
print("| workload | rtt | tps | p50 ms | p99 ms | client CPU us/op |")
print("|---|---|---|---|---|---|")
for f in sorted(glob.glob(sys.argv[1] + "/*.json")):
    d = json.load(open(f))
    for t in sorted(d["trials"], key=lambda t: t["client"]["rttMs"]):
        m = t["measurement"]
        lat = m["latencyMs"]
        print("| %s | %s | %.1f | %.3f | %.3f | %.1f |" % (
            t["point"]["workload"], t["point"].get("rtt", "0"), m["tps"],
            lat["p50"], lat["p99"], m["clientCpuMicrosPerOp"]))
PY
rm -rf "$OUT"
