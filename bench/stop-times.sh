#!/usr/bin/env bash
# How long wg1bench takes to stop, the figures the tests no longer assert (they check that it
# stops and cleans up, not how fast this machine is):
#   - SIGINT mid-run on the embedded server, sent to wg1bench alone: until the process has exited,
#     its JMH fork ended and the embedded server's directory is gone
#   - an unreachable target (nothing listening): until the one-line error and exit 1
#
#   bench/stop-times.sh [-n ROUNDS] [--hog]     (after mvn -B -q package -DskipTests)
#
# --hog puts a busy loop on every core for the whole measurement. Prints one line per round and the
# median and max of each.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=3
hog=false
while [[ $# -gt 0 ]]; do
  case "$1" in
  -n) rounds=$2; shift 2 ;;
  --hog) hog=true; shift ;;
  *) echo "usage: $0 [-n ROUNDS] [--hog]" >&2; exit 2 ;;
  esac
done
jar=target/wg1bench.jar
[[ -f $jar ]] || { echo "no $jar: run mvn -B -q package -DskipTests first" >&2; exit 2; }
hogs=()
trap 'for p in "${hogs[@]}"; do kill "$p" 2>/dev/null || true; done' EXIT
if $hog; then
  for _ in $(seq 1 "$(nproc)"); do bash -c 'while :; do :; done' & hogs+=($!); done
fi
now() { date +%s.%N; }
sigint=() unreachable=()
for r in $(seq 1 "$rounds"); do
  log=$(mktemp)
  # SIGINT must not be ignored in the child: a non-interactive shell's background job ignores it
  python3 -c 'import os,signal,sys; signal.signal(signal.SIGINT, signal.SIG_DFL); os.execvp(sys.argv[1], sys.argv[1:])' \
    java -jar "$jar" --workload tpcb --duration 5m --warmup 0 --progress 1 --output "$log.json" >"$log" 2>&1 &
  pid=$!
  until grep -q '^progress: ' "$log" || ! kill -0 $pid 2>/dev/null; do sleep 0.2; done
  data=$(grep -o 'data in [^,]*' "$log" | awk '{print $3}')
  fork=$(pgrep -P $pid -f ForkedMain || true)
  t0=$(now)
  kill -INT $pid
  wait $pid || true
  while [[ -e $data ]] || { [[ -n $fork ]] && kill -0 "$fork" 2>/dev/null; }; do sleep 0.05; done
  s=$(echo "$(now) - $t0" | bc)
  sigint+=("$s")
  t0=$(now)
  java -jar "$jar" --workload tpcb --target jdbc:postgresql://127.0.0.1:1/nowhere >/dev/null 2>&1 || true
  u=$(echo "$(now) - $t0" | bc)
  unreachable+=("$u")
  printf 'round %d: SIGINT to stopped and cleaned %.2f s; unreachable target to exit 1 %.2f s\n' "$r" "$s" "$u"
  rm -f "$log" "$log.json"
done
stat() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {printf "median %.2f s, max %.2f s", a[int((NR+1)/2)], a[NR]}'; }
echo "SIGINT mid-run (embedded server): $(stat "${sigint[@]}") over $rounds rounds$($hog && echo ', CPU hog on every core')"
echo "unreachable target:               $(stat "${unreachable[@]}")"
