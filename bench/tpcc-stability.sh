#!/usr/bin/env bash
# The NTT slides' stability test on TPC-C: autovacuum with the seed's settings
# (autovacuum_vacuum_scale_factor = 0.01, autovacuum_vacuum_threshold = 0) against autovacuum off,
# for DURATION each, as two runs side by side on this machine. Each arm has a throwaway cluster of
# its own (stock settings, initdb's defaults) loaded with `init --workload tpcc --scale W`, and the
# arm's cluster and its wg1bench are pinned to one core of their own (taskset), so the two arms see
# the same hours of the machine and never take each other's CPU; they share the disk (each its own
# WAL). The autovacuum settings are per-table storage parameters (--table-option) on the nine
# tables, so each result records them. Each run samples throughput and latency, and the tables'
# sizes, dead tuples and autovacuum runs, every PROGRESS seconds; `report` draws them.
#
#   bench/tpcc-stability.sh [DURATION] [W] [TERMINALS] [PROGRESS]
#
# Defaults: 1h, 2 warehouses, 4 terminals, 60 s. Needs PostgreSQL's server binaries (PGBIN,
# default /usr/lib/postgresql/15/bin) and two cores; run as root or as a user who may run them.
# Writes OUT (default bench/results/tpcc-stability-DATE/): on.json, off.json, the report, a summary.
set -euo pipefail
cd "$(dirname "$0")/.."
DURATION=${1:-1h}
W=${2:-2}
TERMINALS=${3:-4}
PROGRESS=${4:-60}
BIN=${PGBIN:-/usr/lib/postgresql/15/bin}
JAR=${JAR:-target/wg1bench.jar}
OUT=${OUT:-bench/results/tpcc-stability-$(date +%F)}
[ -f "$JAR" ] || mvn -B -q package -DskipTests
mkdir -p "$OUT"
WORK=$(mktemp -d /tmp/wg1bench-stability-XXXXXX)
chmod 755 "$WORK"
as_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
[ "$(id -u)" = 0 ] && chown postgres "$WORK"
declare -A PORT=([on]=5461 [off]=5462) CORE=([on]=0 [off]=1)
declare -A OPTS=(
  [on]="--table-option autovacuum_vacuum_scale_factor=0.01 --table-option autovacuum_vacuum_threshold=0"
  [off]="--table-option autovacuum_enabled=off")
stop_all() {
  for arm in on off; do
    as_pg "$BIN/pg_ctl" -D "$WORK/$arm" -m immediate stop >/dev/null 2>&1 || true
  done
  rm -rf "$WORK"
}
trap stop_all EXIT
for arm in on off; do
  as_pg "$BIN/initdb" -D "$WORK/$arm" -U postgres -A trust >/dev/null
  as_pg taskset -c "${CORE[$arm]}" "$BIN/pg_ctl" -D "$WORK/$arm" -l "$WORK/$arm.log" -w \
    -o "-p ${PORT[$arm]} -k $WORK -c listen_addresses=127.0.0.1" start >/dev/null
  url="jdbc:postgresql://127.0.0.1:${PORT[$arm]}/postgres?user=postgres"
  taskset -c "${CORE[$arm]}" java -jar "$JAR" init --workload tpcc --scale "$W" --target "$url" |
    tail -1
done
echo "arms side by side from $(date -u +%FT%TZ): $DURATION each, W=$W, $TERMINALS terminals"
pids=()
for arm in on off; do
  url="jdbc:postgresql://127.0.0.1:${PORT[$arm]}/postgres?user=postgres"
  # shellcheck disable=SC2086 # OPTS holds several options
  taskset -c "${CORE[$arm]}" java -jar "$JAR" --workload tpcc --target "$arm=$url" \
    --scale "$W" --clients "$TERMINALS" --duration "$DURATION" --warmup 30s --progress "$PROGRESS" \
    ${OPTS[$arm]} --check -o "$OUT/$arm.json" >"$OUT/$arm.console.txt" 2>&1 &
  pids+=($!)
done
rc=0
for p in "${pids[@]}"; do wait "$p" || rc=$?; done
for arm in on off; do
  as_pg "$BIN/pg_ctl" -D "$WORK/$arm" -m fast stop >/dev/null
done
java -jar "$JAR" report --html "$OUT/report" "$OUT/on.json" "$OUT/off.json" >/dev/null || rc=$?
python3 - "$OUT" <<'EOF' | tee "$OUT/summary.txt"
import json, sys
out = sys.argv[1]
HOT = ("stock", "customer", "district", "order_line")
for arm in ("on", "off"):
    t = json.load(open(f"{out}/{arm}.json"))["trials"][0]
    m = t["measurement"]
    print(f"== {arm}: tps {m['tps']}, ops {m['ops']}, failed {m['failedOps']}, "
          f"check {(t.get('check') or {}).get('ok', t.get('check'))}")
    print("  trial s    ops/s   p99 ms")
    for p in t.get("progress") or []:
        if p.get("phase") == "measurement":
            print(f"  {p['t']:10.0f} {p['opsPerSecond']:7.1f} {p['p99Ms']:8.2f}")
    print("  trial s   dead tuples " + "/".join(HOT) + "   MB tables+indexes (stock)   autovacuums")
    for s in t.get("serverSamples") or []:
        tb = s["tables"]
        dead = "/".join(str(tb[n]["deadTuples"]) for n in HOT)
        mb = sum(x["tableBytes"] + x["indexBytes"] for x in tb.values()) / 1e6
        st = (tb["stock"]["tableBytes"] + tb["stock"]["indexBytes"]) / 1e6
        av = sum(x["autovacuums"] for x in tb.values())
        print(f"  {s['t']:7.0f}   {dead:40} {mb:8.1f} ({st:6.1f})   {av:5}")
EOF
exit $rc
