#!/usr/bin/env bash
# Every writer's output on a fixed set of runs, for a before/after comparison of a change to how
# counts travel (the figures differ run to run; bench/count-dump-compare.py compares what must not:
# the JSON's fields and their types, the console's lines with their numbers masked, the CSV
# headers, and the identities between counts that hold in any run).
#
#   bench/count-dump.sh JAR OUTDIR [URL]
#   e.g. bench/count-dump.sh /tmp/before.jar /tmp/dump-before jdbc:postgresql://127.0.0.1:5432/countdump
#
# The database must exist; the pgbench tables (scale 1) and TPC-C's (1 warehouse) are made here.
set -euo pipefail
jar=$1; out=$2; url=${3:-jdbc:postgresql://127.0.0.1:5432/countdump?user=postgres}
java=${JAVA:-java}
mkdir -p "$out"
"$java" -jar "$jar" init --target "$url" --scale 1 --force > "$out/init.log" 2>&1
"$java" -jar "$jar" init --workload tpcc --target "$url" --scale 1 --force >> "$out/init.log" 2>&1
t=(--warmup 1s --duration 2s --iterations 2)
run() {  # NAME ARGS...
  local name=$1; shift
  "$java" -jar "$jar" "$@" --target "local=$url" --output "$out/$name.json" --csv "$out/$name.csv" \
    > "$out/$name.console.txt" 2>&1 || echo "exit $?" >> "$out/$name.console.txt"
}
run single --workload select_only --clients 2 --forks 0 "${t[@]}"
run forked --workload tpcb --clients 2 --forks 2 "${t[@]}"
run mix -f workloads/tpcb.sql@2 -f workloads/select_only.sql -r --clients 2 --forks 1 "${t[@]}"
run retries --workload write10 --isolation repeatable-read --max-tries 3 --clients 4 -r --forks 1 "${t[@]}"
run tpcc --workload tpcc --clients 2 --forks 1 "${t[@]}"
run rtt --workload select_only --clients 2 --forks 1 --rtt 1ms "${t[@]}"
ls "$out"
