#!/usr/bin/env bash
# Client CPU per op of a whole run with the per-op accounting (counting sockets, a WireMark around
# every op, the server window's sampler) against a build without it, interleaved round by round:
#   bench/per-op-accounting-cost.sh BASE_JAR WIRE_JAR URL ROUNDS [SCRIPT]
# BASE_JAR: a build before the accounting (git archive of that commit, mvn package -DskipTests);
# URL: a server with pgbench tables (pgbench -i). Prints each run's client CPU per op and tps.
# WARMUP (default 3s): the warmup before each measured 8 s; the JIT compiles for longer than 3 s,
# and its CPU in the measured window is charged to the ops.
set -euo pipefail
base="$1" wire="$2" url="$3" rounds="$4" script="${5:-select-only}"
out="$(mktemp -d)"
for i in $(seq 1 "$rounds"); do
  for v in base wire; do
    jar="$base"; [ "$v" = wire ] && jar="$wire"
    java -jar "$jar" --target "$url" -b "$script" -c 1 -T 8s --warmup "${WARMUP:-3s}" \
      --output "$out/$v-$i.json" >"$out/$v-$i.out" 2>&1
    echo "$v $i $(grep -E 'client CPU per op|^tps' "$out/$v-$i.out" | tr '\n' ' ')"
  done
done
