#!/usr/bin/env bash
# TPC-C against BenchBase's, side by side on one server: NOPM and the client's CPU per New-Order.
#
#   bench/tpcc-vs-benchbase.sh BENCHBASE_DIR [WAREHOUSES] [TERMINALS] [SECONDS] [ROUNDS]
#
# BENCHBASE_DIR holds BenchBase built from its source for PostgreSQL (outside this repository:
#   JAVA_HOME=<JDK 23+> mvn -P postgres -DskipTests -Dfmt.skip=true package   with -Werror removed,
# then unpack target/benchbase-postgres.tgz); it is run with $BB_JAVA (default Temurin 25).
# Each tool gets a database of its own (their schemas share table names), loaded at the same scale;
# then ROUNDS rounds run each tool for SECONDS with TERMINALS terminals, no think time, read
# committed, the order alternating between rounds (BenchBase first in odd rounds) so that a drift of
# the machine falls on both. Counted by the server, not the tools: New-Orders are the rows each run
# added to its orders table; NOPM is those over the run's execution time as the tool reports it;
# the client's CPU is the tool's whole process (user + system, JVM start-up included, both alike)
# over the New-Orders its run committed.
#
# WG_VARIANTS (env): wg1bench's runs, ';'-separated extra options, each a tool of its own in every
# round, e.g. 'WG_VARIANTS=";-M prepared;-M prepared --threads virtual"' (default: one run with no
# extra options).
set -euo pipefail
BB=${1:?usage: bench/tpcc-vs-benchbase.sh BENCHBASE_DIR [W] [TERMINALS] [SECONDS] [ROUNDS]}
W=${2:-2}
C=${3:-8}
T=${4:-60}
R=${5:-2}
BB_JAVA=${BB_JAVA:-/usr/lib/jvm/temurin-25-jdk-amd64/bin/java}
HOST=${PGHOST:-127.0.0.1}
PORT=${PGPORT:-5432}
PGU=${PGUSER:-postgres}
cd "$(dirname "$0")/.."
JAR=target/wg1bench.jar
[[ -f $JAR ]] || mvn -B -q package -DskipTests
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
WGDB=bench_tpcc_wg1bench
BBDB=bench_tpcc_benchbase
psql_() { psql -h "$HOST" -p "$PORT" -U "$PGU" -X -q -t -A "$@"; }

echo "== $(date -u +%FT%TZ) W=$W terminals=$C seconds=$T rounds=$R; load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "server: $(psql_ -d postgres -c 'select version()' | cut -d, -f1); ssl=$(psql_ -d postgres -c 'show ssl')"
echo "wg1bench $(git rev-parse --short HEAD); BenchBase $(ls "$BB"/benchbase.jar)"

for db in $WGDB $BBDB; do
  psql_ -d postgres -c "drop database if exists $db" -c "create database $db"
done

cat >"$WORK/bb.xml" <<XML
<?xml version="1.0"?>
<parameters>
  <type>POSTGRES</type>
  <driver>org.postgresql.Driver</driver>
  <url>jdbc:postgresql://$HOST:$PORT/$BBDB?sslmode=disable&amp;reWriteBatchedInserts=true</url>
  <username>$PGU</username>
  <password></password>
  <reconnectOnConnectionFailure>true</reconnectOnConnectionFailure>
  <isolation>TRANSACTION_READ_COMMITTED</isolation>
  <batchsize>128</batchsize>
  <scalefactor>$W</scalefactor>
  <terminals>$C</terminals>
  <works><work><time>$T</time><rate>unlimited</rate><weights>45,43,4,4,4</weights></work></works>
  <transactiontypes>
    <transactiontype><name>NewOrder</name></transactiontype>
    <transactiontype><name>Payment</name></transactiontype>
    <transactiontype><name>OrderStatus</name></transactiontype>
    <transactiontype><name>Delivery</name></transactiontype>
    <transactiontype><name>StockLevel</name></transactiontype>
  </transactiontypes>
</parameters>
XML

timed() { /usr/bin/time -f "%e %U %S" -o "$WORK/time" "$@"; }

echo "== load"
timed java -jar "$JAR" init --workload tpcc --scale "$W" --force \
  --target "jdbc:postgresql://$HOST:$PORT/$WGDB?user=$PGU" >"$WORK/wg-load.log" 2>&1
echo "wg1bench load: $(cut -d' ' -f1 "$WORK/time") s wall"
(cd "$BB" && timed "$BB_JAVA" -jar benchbase.jar -b tpcc -c "$WORK/bb.xml" --create=true --load=true \
  -d "$WORK/bb-load" >"$WORK/bb-load.log" 2>&1)
echo "BenchBase load: $(cut -d' ' -f1 "$WORK/time") s wall"
for db in $WGDB $BBDB; do psql_ -d $db -c "vacuum analyze"; done

orders() { # rows in the tool's orders table (BenchBase names it oorder)
  if [[ $1 == wg ]]; then psql_ -d $WGDB -c "select count(*) from orders"; else psql_ -d $BBDB -c "select count(*) from oorder"; fi
}

IFS=';' read -r -a VARIANTS <<<"${WG_VARIANTS:-}"
[[ ${#VARIANTS[@]} -gt 0 ]] || VARIANTS=("")

run_wg() { # VARIANT_INDEX
  # shellcheck disable=SC2086 # a variant's options are words
  timed java -jar "$JAR" --workload tpcc -c "$C" -T "${T}s" --warmup 0s --iterations 1 \
    --max-tries 10 -o "$WORK/wg.json" --target "jdbc:postgresql://$HOST:$PORT/$WGDB?user=$PGU" \
    ${VARIANTS[$1]} >"$WORK/wg.log" 2>&1
  # the measured window as the result states it
  python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); m=r["trials"][0]["measurement"]; print(m.get("measuredSeconds") or m["throughput"]["measuredSeconds"])' "$WORK/wg.json"
}

run_bb() {
  rm -rf "$WORK/bb-out"
  (cd "$BB" && timed "$BB_JAVA" -jar benchbase.jar -b tpcc -c "$WORK/bb.xml" --execute=true \
    -d "$WORK/bb-out" >"$WORK/bb.log" 2>&1)
  echo "$T"
}

printf '%-6s %-40s %8s %10s %8s %10s %12s\n' round tool seconds new_orders NOPM cpu_s "cpu_ms/NO"
tools=(bb)
for ((v = 0; v < ${#VARIANTS[@]}; v++)); do tools+=("wg$v"); done
for ((r = 1; r <= R; r++)); do
  # BenchBase first in odd rounds, last in even ones; the variants' order reversed with it
  if ((r % 2)); then order=("${tools[@]}"); else order=(); for t in "${tools[@]}"; do order=("$t" "${order[@]}"); done; fi
  for tool in "${order[@]}"; do
    kind=${tool:0:2}
    before=$(orders "$kind")
    if [[ $kind == wg ]]; then secs=$(run_wg "${tool:2}"); name="wg1bench ${VARIANTS[${tool:2}]}"; else secs=$(run_bb); name=BenchBase; fi
    after=$(orders "$kind")
    # the last line: /usr/bin/time puts "Command exited with non-zero status N" before it
    read -r wall user sys < <(tail -1 "$WORK/time")
    if [[ $(head -1 "$WORK/time") == Command* ]]; then
      echo "$r $name: $(head -1 "$WORK/time"): $(tail -1 "$WORK/$kind.log" 2>/dev/null)"; continue
    fi
    python3 - "$r" "$name" "$secs" "$((after - before))" "$user" "$sys" <<'PY'
import sys
r, name, secs, no, user, sys_ = sys.argv[1], sys.argv[2].strip(), float(sys.argv[3]), int(sys.argv[4]), float(sys.argv[5]), float(sys.argv[6])
cpu = user + sys_
print(f"{r:<6} {name:<40} {secs:8.1f} {no:10d} {no / (secs / 60):8.0f} {cpu:10.1f} {1000 * cpu / max(no, 1):12.3f}")
PY
  done
done
for db in $WGDB $BBDB; do psql_ -d postgres -c "drop database if exists $db"; done
