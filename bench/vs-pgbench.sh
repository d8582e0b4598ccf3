#!/usr/bin/env bash
# wg1bench against pgbench on the same server, workload, clients, query mode and TLS setting,
# interleaved A B A B, printing the ratio of throughputs and of client CPU time per op (each from
# the process's own CPU accounting: /usr/bin/time for pgbench, the forked JMH JVM's
# getProcessCpuTime over its measurement for wg1bench).
#
#   bench/vs-pgbench.sh [HOST] [PORT] [DB] [DURATION_S] [ROUNDS]
#   e.g. bench/vs-pgbench.sh 127.0.0.1 5432 test 10 2
#
# The database must hold pgbench tables (wg1bench init or pgbench -i); insert8 grows pgbench_history.
# SSLMODE=disable|prefer|require picks TLS for both tools (default: disable); MODE the query mode
# (default prepared); WARMUP wg1bench's JIT warmup in seconds (default 5); WORKLOADS and CLIENTS the
# grid (default "tpcb select_only update1 insert8" and "4 16"); JOBS=same runs pgbench with -j equal
# to the clients (see below).
set -euo pipefail
cd "$(dirname "$0")/.."
host=${1:-127.0.0.1}; port=${2:-5432}; db=${3:-test}; dur=${4:-10}; rounds=${5:-2}
user=${PGUSER:-postgres}
sslmode=${SSLMODE:-disable}
mode=${MODE:-prepared}
warmup=${WARMUP:-5}
jar=target/wg1bench.jar
[ -f "$jar" ] || mvn -B -q package -DskipTests
out=results/vs-pgbench-$(date +%Y%m%d-%H%M%S); mkdir -p "$out"
# pgbench's threads: nproc by default (its best: each thread polls several connections); JOBS=same
# gives it one thread per client, wg1bench's model (pgjdbc blocks, so one thread per connection),
# which separates the cost of the threading model from the cost of the JVM client.
threads=$(nproc)
url="jdbc:postgresql://$host:$port/$db?user=$user"
pg_script() {  # the pgbench equivalent of a wg1bench workload
  case $1 in
    tpcb) echo "-b tpcb-like" ;;
    select_only) echo "-b select-only" ;;
    *) echo "-f workloads/$1.sql" ;;
  esac
}
echo "query mode $mode, sslmode $sslmode, pgbench -j $([ "${JOBS:-}" = same ] && echo "= clients (one thread per connection, as wg1bench)" || echo "min(clients, $threads)")"
printf "%-12s %7s %5s %12s %12s %7s %14s %14s %7s\n" workload clients round "pgbench tps" "wg1bench tps" ratio "pgb cpu us/op" "wg1 cpu us/op" "cpu x"
for w in ${WORKLOADS:-tpcb select_only update1 insert8}; do
  for c in ${CLIENTS:-4 16}; do
    for r in $(seq 1 "$rounds"); do
      j=$(( c < threads ? c : threads )); [ "${JOBS:-}" = same ] && j=$c
      # A: pgbench (no vacuum, same scale as the tables; scripts use :scale from pgbench_branches)
      /usr/bin/time -f "%U %S" -o "$out/pgb-$w-$c-$r.time" \
        env PGSSLMODE="$sslmode" pgbench -n -h "$host" -p "$port" -U "$user" -M "$mode" -c "$c" -j "$j" -T "$dur" \
        $(pg_script "$w") "$db" > "$out/pgb-$w-$c-$r.log" 2>&1
      pgb_tps=$(grep -oP 'tps = \K[0-9.]+' "$out/pgb-$w-$c-$r.log" | tail -1)
      pgb_n=$(grep -oP 'number of transactions actually processed: \K[0-9]+' "$out/pgb-$w-$c-$r.log")
      read -r u s < "$out/pgb-$w-$c-$r.time"
      pgb_cpu=$(python3 -c "print(round(($u + $s) * 1e6 / $pgb_n, 2))")
      # B: wg1bench (one fork; a warmup long enough for C2 to finish compiling the op path, since
      # compilation during the measurement would be billed as client CPU per op; then the same
      # measured duration as pgbench's)
      java -jar "$jar" --workload "$w" -M "$mode" --clients "$c" --duration "${dur}s" --warmup "${warmup}s" --iterations 5 \
        --sslmode "$sslmode" --target "local=$url" --output "$out/wg1-$w-$c-$r.json" > "$out/wg1-$w-$c-$r.log" 2>&1
      read -r wg_tps wg_cpu < <(python3 -c "
import json; m = json.load(open('$out/wg1-$w-$c-$r.json'))['trials'][0]['measurement']
print(m['tps'], m['clientCpuMicrosPerOp'])")
      python3 -c "
pt, wt, pc, wc = $pgb_tps, $wg_tps, $pgb_cpu, $wg_cpu
print(f'{\"$w\":12} {$c:7d} {$r:5d} {pt:12.1f} {wt:12.1f} {wt/pt:7.2f} {pc:14.2f} {wc:14.2f} {wc/pc:7.2f}')"
    done
  done
done | tee "$out/summary.txt"
# medians over the rounds: one slow round on a shared 2-core machine should not decide the verdict
python3 - "$out/summary.txt" <<'PY'
import collections, statistics, sys
rows = collections.defaultdict(list)
for line in open(sys.argv[1]).read().splitlines():
    f = line.split()
    if len(f) < 9 or not f[1].isdigit():
        continue
    rows[(f[0], int(f[1]))].append((float(f[5]), float(f[8])))
print("median over rounds:")
for (w, c), v in rows.items():
    print(f"{w:12} {c:7d}   tps ratio {statistics.median(x[0] for x in v):5.2f}"
          f"   cpu/op x {statistics.median(x[1] for x in v):5.2f}   ({len(v)} rounds)")
PY
echo "ratio = wg1bench tps / pgbench tps (>= 1 means wg1bench at least as fast); cpu x = wg1bench CPU per op / pgbench's"
echo "logs and JSON in $out"
