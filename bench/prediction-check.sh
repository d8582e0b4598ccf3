#!/usr/bin/env bash
# How far stats/OpTime's prediction at other round-trip times holds: bench/PredictionCheck.java
# measures each op with no added RTT, predicts it at 0.5, 1 and 2 ms from its round trips per op
# (counted by server/wire), and measures it through the --rtt delay line at each.
#
#   bench/prediction-check.sh [URL] [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
url=${1:-jdbc:postgresql://127.0.0.1:5432/postgres?user=postgres}; secs=${2:-6}
java=${JAVA:-java}
jar=${JAR:-target/wg1bench.jar}
[ -f "$jar" ] || mvn -B -q package -DskipTests
"$java" -cp "$jar" bench/PredictionCheck.java "$url" "$secs"
