#!/usr/bin/env bash
# A history with a known step: RUNS runs of select_only stored with --history, the database's
# planner losing its index and bitmap scans (ALTER DATABASE ... SET, so the series keeps its name:
# the configuration changes on the server, not on wg1bench's command line) from run STEP on; then
# 'history analyze' and 'history check' on the whole history and on the history up to STEP and up
# to STEP-1; last, the gate's same-machine mode on the history up to STEP: every series it leaves
# borderline or flags re-measured in randomized blocks, the baseline's planner settings against
# the candidate's. The database's settings are reset at the end.
#
#   bench/history-step.sh [HOST] [PORT] [DB] [RUNS] [STEP] [DURATION_S]
#   e.g. bench/history-step.sh 127.0.0.1 5432 hist_step 10 7 4
#
# DB is created (pgbench -i, scale 1) if missing. HISTORY=jdbc:postgresql://... stores into a
# shared schema as well (with 'history add'); the folder history is under results/.
set -euo pipefail
cd "$(dirname "$0")/.."
host=${1:-127.0.0.1}; port=${2:-5432}; db=${3:-hist_step}; runs=${4:-10}; step=${5:-7}; dur=${6:-4}
user=${PGUSER:-postgres}
jar=target/wg1bench.jar
[ -f "$jar" ] || mvn -B -q package -DskipTests
out=results/history-step-$(date +%Y%m%d-%H%M%S); mkdir -p "$out"
export WG1BENCH_HOME=$PWD/$out/home
psql() { command psql -h "$host" -p "$port" -U "$user" -qX "$@"; }
psql -d postgres -tAc "select 1 from pg_database where datname = '$db'" | grep -q 1 ||
  { psql -d postgres -c "create database $db" && pgbench -h "$host" -p "$port" -U "$user" -i -q "$db"; }
trap 'psql -d postgres -c "alter database $db reset all"' EXIT
url="jdbc:postgresql://$host:$port/$db?user=$user"
for i in $(seq 1 "$runs"); do
  if [ "$i" = "$step" ]; then
    psql -d postgres -c "alter database $db set enable_indexscan = off" \
      -c "alter database $db set enable_bitmapscan = off"
  fi
  java -jar "$jar" --workload select_only -c 2 -T "${dur}s" --target "$url" \
    --output "$out/run$i.json" --history --attr commit=c$i >"$out/run$i.log" 2>&1 || true
  echo "run $i: $(grep -m1 '^tps' "$out/run$i.log")"
  if [ -n "${HISTORY:-}" ]; then
    java -jar "$jar" history add "$out/run$i.json" --history "$HISTORY" --attr commit=c$i >/dev/null
  fi
done
java -jar "$jar" history analyze --series 'select_only*'
for upto in "$((step - 1))" "$step"; do
  export WG1BENCH_HOME=$PWD/$out/home-$upto
  for i in $(seq 1 "$upto"); do
    java -jar "$jar" history add "$out/run$i.json" --attr commit=c$i >/dev/null
  done
  rc=0; java -jar "$jar" history check >"$out/check-$upto.txt" 2>&1 || rc=$?
  echo "history check with runs 1..$upto: exit $rc"; cat "$out/check-$upto.txt"
done
# the baseline's planner (index scans on, set in its sessions) against the candidate's (the
# database's setting since run STEP): both arms see the same server, data and machine, now
export WG1BENCH_HOME=$PWD/$out/home-$step
rc=0
java -jar "$jar" history check --confirm all --target "$url" \
  --confirm-baseline "--workload select_only -c 2 --set enable_indexscan=on --set enable_bitmapscan=on" \
  --confirm-candidate "--workload select_only -c 2" --blocks 4 -T "${dur}s" --warmup 1s \
  --iterations 1 -o "$out/confirm.json" >"$out/check-confirm.txt" 2>"$out/check-confirm.err" || rc=$?
echo "history check --confirm all with runs 1..$step: exit $rc"; cat "$out/check-confirm.txt"
