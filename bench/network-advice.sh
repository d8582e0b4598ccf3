#!/usr/bin/env bash
# The app-side advice asked again at 0, 0.5 and 2 ms of round-trip time (advise --rtt): the
# examples/ comparisons (bench/network-advice/*.properties: reWriteBatchedInserts on a 1000-row
# batch, N+1 against one JOIN, keyset against OFFSET, Hibernate's batching) and the shipped app-side
# claims (batch-rewrite, multirow-insert, prepared-statements), in randomized complete blocks.
# Short trials in this JVM (--forks 0) to keep the run in minutes; read the intervals.
#
#   bench/network-advice.sh TARGET_URL [BLOCKS] [DURATION] [WARMUP]
#   (TARGET needs pgbench tables for the shipped claims: wg1bench init; the examples load theirs)
set -euo pipefail
cd "$(dirname "$0")/.."
target=${1:?target URL}; blocks=${2:-3}; dur=${3:-2s}; warm=${4:-2s}
jar=${JAR:-target/wg1bench.jar}
out=${OUT:-results/network-advice-$(date +%Y%m%d-%H%M%S)}; mkdir -p "$out"
# the examples' classes and their libraries (Hibernate), as examples/README.md builds them
[ -d examples/target/lib ] || { mvn -B -q install -DskipTests && (cd examples && mvn -B -q package -DskipTests); }
common=(--target "$target" --rtt 0,0.5ms,2ms --blocks "$blocks" -T "$dur" --warmup "$warm"
  --iterations 1 --forks 0)
java -jar "$jar" advise "${common[@]}" --advice-dir bench/network-advice -o "$out/examples.json" \
  > "$out/examples.log"
java -jar "$jar" advise "${common[@]}" --only batch-rewrite,multirow-insert,prepared-statements \
  -o "$out/shipped.json" > "$out/shipped.log"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores; results in $out"
python3 - "$out" <<'PY'
import json, sys
print("| claim | rtt 0 | rtt 0.5ms | rtt 2ms | changes |")
print("|---|---|---|---|---|")
for f in ("examples", "shipped"):
    for r in json.load(open("%s/%s.json" % (sys.argv[1], f)))["rttSweep"]:
        cells = []
        for c in r["byRtt"]:
            if c["ratio"] is None:
                cells.append("-")
            elif c["ciLow"] is None:
                cells.append("%.2f, %s" % (c["ratio"], c["verdict"]))
            else:
                cells.append("%.2f [%.2f, %.2f] %s" % (c["ratio"], c["ciLow"], c["ciHigh"], c["verdict"]))
        print("| %s | %s | %s |" % (r["advice"], " | ".join(cells), "; ".join(r["changes"]) or "none"))
PY
