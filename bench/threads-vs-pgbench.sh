#!/usr/bin/env bash
# Where the client's cost goes: wg1bench on platform threads, wg1bench on virtual threads and
# pgbench (-j 2 and -j = clients), interleaved cell by cell in one run on the same server, at each
# client count of each workload. Prints tps, client CPU per op, peak RSS and the ratios to pgbench.
#
#   bench/threads-vs-pgbench.sh [HOST] [PORT] [DB] [DURATION_S] [ROUNDS]
#   e.g. bench/threads-vs-pgbench.sh 127.0.0.1 5432 test 5 2
#
# Client CPU per op: wg1bench's own figure (clientCpuMicrosPerOp: its JMH fork's CPU time over the
# measurement windows, all threads, divided by the ops in them); for pgbench its process CPU
# (utime + stime of the whole run, connections included, read from /proc by the shell that waited
# for it: its cutime + cstime). RSS: the peak (VmHWM in /proc) of pgbench and of wg1bench's fork.
# Both wg1bench runs use JAVA (a Java 21+ java: Temurin 25 by default), so only the threads
# differ; JAVA_PLATFORM runs the platform-thread side on another java (e.g. java for Java 17).
# WORKLOADS (default "select_only tpcb"), CLIENTS (default "4 16 64 200"; 200 needs the server's
# max_connections above 200), MODE (default prepared), WARMUP (wg1bench, default 3 s).
# The database must hold pgbench tables (pgbench -i or wg1bench init); tpcb grows pgbench_history.
set -euo pipefail
cd "$(dirname "$0")/.."
host=${1:-127.0.0.1}; port=${2:-5432}; db=${3:-test}; dur=${4:-5}; rounds=${5:-2}
user=${PGUSER:-postgres}
mode=${MODE:-prepared}
warmup=${WARMUP:-3}
java21=${JAVA:-/usr/lib/jvm/temurin-25-jdk-amd64/bin/java}
java_platform=${JAVA_PLATFORM:-$java21}
jar=target/wg1bench.jar
[ -f "$jar" ] || mvn -B -q package -DskipTests
out=results/threads-vs-pgbench-$(date +%Y%m%d-%H%M%S); mkdir -p "$out"
url="jdbc:postgresql://$host:$port/$db?user=$user"
hz=$(getconf CLK_TCK)

# peak RSS (KiB) of a process and, for a JVM, of its JMH fork (its java child), until it exits
peak_rss() {  # PID FILE
  local pid=$1 peak=0 v c
  while kill -0 "$pid" 2>/dev/null; do
    for c in "$pid" $(pgrep -P "$pid" 2>/dev/null || true); do
      v=$(awk '/^VmHWM/ {print $2}' "/proc/$c/status" 2>/dev/null || true)
      [ -n "$v" ] && [ "$v" -gt "$peak" ] && peak=$v
    done
    sleep 0.2
  done
  echo "$peak" > "$2"
}

run_pgbench() {  # WORKLOAD CLIENTS JOBS TAG
  local script; case $1 in tpcb) script="-b tpcb-like" ;; select_only) script="-b select-only" ;; esac
  # the subshell waits for pgbench, then reads its own cutime/cstime (fields 16, 17): pgbench's
  # CPU over its whole run, from /proc, with nothing sampled
  bash -c 'pgbench "$@" > "'"$out/$4.log"'" 2>&1; read -ra s < /proc/$$/stat; echo $(( s[15] + s[16] )) > "'"$out/$4.ticks"'"' \
    _ -n -h "$host" -p "$port" -U "$user" -M "$mode" -c "$2" -j "$3" -T "$dur" $script "$db" &
  local pid=$!
  sleep 0.1
  peak_rss "$(pgrep -P $pid pgbench || echo $pid)" "$out/$4.rss" &
  wait $pid; wait
  local tps n ticks
  tps=$(grep -oP 'tps = \K[0-9.]+' "$out/$4.log" | tail -1)
  n=$(grep -oP 'number of transactions actually processed: \K[0-9]+' "$out/$4.log")
  ticks=$(cat "$out/$4.ticks")
  # a cell that processed nothing (the server refused or the machine stalled) prints nan
  python3 -c "print(${tps:-float('nan')}, round($ticks / $hz * 1e6 / $n, 2) if ${n:-0} else float('nan'), $(cat "$out/$4.rss"))"
}

run_wg1() {  # WORKLOAD CLIENTS KIND TAG
  local j=$java21; [ "$3" = platform ] && j=$java_platform
  "$j" -jar "$jar" --workload "$1" -M "$mode" --clients "$2" --threads "$3" --repeat 1 \
    --duration "${dur}s" --warmup "${warmup}s" --iterations 1 --target "local=$url" \
    --output "$out/$4.json" > "$out/$4.log" 2>&1 &
  local pid=$!
  peak_rss $pid "$out/$4.rss"
  wait $pid || true
  python3 -c "
import json, sys
try:
    t = json.load(open('$out/$4.json'))['trials'][0]
except (OSError, KeyError, IndexError, ValueError):
    print('nan nan', $(cat "$out/$4.rss"), '- -'); sys.exit()
m, th = t['measurement'], t['client'].get('threads', {})
print(m['tps'], m['clientCpuMicrosPerOp'], $(cat "$out/$4.rss"), th.get('pinned', '-'), th.get('carriersPeak', '-'))"
}

echo "query mode $mode, ${dur} s measured per cell, $rounds round(s); wg1bench on $("$java21" -version 2>&1 | head -1)"
printf "%-11s %4s %2s | %9s %9s %9s %9s | %7s %7s %7s %7s | %6s %6s %6s %6s | %5s %5s %5s %5s | %4s %4s\n" \
  workload cli r "wg1 plat" "wg1 virt" "pgb -j2" "pgb -jc" "cpu pl" "cpu vt" "cpu j2" "cpu jc" \
  "MB pl" "MB vt" "MB j2" "MB jc" "tps/2" "tps/2" "cpu/2" "cpu/2" pins carr
for w in ${WORKLOADS:-select_only tpcb}; do
  for c in ${CLIENTS:-4 16 64 200}; do
    for r in $(seq 1 "$rounds"); do
      read -r pl_tps pl_cpu pl_rss _ _ < <(run_wg1 "$w" "$c" platform "wg1-platform-$w-$c-$r")
      read -r j2_tps j2_cpu j2_rss < <(run_pgbench "$w" "$c" 2 "pgb-j2-$w-$c-$r")
      read -r vt_tps vt_cpu vt_rss pins carr < <(run_wg1 "$w" "$c" virtual "wg1-virtual-$w-$c-$r")
      read -r jc_tps jc_cpu jc_rss < <(run_pgbench "$w" "$c" "$c" "pgb-jc-$w-$c-$r")
      python3 -c "
pt, vt, t2, tc = $pl_tps, $vt_tps, $j2_tps, $jc_tps
pc, vc, c2, cc = $pl_cpu, $vt_cpu, $j2_cpu, $jc_cpu
print(f'{\"$w\":11} {$c:4d} {$r:2d} | {pt:9.0f} {vt:9.0f} {t2:9.0f} {tc:9.0f} | {pc:7.1f} {vc:7.1f} {c2:7.1f} {cc:7.1f} |'
      f' {$pl_rss/1024:6.0f} {$vt_rss/1024:6.0f} {$j2_rss/1024:6.0f} {$jc_rss/1024:6.0f} |'
      f' {pt/t2:5.2f} {vt/t2:5.2f} {pc/c2:5.2f} {vc/c2:5.2f} | {\"$pins\":>4} {\"$carr\":>4}')"
    done
  done
done | tee "$out/summary.txt"
# medians over the rounds: on a shared machine one slow round should not decide the ratio
python3 - "$out/summary.txt" <<'PY'
import collections, statistics, sys
rows = collections.defaultdict(list)
for line in open(sys.argv[1]).read().splitlines():
    f = line.replace("|", " ").split()
    if len(f) < 21 or not f[1].isdigit():
        continue
    rows[(f[0], int(f[1]))].append([float(x) for x in f[3:19]])
print("\nmedians over rounds (ratios to pgbench -j 2):")
print(f"{'workload':11} {'cli':>4} | {'tps pl':>7} {'tps vt':>7} | {'cpu pl':>7} {'cpu vt':>7} {'cpu j2':>7} {'cpu jc':>7} | {'tps pl/2':>8} {'tps vt/2':>8} {'cpu pl/2':>8} {'cpu vt/2':>8} {'cpu vt/pl':>9}")
for (w, c), v in rows.items():
    med = [statistics.median(x[i] for x in v) for i in range(16)]
    pt, vt, t2, tc, pc, vc, c2, cc = med[:8]
    print(f"{w:11} {c:4d} | {pt:7.0f} {vt:7.0f} | {pc:7.1f} {vc:7.1f} {c2:7.1f} {cc:7.1f} |"
          f" {statistics.median(x[0] / x[2] for x in v):8.2f} {statistics.median(x[1] / x[2] for x in v):8.2f}"
          f" {statistics.median(x[4] / x[6] for x in v):8.2f} {statistics.median(x[5] / x[6] for x in v):8.2f}"
          f" {statistics.median(x[5] / x[4] for x in v):9.2f}   ({len(v)} rounds)")
PY
echo "cpu = client CPU us per op; MB = peak RSS (wg1bench: its JMH fork); tps/2 and cpu/2 = wg1bench"
echo "platform, virtual over pgbench -j 2; pins = JFR jdk.VirtualThreadPinned while measuring; carr ="
echo "carrier threads alive at most. Logs and JSON in $out"
