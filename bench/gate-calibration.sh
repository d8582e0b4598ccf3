#!/usr/bin/env bash
# How often the gates raise a false alarm, and how often they find a planted slowdown, from real
# blocks: Wg1bench.compare's (and advise's) verdict over A/A comparisons, history check's gate over
# A/A histories, and the power of a comparison of 5, 10 and 20 blocks against a slowdown of about
# 5% and 2% planted on the server.
#
#   bench/gate-calibration.sh [URL] [AA_BLOCKS] [PLANTED_BLOCKS] [N]
#   e.g. bench/gate-calibration.sh 'jdbc:postgresql://127.0.0.1:5432/calib?user=postgres' 100 80 400
#
# Three long real comparisons run first, at once, through Wg1bench.compare (bench/GateCalibrationRun
# .java): AA_BLOCKS blocks of the same point select as both arms (pgbench tables of scale 1, made
# by the run), and PLANTED_BLOCKS blocks each of an op SELECT pg_sleep(0.020) against
# pg_sleep(0.021) (about 5% slower) and pg_sleep(0.050) against pg_sleep(0.051) (about 2%):
# pg_sleep waits whole milliseconds (ceil of what is left), so a plant finer than 1 ms is not one;
# the realised slowdown is what the recorded blocks measure, printed as "pool".
# Every trial is 1 s measured
# after 0.5 s of warmup, 2 clients, in the order the tool draws (pairs of blocks, the second of a
# pair reversed). Then bench/GateCalibration.java builds N comparisons of 5, 10 and 20 blocks out
# of the recorded pairs of blocks (drawn without replacement within a comparison) and judges each
# with the tool's own Analysis / Holm / verdict code, and N histories of 6 and 30 runs out of the
# A/A trials (each trial one run) judged by history check's RegressionGate at --p 0.001 (its
# default), 0.01 and 0.05. Comparisons drawn from one pool share blocks: the rates are those of
# the tool's verdict on this machine's block-to-block noise, the pool's own mean standing for the
# truth; the A/A rows are also given with the arms' names swapped in a random half of the pairs
# (same code in both arms, so the names are arbitrary), which takes out any lean of the pool.
# REUSE=1 OUT=DIR judges the JSON already in DIR without running anything.
set -euo pipefail
cd "$(dirname "$0")/.."
url=${1:-jdbc:postgresql://127.0.0.1:5432/test?user=postgres}
aa=${2:-100}; planted=${3:-80}; n=${4:-400}
jar=${JAR:-target/wg1bench.jar}
[ -f "$jar" ] || mvn -B -q package -DskipTests
out=${OUT:-results/gate-calibration-$(date +%Y%m%d-%H%M%S)}; mkdir -p "$out"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"

if [ -z "${REUSE:-}" ]; then
  record() { java -cp "$jar" bench/GateCalibrationRun.java "$url" "$1" "$2" "$out/$3.json"; }
  record aa-select "$aa" aa > "$out/aa.log" &
  a=$!
  record sleep:0.020:0.021 "$planted" p5 > "$out/p5.log" &
  b=$!
  record sleep:0.050:0.051 "$planted" p2 > "$out/p2.log" &
  c=$!
  wait $a $b $c
  echo "load after the runs: $(cut -d' ' -f1-3 /proc/loadavg)"
fi

mkdir -p "$out/classes"
javac -d "$out/classes" -cp "$jar" bench/GateCalibration.java
calib() { java -cp "$jar:$out/classes" GateCalibration "$@"; }
for f in aa p5 p2; do
  echo "== $f: comparisons"
  for blocks in 5 10 20; do calib compare "$out/$f.json" "$blocks" "$n" 1128; done
done
echo "== aa: comparisons, the arms' names swapped in a random half of the pairs"
for blocks in 5 10 20; do calib compare "$out/aa.json" "$blocks" "$n" 1128 swap; done
echo "== aa: histories"
for runs in 6 30; do
  for p in 0.001 0.01 0.05; do calib history "$out/aa.json" "$runs" "$n" "$p" 1128; done
done
