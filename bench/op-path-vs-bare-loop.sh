#!/usr/bin/env bash
# What wg1bench's op path costs over a plain JDBC client: the same 7 prepared point selects per op
# at the same client count, run by wg1bench and by bench/BareLoop.java (threads, one connection
# each, one PreparedStatement, nothing else, wg1bench's own pgjdbc classes), interleaved round by
# round in one run on the same server. Prints client CPU per op for each and their ratio per round,
# then the median ratio and its range over the rounds.
#
#   bench/op-path-vs-bare-loop.sh [URL] [ROUNDS] [DURATION_S] [CLIENTS]
#   e.g. bench/op-path-vs-bare-loop.sh jdbc:postgresql://127.0.0.1:5432/oppath 6 10 4
#
# The database must hold pgbench tables at scale SCALE (default 1): pgbench -i -s 1 DB. Client CPU
# per op is measured the same way on both sides: the JVM's process CPU time (all threads, JIT and
# GC included) over the measured interval only, divided by the ops completed in it (wg1bench's
# clientCpuMicrosPerOp is its JMH fork's). Both sides run on JAVA (default: java on the PATH),
# both warm up WARMUP seconds (default 5). JAR (default target/wg1bench.jar) is the wg1bench
# measured; BASE_JAR (optional) adds another build's wg1bench to each round, so a change to the op
# path is judged before/after in the same run; BEFORE=COMMIT builds that commit's jar for it (from
# git archive, into /tmp, once) and labels the column with the commit: the build-before column. On
# a shared machine read the median and the spread, never one round.
set -euo pipefail
cd "$(dirname "$0")/.."
url=${1:-jdbc:postgresql://127.0.0.1:5432/test}; rounds=${2:-6}; dur=${3:-10}; clients=${4:-4}
user=${PGUSER:-postgres}
scale=${SCALE:-1}
warmup=${WARMUP:-5}
java=${JAVA:-java}
jar=${JAR:-target/wg1bench.jar}
statements=7
[ -f "$jar" ] || mvn -B -q package -DskipTests
base_label=base
if [ -n "${BEFORE:-}" ]; then
  # the build before: the same tree at COMMIT, packaged once and kept beside the others
  before=$(git rev-parse --short "$BEFORE")
  BASE_JAR=/tmp/wg1bench-before-$before/target/wg1bench.jar
  if [ ! -f "$BASE_JAR" ]; then
    rm -rf "/tmp/wg1bench-before-$before"; mkdir -p "/tmp/wg1bench-before-$before"
    git archive "$before" | tar -x -C "/tmp/wg1bench-before-$before"
    (cd "/tmp/wg1bench-before-$before" && mvn -B -q package -DskipTests -Dspotless.check.skip=true)
  fi
  base_label=$before
fi
out=results/op-path-vs-bare-loop-$(date +%Y%m%d-%H%M%S); mkdir -p "$out"
sep='?'; [[ $url == *\?* ]] && sep='&'
full="$url${sep}user=$user"

# the pgbench script both sides run: 7 point selects, each at its own random aid
script=$out/select7.sql
for _ in $(seq 1 $statements); do
  printf '\\set aid random(1, 100000 * :scale)\nSELECT abalance FROM pgbench_accounts WHERE aid = :aid;\n'
done > "$script"

bare() {  # TAG -> "ops tps cpu"
  "$java" -cp "$jar" bench/BareLoop.java "$full&prepareThreshold=1" "$clients" "$warmup" "$dur" \
    "$statements" "$scale" 2> "$out/$1.err" | tee "$out/$1.log"
}

wg1() {  # TAG [JAR] -> "ops tps cpu"
  "$java" -jar "${2:-$jar}" -f "$script" -M prepared --clients "$clients" --scale "$scale" --repeat 1 \
    --duration "${dur}s" --warmup "${warmup}s" --iterations 1 --target "local=$full" \
    --output "$out/$1.json" > "$out/$1.log" 2>&1 || true
  python3 -c "
import json, sys
try:
    m = json.load(open('$out/$1.json'))['trials'][0]['measurement']
except (OSError, KeyError, IndexError, ValueError):
    print('nan nan nan'); sys.exit()
print(m.get('ops', '-'), m['tps'], m['clientCpuMicrosPerOp'])"
}

echo "$clients clients, $statements prepared point selects per op, ${warmup} s warmup, ${dur} s measured per cell, $rounds rounds; $("$java" -version 2>&1 | head -1)"
printf "%5s | %9s %9s | %8s %8s | %6s %6s" round "tps bare" "tps wg1" "cpu bare" "cpu wg1" "cpu x" "tps x"
[ -n "${BASE_JAR:-}" ] && printf " | %8s %6s" "cpu $base_label" "x"
echo
for r in $(seq 1 "$rounds"); do
  # alternate which side goes first, so a drift in the machine's load does not favour one side
  o_cpu=nan
  if (( r % 2 )); then
    read -r _ b_tps b_cpu < <(bare "bare-$r")
    read -r _ w_tps w_cpu < <(wg1 "wg1-$r")
    [ -n "${BASE_JAR:-}" ] && read -r _ _ o_cpu < <(wg1 "base-$r" "$BASE_JAR")
  else
    [ -n "${BASE_JAR:-}" ] && read -r _ _ o_cpu < <(wg1 "base-$r" "$BASE_JAR")
    read -r _ w_tps w_cpu < <(wg1 "wg1-$r")
    read -r _ b_tps b_cpu < <(bare "bare-$r")
  fi
  python3 -c "
bt, wt, bc, wc, oc = float('$b_tps'), float('$w_tps'), float('$b_cpu'), float('$w_cpu'), float('$o_cpu')
print(f'{$r:5d} | {bt:9.0f} {wt:9.0f} | {bc:8.2f} {wc:8.2f} | {wc / bc:6.3f} {wt / bt:6.3f}'
      + ('' if '${BASE_JAR:-}' == '' else f' | {oc:8.2f} {oc / bc:6.3f}'))"
done | tee "$out/summary.txt"
python3 - "$out/summary.txt" "$base_label" <<'PY'
import math, statistics, sys
rows = []
for line in open(sys.argv[1]).read().splitlines():
    f = line.replace("|", " ").split()
    if len(f) in (7, 9) and f[0].isdigit() and not any(math.isnan(float(x)) for x in f[1:]):
        rows.append([float(x) for x in f[1:]])
if not rows:
    sys.exit("no round completed: see the logs")
med = lambda i: statistics.median(r[i] for r in rows)
rng = lambda i: f"[{min(r[i] for r in rows):.3f}-{max(r[i] for r in rows):.3f}]"
print(f"\nmedians over {len(rows)} rounds: client CPU per op bare {med(2):.2f} us, wg1bench {med(3):.2f} us;"
      f" ratio wg1bench/bare {med(4):.3f} {rng(4)}; tps ratio {med(5):.3f} {rng(5)}")
if len(rows[0]) == 8:
    print(f"the build before ({sys.argv[2]}): client CPU per op {med(6):.2f} us; ratio to bare {med(7):.3f} {rng(7)};"
          f" this build over it {statistics.median(r[3] / r[6] for r in rows):.3f}"
          f" [{min(r[3] / r[6] for r in rows):.3f}-{max(r[3] / r[6] for r in rows):.3f}]")
PY
echo "cpu = client CPU us per op (process CPU over the measured interval / ops in it); x = wg1bench over the bare loop. Logs and JSON in $out"
