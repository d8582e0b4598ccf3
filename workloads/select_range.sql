-- @description the read test: count 10001 consecutive accounts from a random start
-- @seed 2015 §2, 2020 §4.4
-- @read-only
-- @tables pgbench
-- @check read-only
\set naccounts 100000 * :scale
\set row_count 10000
\set aid_max :naccounts - :row_count
\set aid random(1, :aid_max)
-- the end computed here: in -M extended/prepared variables are untyped parameters, as pgbench
-- sends them, and the server cannot add two of those
\set aid_last :aid + :row_count
SELECT count(abalance) FROM pgbench_accounts WHERE aid BETWEEN :aid AND :aid_last;
