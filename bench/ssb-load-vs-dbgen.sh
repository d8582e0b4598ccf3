#!/usr/bin/env bash
# Times wg1bench's SSB generator and loader against the reference dbgen (eyalroz/ssb-dbgen), in
# one run on one machine, and prints the ratios:
#   (a) generation of the five .tbl files:  dbgen -s SF  vs  wg1bench ssb generate --scale SF
#   (b) a loaded database:  dbgen + psql \copy of its files + primary keys + VACUUM ANALYZE
#                      vs  wg1bench init ssb --scale SF --force (generation streamed into COPY)
#
# usage: bench/ssb-load-vs-dbgen.sh DBGEN_BINARY PSQL_CONNINFO JDBC_URL [SF]
#   DBGEN_BINARY   path to eyalroz/ssb-dbgen's dbgen (it cannot be downloaded by this script;
#                  build it from https://github.com/eyalroz/ssb-dbgen)
#   PSQL_CONNINFO  the target database for psql, e.g. "host=127.0.0.1 user=postgres dbname=ssb"
#   JDBC_URL       the same database for wg1bench, e.g. jdbc:postgresql://127.0.0.1/ssb?user=postgres
#   SF             scale factor (default 1)
# The SSB tables of that database are dropped and re-created (twice). Needs psql and a built
# target/wg1bench.jar. dists.dss is taken from the wg1bench sources.
set -euo pipefail

die() { echo "ssb-load-vs-dbgen: $*" >&2; exit 2; }
[ $# -ge 3 ] || die "usage: $0 DBGEN_BINARY PSQL_CONNINFO JDBC_URL [SF]"
DBGEN=$1 CONNINFO=$2 URL=$3 SF=${4:-1}
HERE=$(cd "$(dirname "$0")/.." && pwd)
JAR=$HERE/target/wg1bench.jar
DISTS=$HERE/src/main/resources/ssb/dists.dss

[ -e "$DBGEN" ] || die "dbgen binary '$DBGEN' not found: build eyalroz/ssb-dbgen and give its path"
[ -x "$DBGEN" ] || die "dbgen binary '$DBGEN' is not executable"
command -v psql >/dev/null || die "psql not found on PATH"
[ -f "$JAR" ] || die "$JAR missing: run mvn -B -q package -DskipTests first"
psql "$CONNINFO" -Atqc "SELECT 1" >/dev/null || die "cannot connect with psql to '$CONNINFO'"

WORK=$(mktemp -d -t ssb-bench-XXXXXX)
trap 'rm -rf "$WORK"' EXIT
now() { date +%s.%N; }
secs() { echo "$2 - $1" | bc -l; }
cores=$(nproc)

echo "SF $SF, $cores cores, $(psql "$CONNINFO" -Atqc 'SHOW server_version')"

# ---- (a) generation
mkdir -p "$WORK/dbgen" "$WORK/wg1"
cp "$DISTS" "$WORK/dbgen/dists.dss"
t0=$(now)
(cd "$WORK/dbgen" && TZ=UTC "$DBGEN" -b dists.dss -f -s "$SF" >/dev/null 2>&1) \
  || die "dbgen failed (try it by hand: cd $WORK/dbgen && $DBGEN -b dists.dss -f -s $SF)"
t1=$(now)
java -jar "$JAR" ssb generate --scale "$SF" --output "$WORK/wg1" --dbgen-truncated-date >/dev/null
t2=$(now)
gen_dbgen=$(secs "$t0" "$t1"); gen_wg1=$(secs "$t1" "$t2")
for f in part supplier customer date lineorder; do
  cmp -s "$WORK/dbgen/$f.tbl" "$WORK/wg1/$f.tbl" || echo "note: $f.tbl differs between dbgen and wg1bench"
done
rm -rf "$WORK/wg1"

# ---- (b) loaded database: dbgen files + \copy + keys + analyze (dbgen's time from (a) included)
psql "$CONNINFO" -qX -v ON_ERROR_STOP=1 >/dev/null <<SQL
DROP TABLE IF EXISTS ssb_meta, part, supplier, customer, date, lineorder;
\i $HERE/src/main/resources/ssb/schema.sql
SQL
t3=$(now)
for f in part supplier customer date lineorder; do
  # dbgen lines end with '|': strip it so COPY sees the table's columns only
  psql "$CONNINFO" -qX -v ON_ERROR_STOP=1 \
    -c "\\copy $f FROM PROGRAM 'sed \"s/|\$//\" $WORK/dbgen/$f.tbl' WITH (DELIMITER '|')"
done
t4=$(now)
psql "$CONNINFO" -qX -v ON_ERROR_STOP=1 -f "$HERE/src/main/resources/ssb/keys.sql" >/dev/null
t5=$(now)
for f in lineorder part customer supplier date; do psql "$CONNINFO" -qX -c "VACUUM ANALYZE $f"; done
t6=$(now)
copy_s=$(secs "$t3" "$t4"); keys_s=$(secs "$t4" "$t5"); an_s=$(secs "$t5" "$t6")
load_dbgen=$(echo "$gen_dbgen + $copy_s + $keys_s + $an_s" | bc -l)

t7=$(now)
java -jar "$JAR" init ssb --scale "$SF" --force --target "$URL" | tee "$WORK/wg1-load.log" | grep -E '^  |^done'
t8=$(now)
load_wg1=$(secs "$t7" "$t8")

printf '\n%-44s %10s %10s %8s\n' "" "dbgen" "wg1bench" "ratio"
printf '%-44s %9.2fs %9.2fs %7.2fx\n' "(a) generate .tbl files" "$gen_dbgen" "$gen_wg1" \
  "$(echo "$gen_dbgen / $gen_wg1" | bc -l)"
printf '%-44s %9.2fs %9.2fs %7.2fx\n' "(b) generate + load + keys + analyze" "$load_dbgen" \
  "$load_wg1" "$(echo "$load_dbgen / $load_wg1" | bc -l)"
printf '    dbgen side: generate %.2fs, \\copy %.2fs, keys %.2fs, vacuum analyze %.2fs\n' \
  "$gen_dbgen" "$copy_s" "$keys_s" "$an_s"
echo "(ratio > 1: wg1bench is faster; the JVM start-up is included in the wg1bench times)"
