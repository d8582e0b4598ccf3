#!/usr/bin/env bash
# What server/wire's per-connection counting costs a client, per op: bench/WireCost.java runs the
# same op on a counted and an uncounted connection, interleaved, and prints the client thread's
# CPU per op on each. Then the median difference per op over the rounds.
#
#   bench/wire-cost.sh [URL] [ROUNDS] [SECONDS]
#   e.g. bench/wire-cost.sh jdbc:postgresql://127.0.0.1:5432/postgres?user=postgres 7 6
set -euo pipefail
cd "$(dirname "$0")/.."
url=${1:-jdbc:postgresql://127.0.0.1:5432/postgres?user=postgres}; rounds=${2:-7}; secs=${3:-6}
java=${JAVA:-java}
jar=${JAR:-target/wg1bench.jar}
[ -f "$jar" ] || mvn -B -q package -DskipTests
out=$("$java" -cp "$jar" bench/WireCost.java "$url" "$rounds" "$secs")
echo "$out"
for op in point rows100; do
  echo "$out" | awk -v op="$op" '$2 == op {print $3, $4, $5}' | sort -t' ' -k3 -g | awk -v op="$op" '
    {p[NR]=$1; c[NR]=$2; d[NR]=$3}
    END {m=int((NR+1)/2); printf "%s: median diff %.3f us/op (range %.3f..%.3f), plain median round %.3f us/op, counted %.3f\n", op, d[m], d[1], d[NR], p[m], c[m]}'
done
