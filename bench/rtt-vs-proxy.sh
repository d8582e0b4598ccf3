#!/usr/bin/env bash
# --rtt against an independent delay: bench/delay-proxy.c (a TCP proxy in C outside the tool, one
# epoll loop, half the RTT each way, deadline per chunk; PROXY=py takes the earlier Python one,
# bench/delay-proxy.py, whose own cost is of the delay's size at 0.5 ms) between the client and the server, against --rtt with
# the client connected directly, for four ops: one statement (select_only), seven (tpcb: BEGIN, 3
# UPDATEs, SELECT, INSERT, END), a 100-row JDBC batch (insert_batch --batch-size 100) and a
# 10,000-row read at fetch size 100 (bench/Fetch10k.java, -M extended: pgjdbc only fetches in
# pieces outside autocommit and in extended mode). One client, ssl off. Per op two runs: direct at
# --rtt 0,0.5ms,2ms (0 is the base, no line at all), and three targets through proxies at 0, 0.5
# and 2 ms with --rtt 0. The proxy at 0 is the proxy's own cost (its thread hand-offs), which the
# 0.5 and 2 ms rows through it carry too.
#
#   bench/rtt-vs-proxy.sh [HOST:PORT] [DB] [DURATION] [WARMUP]   (needs pgbench tables: wg1bench init)
#   OPS='batch100 fetch10k' bench/rtt-vs-proxy.sh ...   runs only those ops
set -euo pipefail
cd "$(dirname "$0")/.."
upstream=${1:-127.0.0.1:5432}; db=${2:-postgres}; dur=${3:-5s}; warm=${4:-2s}
jar=${JAR:-target/wg1bench.jar}
base=${PROXY_PORT:-15440}
out=$(mktemp -d)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$out"; }
trap cleanup EXIT
[ "${PROXY:-c}" = py ] || cc -O2 -o "$out/delay-proxy" bench/delay-proxy.c
i=0
for rtt in 0 0.5 2; do
  if [ "${PROXY:-c}" = py ]; then
    python3 bench/delay-proxy.py $((base + i)) "$upstream" "$rtt" > "$out/proxy-$rtt.log" 2>&1 &
  else
    "$out/delay-proxy" $((base + i)) "${upstream%:*}" "${upstream##*:}" "$rtt" > "$out/proxy-$rtt.log" 2>&1 &
  fi
  pids+=($!); i=$((i + 1))
done
javac -d "$out/cls" -cp "$jar" bench/Fetch10k.java
url() { echo "jdbc:postgresql://$1/$db?user=${PGUSER:-postgres}"; }
for _ in $(seq 50); do  # until every proxy listens
  ok=1; for p in 0 1 2; do (exec 3<>/dev/tcp/127.0.0.1/$((base + p))) 2>/dev/null || ok=0; done
  [ $ok = 1 ] && break; sleep 0.1
done
common=(-c 1 -T "$dur" --warmup "$warm" --repeat 1 -n --sslmode disable)
declare -A op
op[1-select_only]="-w select_only"
op[2-tpcb]="-w tpcb"
op[3-batch100]="-w insert_batch --batch-size 100"
op[4-fetch10k]="--workload-class Fetch10k --classpath $out/cls --fetch-size 100 -M extended"
for name in $(printf '%s\n' "${!op[@]}" | sort); do
  [ -z "${OPS:-}" ] || [[ " $OPS " == *" ${name#*-} "* ]] || continue
  # shellcheck disable=SC2086
  java -jar "$jar" "${common[@]}" ${op[$name]} --target "direct=$(url "$upstream")" \
    --rtt 0,0.5ms,2ms -o "$out/$name-direct.json" > /dev/null
  # shellcheck disable=SC2086
  java -jar "$jar" "${common[@]}" ${op[$name]} --target "proxy0=$(url 127.0.0.1:$base)" \
    --target "proxy0.5=$(url 127.0.0.1:$((base + 1)))" --target "proxy2=$(url 127.0.0.1:$((base + 2)))" \
    -o "$out/$name-proxy.json" > /dev/null
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores"
python3 - "$out" <<'PY'
import glob, json, sys
rows = {}
for f in sorted(glob.glob(sys.argv[1] + "/*.json")):
    name = f.rsplit("/", 1)[1].rsplit("-", 1)[0].split("-", 1)[1]
    for t in json.load(open(f))["trials"]:
        m = t["measurement"]
        rtt = t["client"]["rttMs"] if t["target"] == "direct" else float(t["target"][5:])
        how = "rtt" if t["target"] == "direct" else "proxy"
        rows[(name, rtt, how)] = (m["latencyMs"]["p50"], m["latencyMs"]["p99"], m["tps"], m["failedOps"])
# "net": the proxy's p50 less its own cost (its p50 at 0 less the direct one at 0)
print("| op | rtt ms | --rtt p50 | proxy p50 | ratio | net ratio | --rtt p99 | proxy p99 | ratio"
      " | --rtt tps | proxy tps | ratio |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|")
for name in dict.fromkeys(k[0] for k in rows):
    for rtt in (0.0, 0.5, 2.0):
        a, b = rows.get((name, rtt, "rtt")), rows.get((name, rtt, "proxy"))
        if not a or not b:
            continue
        own = rows[(name, 0.0, "proxy")][0] - rows[(name, 0.0, "rtt")][0]
        print("| %s | %s | %.3f | %.3f | %.2f | %.2f | %.3f | %.3f | %.2f | %.1f | %.1f | %.2f |" % (
            name, rtt, a[0], b[0], b[0] / a[0], (b[0] - own) / a[0], a[1], b[1], b[1] / a[1],
            a[2], b[2], b[2] / a[2]))
        if a[3] or b[3]:
            print("| (failed ops: --rtt %d, proxy %d) |" % (a[3], b[3]))
PY
