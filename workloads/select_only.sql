-- @description pgbench's built-in select-only (-S): one primary-key lookup per op
-- @seed pgbench -S
-- @read-only
-- @tables pgbench
-- @check read-only
\set aid random(1, 100000 * :scale)
SELECT abalance FROM pgbench_accounts WHERE aid = :aid;
