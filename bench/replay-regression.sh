#!/usr/bin/env bash
# Replay fidelity on a messy capture nothing here wrote: PostgreSQL's own regression SQL, run by psql
# in parallel groups as pg_regress runs it (thousands of errors, COPY, temp tables, savepoints,
# PREPARE, PL/pgSQL, roles), captured in csvlog on a throwaway cluster, then replayed into a
# physical copy of that cluster as it was before the capture, one per mode, and judged statement by
# statement. Prints each mode's divergences by cause.
#
#   apt-get source postgresql-15      # after adding a deb-src line; or any PostgreSQL source tree
#   (where the security pool's newer version 404s, name the main archive's: postgresql-15=15.18-0+deb12u1;
#   only src/test/regress is read: tar -xjf postgresql-15_15.18.orig.tar.bz2 postgresql-15.18/src/test/regress)
#   REGRESS=.../src/test/regress bench/replay-regression.sh [GROUPS] [MODE...]
#
# GROUPS: how many test groups of parallel_schedule after test_setup (default 2: 31 sessions).
# MODE: max, speed1, prepared, pool4, pool1 (default: all). Needs PostgreSQL's server binaries
# (PGBIN, default /usr/lib/postgresql/15/bin) and psql; run as root or as a user who may run them.
set -euo pipefail
cd "$(dirname "$0")/.."
REGRESS=${REGRESS:?set REGRESS to src/test/regress of a PostgreSQL source tree}
GROUPS_N=${1:-2}
shift || true
MODES=("$@")
[ ${#MODES[@]} -gt 0 ] || MODES=(max speed1 prepared pool4 pool1)
BIN=${PGBIN:-/usr/lib/postgresql/15/bin}
PORT=${PORT:-5499}
JAR=target/wg1bench.jar
[ -f "$JAR" ] || mvn -B -q package -DskipTests
WORK=$(mktemp -d /tmp/wg1bench-regress-XXXXXX)
chmod 755 "$WORK"
as_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
[ "$(id -u)" = 0 ] && chown postgres "$WORK"
stop_all() {
  for d in "$WORK"/*/data; do
    [ -f "$d/postmaster.pid" ] && as_pg "$BIN/pg_ctl" -D "$d" -m immediate stop >/dev/null 2>&1 || true
  done
}
trap stop_all EXIT

cluster() { # NAME: a fresh cluster on $PORT, started
  local d="$WORK/$1/data"
  as_pg mkdir -p "$WORK/$1"
  as_pg "$BIN/initdb" -D "$d" -A trust -U postgres --no-sync >/dev/null
  { echo "port = $PORT"; echo "unix_socket_directories = '$WORK'"; echo "listen_addresses = '127.0.0.1'"
    echo "fsync = off"; echo "max_connections = 100"; } | as_pg tee -a "$d/postgresql.conf" >/dev/null
  start "$1"
}
start() { as_pg "$BIN/pg_ctl" -D "$WORK/$1/data" -l "$WORK/$1/server.log" -w start >/dev/null; }
stop() { as_pg "$BIN/pg_ctl" -D "$WORK/$1/data" -w stop >/dev/null; }
# A replay's target is a physical copy of the capture's cluster as it was before the capture, as a
# base backup taken when the capture began would be: the same data, and the count of transaction
# ids starting where the capture's did. The xid and txid tests paste ids they read into later
# statements; the replay gives those transactions ids in its own interleaving of the sessions, so
# it reads its own id of each (the csvlog shows the capture's) and sends those statements with it.
copy_of_base() { as_pg mkdir -p "$WORK/$1"; cp -a "$WORK/base/data" "$WORK/$1/data"; start "$1"; }
psql_() { psql -X -q -h "$WORK" -p "$PORT" -U postgres "$@"; }

echo "== capture: test_setup and $GROUPS_N parallel groups of $REGRESS/parallel_schedule"
cluster capture
psql_ -d postgres -c 'CREATE DATABASE regression'
stop capture
cp -a "$WORK/capture" "$WORK/base"
printf '%s\n' logging_collector=on "log_destination='csvlog'" "log_directory='log'" \
  "log_filename='capture'" "log_statement='all'" log_min_duration_statement=0 \
  log_connections=on log_disconnections=on log_parameter_max_length_on_error=-1 \
  | as_pg tee -a "$WORK/capture/data/postgresql.conf" >/dev/null
start capture
export PG_ABS_SRCDIR="$REGRESS" PG_ABS_BUILDDIR="$WORK" PG_LIBDIR="$WORK" PG_DLSUFFIX=.so
mkdir -p "$WORK/results"
groups=$(grep '^test:' "$REGRESS/parallel_schedule" | grep -v 'tablespace' | head -n $((GROUPS_N + 1)) | sed 's/^test: //')
sessions=0
while read -r group; do
  for t in $group; do
    psql_ -d regression -a -f "$REGRESS/sql/$t.sql" >"$WORK/results/$t.out" 2>&1 &
    sessions=$((sessions + 1))
  done
  wait
done <<<"$groups"
psql_ -d postgres -c "ALTER SYSTEM SET log_statement = 'none'" -c 'ALTER SYSTEM SET log_min_duration_statement = -1' -c 'SELECT pg_reload_conf()' >/dev/null
sleep 1
stop capture
LOG="$WORK/capture.csv"
cp "$WORK/capture/data/log/capture.csv" "$LOG"
echo "captured $sessions psql sessions: $(wc -l <"$LOG") log lines; errors by psql: $(grep -c ERROR "$WORK"/results/*.out | awk -F: '{s+=$2} END {print s}')"

for mode in "${MODES[@]}"; do
  case $mode in
    max) opts=(--speed max) ;;
    speed1) opts=(--speed 1) ;;
    prepared) opts=(--speed max -M prepared) ;;
    pool4) opts=(--speed max --pool-size 4) ;;
    pool1) opts=(--speed max --pool-size 1) ;;
    *) echo "unknown mode $mode"; exit 2 ;;
  esac
  copy_of_base "replay-$mode"
  set +e
  # the capture's own CREATE DATABASE ran in database postgres: only the tests' sessions replay
  java ${JAVA_OPTS:-} -jar "$JAR" replay "$LOG" --database regression \
    --target "jdbc:postgresql://127.0.0.1:$PORT/regression?user=postgres" \
    "${opts[@]}" --progress 1h -o "$WORK/$mode.json" >"$WORK/$mode.out" 2>&1
  code=$?
  set -e
  stop "replay-$mode"
  python3 - "$WORK/$mode.json" "$mode" "$code" <<'PY'
import json, sys
r = json.load(open(sys.argv[1])); f = r["statementFidelity"]; o = r["order"]
print(f"{sys.argv[2]:>9}: exit {sys.argv[3]}, {f['compared']} sent, {f['divergent']} diverged {f['divergentByCause']}, "
      f"{f['skippedTotal']} not replayable {f['skipped']}, sent twice {f['sentTwice']}, "
      f"order waits {o['waits']} ({o['waitedSeconds']} s), broken {o['broken']}, wall {(r.get('pace') or r['throughput'])['wallSeconds']} s")
for d in f["divergences"][:8]:
    print(f"           {d['where']} {d['log']} -> {d['replay']}: {d['statement'][:90]!r} {d['message'] or ''}"[:220])
PY
done
echo "work files (logs, results, console output) in $WORK"
