-- @description the update test: rewrite one random account's filler, autocommit
-- @seed 2020 §4.6
-- @tables pgbench
-- @check balances
\set naccounts 100000 * :scale
\set aid_val random(1, :naccounts)
UPDATE pgbench_accounts SET filler = repeat(md5(current_timestamp::text), 2) WHERE aid = :aid_val;
