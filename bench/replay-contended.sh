#!/usr/bin/env bash
# Replay of contended OLTP logs: pgbench's TPC-B-like script on a scale-1 database (one branch row
# every transaction updates), captured in csvlog on a throwaway cluster at several client counts,
# paced (-R) and unpaced, then replayed into a copy of the database as it was when each capture
# began, at --speed 1 and --speed max, simple and prepared, with a connection per session and
# through a pool. Prints, per replay: wall time against the captured span, statements/s against
# the capture's, the schedule lag (p50/p99/max), waits for the order between sessions (count and
# summed seconds; of them, grant waits), waits broken by the watchdog, the divergent statements, whether the
# final rows (history rows, sum of deltas, the balances of accounts, tellers and branches) equal
# the capture's, and the replay's own CPU per statement and share of the machine's cores. Per
# capture: pgbench's own CPU per statement and how busy the machine's cores were, and per replay
# the same busy share, so that a replay slower than its capture on a saturated machine shows
# whether its client's extra CPU is the difference.
#
#   bench/replay-contended.sh [SECONDS] [LOAD...]
#
# SECONDS: each capture's length (default 4). LOAD: NAME:pgbench-options, e.g. 'c4R100:-c 4 -j 2
# -R 100' (default: c4, c16 and c64, each paced and unpaced). Needs PostgreSQL's server binaries
# (PGBIN, default /usr/lib/postgresql/15/bin), pgbench and psql; run as root or as a user who may
# run them. FSYNC (env, default on): the capture server's fsync and synchronous_commit, on as a
# production server's (every commit waits for its WAL flush, so row locks are held that much
# longer); off gives the earlier records' captures. The capture also logs lock waits
# (log_lock_waits = on, deadlock_timeout = 1ms), as the replay guide asks of a capture.
# PGREPLAY (env, default pgreplay when on PATH, empty for none): pgreplay 1.2 replays each log too
# (its own csvlog parser, into the same fresh copy, under PGREPLAY_LIMIT seconds, default 120),
# its wall time, exit and rows printed beside. MODES (env, default all but the virtual ones): s1 max s1-prepared max-prepared s1-pool
# max-pool s1-virtual max-virtual (sessions on virtual threads: JAVA must be a Java 21+ java). JARS (env,
# default target/wg1bench.jar): several builds, each replaying every capture (a before/after on the
# same logs). SCALE (env, default 1): pgbench's scale (one branch row per unit); INIT_OPTS (env):
# more options for pgbench -i, e.g. --foreign-keys (tables whose keys are referenced: no
# transaction names its rows, so the order waits as for any row).
set -euo pipefail
cd "$(dirname "$0")/.."
SECS=${1:-4}
shift || true
LOADS=("$@")
[ ${#LOADS[@]} -gt 0 ] || LOADS=("c4R100:-c 4 -j 2 -R 100" "c4:-c 4 -j 2"
  "c16R200:-c 16 -j 2 -R 200" "c16:-c 16 -j 2" "c64R200:-c 64 -j 2 -R 200" "c64:-c 64 -j 2")
read -r -a MODES <<<"${MODES:-s1 max s1-prepared max-prepared s1-pool max-pool}"
BIN=${PGBIN:-/usr/lib/postgresql/15/bin}
PORT=${PORT:-5498}
read -r -a JARS <<<"${JARS:-target/wg1bench.jar}"
[ -f "${JARS[0]}" ] || mvn -B -q package -DskipTests
WORK=$(mktemp -d /tmp/wg1bench-contended-XXXXXX)
chmod 755 "$WORK"
as_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
[ "$(id -u)" = 0 ] && chown postgres "$WORK"
D="$WORK/data"
FSYNC=${FSYNC:-on}
PGREPLAY=${PGREPLAY-$(command -v pgreplay || true)}
trap 'as_pg "$BIN/pg_ctl" -D "$D" -m fast stop >/dev/null 2>&1 || true' EXIT
as_pg "$BIN/initdb" -D "$D" -A trust -U postgres >/dev/null
{ echo "port = $PORT"; echo "unix_socket_directories = '$WORK'"; echo "listen_addresses = '127.0.0.1'"
  echo "fsync = $FSYNC"; echo "synchronous_commit = $FSYNC"; echo "full_page_writes = $FSYNC"
  echo "log_lock_waits = on"; echo "deadlock_timeout = '1ms'"
  echo "max_connections = 200"; echo "logging_collector = on"
  echo "log_destination = 'csvlog'"; echo "log_directory = 'log'"; echo "log_filename = 'server'"; } \
  | as_pg tee -a "$D/postgresql.conf" >/dev/null
as_pg "$BIN/pg_ctl" -D "$D" -l "$WORK/server.log" -w start >/dev/null
psql_() { psql -X -q -h "$WORK" -p "$PORT" -U postgres "$@"; }
psql_ -d postgres -c 'CREATE DATABASE seed'
pgbench -q -i -s "${SCALE:-1}" ${INIT_OPTS:-} -h "$WORK" -p "$PORT" -U postgres seed >/dev/null 2>&1
# what a run leaves, compared between the capture and each replay
ROWS="SELECT (SELECT count(*) FROM pgbench_history) || ' ' || (SELECT coalesce(sum(delta), 0)
  FROM pgbench_history) || ' ' || (SELECT sum(abalance) FROM pgbench_accounts) || ' ' || (SELECT
  sum(bbalance) FROM pgbench_branches) || ' ' || (SELECT sum(tbalance) FROM pgbench_tellers)"
logging() { # on|off [FILE]: the capture settings, reloaded (a new log_filename starts a new file)
  if [ "$1" = on ]; then
    psql_ -d postgres -c "ALTER SYSTEM SET log_filename = '$2'" \
      -c "ALTER SYSTEM SET log_statement = 'all'" -c 'ALTER SYSTEM SET log_min_duration_statement = 0' \
      -c 'ALTER SYSTEM SET log_connections = on' -c 'ALTER SYSTEM SET log_disconnections = on' \
      -c 'SELECT pg_reload_conf()' >/dev/null
  else
    psql_ -d postgres -c 'ALTER SYSTEM RESET log_statement' \
      -c 'ALTER SYSTEM RESET log_min_duration_statement' -c 'ALTER SYSTEM RESET log_connections' \
      -c 'ALTER SYSTEM RESET log_disconnections' -c "ALTER SYSTEM SET log_filename = 'server'" \
      -c 'SELECT pg_reload_conf()' >/dev/null
  fi
  sleep 0.5
}

# busy and idle jiffies of all cores (/proc/stat), and the busy share since such a reading, in %
busy() { awk '/^cpu / { print $2 + $3 + $4 + $7 + $8, $5 + $6 }' /proc/stat; }
busy_since() {
  read -r b i <<<"$1"
  awk -v b0="$b" -v i0="$i" '/^cpu / { b = $2 + $3 + $4 + $7 + $8 - b0; i = $5 + $6 - i0
    printf "%.0f", 100 * b / (b + i) }' /proc/stat
}

printf '%-8s %-13s %6s %6s %6s %8s %8s %21s %15s %10s %6s %4s %s\n' load mode span_s wall_s ratio \
  stmt/s cap_st/s "lag p50/p99/max ms" "waits (s)" "cycles/s" broken div rows
for load in "${LOADS[@]}"; do
  name=${load%%:*}
  opts=${load#*:}
  psql_ -d postgres -c 'DROP DATABASE IF EXISTS bench' -c 'CREATE DATABASE bench TEMPLATE seed'
  logging on "capture-$name"
  b0=$(busy)
  # shellcheck disable=SC2086 # the load's options are words
  /usr/bin/time -f '%U %S' -o "$WORK/$name.cpu" \
    pgbench -n $opts -T "$SECS" -h 127.0.0.1 -p "$PORT" -U postgres bench >"$WORK/$name.pgbench" 2>&1
  capture_busy=$(busy_since "$b0")
  logging off
  want=$(psql_ -d bench -At -c "$ROWS")
  LOG="$WORK/$name.csv"
  cp "$D/log/capture-$name.csv" "$LOG"
  tx=$(sed -n 's/^number of transactions actually processed: \([0-9]*\).*/\1/p' "$WORK/$name.pgbench")
  clients=$(sed -n 's/^number of clients: \([0-9]*\)/\1/p' "$WORK/$name.pgbench")
  stmts=$(grep -c ',"statement: \|,"duration: [0-9.]* ms  statement: \|,"execute [^"]*: \|,"duration: [0-9.]* ms  execute ' "$LOG" || true)
  read -r pu ps <"$WORK/$name.cpu"
  echo "# $name: pgbench -n $opts -T $SECS: $tx transactions; rows after: $want; pgbench's own" \
    "CPU $(awk -v u="$pu" -v s="$ps" -v n="$stmts" 'BEGIN { printf "%.0f", n ? (u + s) * 1e6 / n : 0 }')" \
    "us/stmt ($stmts statements); cores busy during the capture ${capture_busy}%"
  for JAR in "${JARS[@]}"; do
  build=$(basename "$JAR" .jar)
  for mode in "${MODES[@]}"; do
    case $mode in
      s1) r=(--speed 1) ;;
      max) r=(--speed max) ;;
      s1-prepared) r=(--speed 1 -M prepared) ;;
      max-prepared) r=(--speed max -M prepared) ;;
      s1-pool) r=(--speed 1 --pool-size "$clients") ;;
      max-pool) r=(--speed max --pool-size "$clients") ;;
      s1-virtual) r=(--speed 1 --threads virtual) ;;
      max-virtual) r=(--speed max --threads virtual) ;;
      *) echo "unknown mode $mode"; exit 2 ;;
    esac
    set +e
    b0=$(busy)
    "${JAVA:-java}" ${JAVA_OPTS:-} -jar "$JAR" replay "$LOG" --database bench --fresh template=seed \
      --target "jdbc:postgresql://127.0.0.1:$PORT/bench?user=postgres" "${r[@]}" --progress 1h \
      -o "$WORK/$name-$build-$mode.json" >"$WORK/$name-$build-$mode.out" 2>&1
    code=$?
    replay_busy=$(busy_since "$b0")
    set -e
    got=$(psql_ -d bench -At -c "$ROWS")
    python3 - "$WORK/$name-$build-$mode.json" "$name" "$mode" "$code" "$want" "$got" "$build" \
      "$replay_busy" <<'PY'
import json, sys
path, name, mode, code, want, got, build, busy = sys.argv[1:]
label = f"{mode}" if build == "wg1bench" else f"{build}:{mode}"
try:
    r = json.load(open(path))
except Exception as e:
    print(f"{name:<8} {label:<13} exit {code}, no result ({e})"); sys.exit()
# the replay's own pace (results before 2026-12-06 held it in throughput)
f, o, lag = r["statementFidelity"], r["order"], r["lag"]
tp = r.get("pace") or r["throughput"]
span, wall = tp["capturedSeconds"], tp["wallSeconds"]
logged = next(x["log"] for x in r["fidelity"] if x["what"] == "statements")
c = r.get("clientCpu")
# per statement: the replay's own JSON (microsPerStatement, share) or a measurement's (per op)
us = None if not c else c.get("microsPerStatement", c.get("clientCpuMicrosPerOp"))
share = None if not c else c.get("share", c.get("clientCpuShare"))
cpu = "" if us is None else f"; client CPU {us:.0f} us/stmt" + (
    f", {100 * share:.0f}% of cores" if share is not None else "")
if o.get("handOffs") is not None:
    # the order's hand-offs: waits another session's mark let pass, from the event to the run
    cpu += (f"; hand-offs {o['handOffs']} p50/p99 {1000 * o['handOffP50Ms']:.0f}/"
            f"{1000 * o['handOffP99Ms']:.0f} us")
p = r.get("perOp") or {}
if p.get("roundTrips") is not None:
    cpu += f"; per stmt {p['roundTrips']:.2f} round trips, {p.get('statements') or 0:.2f} completed"
lags = "-" if lag is None else f"{lag['p50Ms']:.1f}/{lag['p99Ms']:.1f}/{lag['maxMs']:.1f}"
print(f"{name:<8} {label:<13} {span:6.1f} {wall:6.1f} {wall / span:6.2f} {tp['statementsPerSecond']:8.0f} "
      f"{logged / span:8.0f} {lags:>21} {o['waits']:6d} ({o['waitedSeconds']:6.1f}) "
      f"grants {o.get('lockGrantWaits', '-')} "
      f"{o.get('lockCycles', '-'):>4}/{o.get('lockCycleSeconds', 0):5.2f} {sum(o['broken'].values()):6d} {f['divergent']:4d} "
      f"{'same' if want == got else 'DIFFER ' + got} exit {code}{cpu}; cores busy {busy}%")
PY
  done
  done
  if [ -n "$PGREPLAY" ]; then
    # pgreplay 1.2 on the same log, into the same fresh copy, at the log's own speed, time-limited
    psql_ -d postgres -c 'DROP DATABASE IF EXISTS bench' -c 'CREATE DATABASE bench TEMPLATE seed'
    b0=$(busy)
    t0=$(date +%s.%N)
    set +e
    /usr/bin/time -f '%U %S' -o "$WORK/$name-pgreplay.cpu" timeout "${PGREPLAY_LIMIT:-120}" \
      "$PGREPLAY" -c -h 127.0.0.1 -p "$PORT" "$LOG" >"$WORK/$name-pgreplay.out" 2>&1
    code=$?
    set -e
    t1=$(date +%s.%N)
    replay_busy=$(busy_since "$b0")
    got=$(psql_ -d bench -At -c "$ROWS")
    read -r ru rs < <(tail -1 "$WORK/$name-pgreplay.cpu" 2>/dev/null || echo "0 0")
    span=$(python3 -c 'import json,sys; r = json.load(open(sys.argv[1])); print((r.get("pace") or r["throughput"])["capturedSeconds"])' \
      "$WORK/$name-$(basename "${JARS[0]}" .jar)-${MODES[0]}.json" 2>/dev/null || echo 0)
    awk -v n="$name" -v t0="$t0" -v t1="$t1" -v span="$span" -v c="$code" -v u="${ru:-0}" -v s="${rs:-0}" \
      -v st="$stmts" -v lim="${PGREPLAY_LIMIT:-120}" -v busy="$replay_busy" -v same="$([ "$want" = "$got" ] && echo same || echo "DIFFER $got")" \
      'BEGIN { w = t1 - t0; printf "%-8s %-13s %6.1f %6.1f %6.2f %s exit %s%s; client CPU %.0f us/stmt; cores busy %s%%\n",
        n, "pgreplay", span, w, span ? w / span : 0, same, c, (c == 124 ? " (stopped at the " lim " s limit)" : ""),
        st ? (u + s) * 1e6 / st : 0, busy }'
    grep -i 'statements\|delay\|behind\|error' "$WORK/$name-pgreplay.out" | head -5 | sed 's/^/#   pgreplay: /' || true
  fi
done
echo "work files (logs, results, console output) in $WORK"
