-- @description the same 10 UPDATEs inside one transaction (one op = 10 UPDATEs)
-- @seed 2015 §3.3
-- @tables pgbench
-- @check balances
\set naccounts 100000 * :scale
\set aid00 random(1, :naccounts)
\set aid01 random(1, :naccounts)
\set aid02 random(1, :naccounts)
\set aid03 random(1, :naccounts)
\set aid04 random(1, :naccounts)
\set aid05 random(1, :naccounts)
\set aid06 random(1, :naccounts)
\set aid07 random(1, :naccounts)
\set aid08 random(1, :naccounts)
\set aid09 random(1, :naccounts)
BEGIN;
UPDATE pgbench_accounts SET filler = repeat(md5(current_timestamp::text), 2) WHERE aid = :aid00;
UPDATE pgbench_accounts SET filler = repeat(md5(current_timestamp::text), 2) WHERE aid = :aid01;
UPDATE pgbench_accounts SET filler = repeat(md5(current_timestamp::text), 2) WHERE aid = :aid02;
UPDATE pgbench_accounts SET filler = repeat(md5(current_timestamp::text), 2) WHERE aid = :aid03;
UPDATE pgbench_accounts SET filler = repeat(md5(current_timestamp::text), 2) WHERE aid = :aid04;
UPDATE pgbench_accounts SET filler = repeat(md5(current_timestamp::text), 2) WHERE aid = :aid05;
UPDATE pgbench_accounts SET filler = repeat(md5(current_timestamp::text), 2) WHERE aid = :aid06;
UPDATE pgbench_accounts SET filler = repeat(md5(current_timestamp::text), 2) WHERE aid = :aid07;
UPDATE pgbench_accounts SET filler = repeat(md5(current_timestamp::text), 2) WHERE aid = :aid08;
UPDATE pgbench_accounts SET filler = repeat(md5(current_timestamp::text), 2) WHERE aid = :aid09;
END;
