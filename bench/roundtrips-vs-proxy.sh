#!/usr/bin/env bash
# The tool's per-op accounting against an independent count: bench/roundtrip-proxy.py (a TCP proxy
# outside the tool, sharing no code with it and knowing nothing of the protocol) counts every
# round trip (the server's first bytes after the client's) and byte it carries. Each op is run
# twice through a fresh proxy, at -t N and -t 2N with one client and no forks; the difference of
# the two proxies' totals over N is the op's own round trips and bytes, every fixed cost (start-up,
# TLS probe, session settings, the server-side sampler's reads) cancelling. The tool's figures are
# measurement.perOp of the 2N run. Ops: select_only, tpcb in simple and prepared mode, a 100-row
# JDBC batch, ten lookups (N+1) and the same rows by one = ANY query (bench/Lookups10.java,
# bench/AnyLookup.java), and a 10,000-row read at fetch size 100 (bench/Fetch10k.java).
#
#   bench/roundtrips-vs-proxy.sh [HOST:PORT] [DB] [N]   (needs pgbench tables: wg1bench init)
#   RTT=2ms OPS="select_only lookups10" bench/roundtrips-vs-proxy.sh ...   under --rtt, only those ops
set -euo pipefail
cd "$(dirname "$0")/.."
upstream=${1:-127.0.0.1:5432}; db=${2:-postgres}; n=${3:-200}
jar=${JAR:-target/wg1bench.jar}
port=${PROXY_PORT:-15600}
out=$(mktemp -d)
proxy=
cleanup() { [ -z "$proxy" ] || kill "$proxy" 2>/dev/null || true; rm -rf "$out"; }
trap cleanup EXIT
javac -d "$out/cls" -cp "$jar" bench/Fetch10k.java bench/Lookups10.java bench/AnyLookup.java
declare -A op
op[1-select_only]="-w select_only"
op[2-tpcb-simple]="-w tpcb -M simple"
op[3-tpcb-prepared]="-w tpcb -M prepared"
op[4-batch100]="-w insert_batch --batch-size 100"
op[5-lookups10]="--workload-class Lookups10 --classpath $out/cls -M prepared"
op[6-any-lookup]="--workload-class AnyLookup --classpath $out/cls -M prepared"
op[7-fetch10k]="--workload-class Fetch10k --classpath $out/cls --fetch-size 100 -M extended"
run() {  # NAME T: one run through a fresh proxy; the proxy's totals in $out/NAME-T.proxy
  python3 bench/roundtrip-proxy.py "$port" "$upstream" > "$out/$1-$2.proxy" &
  proxy=$!
  for _ in $(seq 50); do (exec 3<>/dev/tcp/127.0.0.1/$port) 2>/dev/null && break; sleep 0.1; done
  # shellcheck disable=SC2086
  java -jar "$jar" ${op[$1]} -c 1 -t "$2" --forks 0 --sslmode disable ${RTT:+--rtt "$RTT"} \
    --target "jdbc:postgresql://127.0.0.1:$port/$db?user=${PGUSER:-postgres}" \
    -o "$out/$1-$2.json" > "$out/$1-$2.log"
  kill "$proxy"; wait "$proxy" || true; proxy=
}
for name in $(printf '%s\n' "${!op[@]}" | sort); do
  [ -z "${OPS:-}" ] || [[ " $OPS " == *" ${name#*-} "* ]] || continue
  run "$name" "$n"; run "$name" $((2 * n))
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores; N = $n ops, ssl off, --rtt ${RTT:-0}"
python3 - "$out" "$n" <<'PY'
import glob, json, os, sys
out, n = sys.argv[1], int(sys.argv[2])
def proxy(f):
    w = open(f).read().split()
    return {w[i]: int(w[i + 1]) for i in range(0, len(w) - 1, 2)}
print(f"{'op':16} {'proxy rt/op':>11} {'tool rt/op':>10} {'proxy B>/op':>11} {'tool B>/op':>10}"
      f" {'proxy B</op':>11} {'tool B</op':>10}")
for f in sorted(glob.glob(out + f"/*-{2 * n}.json")):
    name = os.path.basename(f)[: -len(f"-{2 * n}.json")]
    a, b = proxy(f"{out}/{name}-{n}.proxy"), proxy(f"{out}/{name}-{2 * n}.proxy")
    d = {k: (b[k] - a[k]) / n for k in b}
    trial = json.load(open(f))["trials"][0]
    p = trial["measurement"]["perOp"]
    print(f"{name[2:]:16} {d['round_trips']:11.2f} {p['roundTrips']:10.2f}"
          f" {d['bytes_to_server']:11.1f} {p['bytesSent']:10.1f}"
          f" {d['bytes_to_client']:11.1f} {p['bytesReceived']:10.1f}")
PY
