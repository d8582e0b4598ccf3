-- @description write10 under REPEATABLE READ, each client updating only its own rows (no serialization failure can occur)
-- @seed 2015 §3.6.3
-- @tables pgbench
-- @isolation repeatable_read
-- @check balances, no-serialization-failure
-- The seed's script meant each client to own the aids congruent to its index; it used an
-- undefined :ccounts and forgot aid07's offset. This is the intent, stated in WORKLOADS.md:
-- aid = (r - 1) * nclients + client_id + 1 with r uniform in [1, floor(naccounts / nclients)].
\set naccounts 100000 * :scale
\set per_client :naccounts / :nclients
\set aid00 (random(1, :per_client) - 1) * :nclients + :client_id + 1
\set aid01 (random(1, :per_client) - 1) * :nclients + :client_id + 1
\set aid02 (random(1, :per_client) - 1) * :nclients + :client_id + 1
\set aid03 (random(1, :per_client) - 1) * :nclients + :client_id + 1
\set aid04 (random(1, :per_client) - 1) * :nclients + :client_id + 1
\set aid05 (random(1, :per_client) - 1) * :nclients + :client_id + 1
\set aid06 (random(1, :per_client) - 1) * :nclients + :client_id + 1
\set aid07 (random(1, :per_client) - 1) * :nclients + :client_id + 1
\set aid08 (random(1, :per_client) - 1) * :nclients + :client_id + 1
\set aid09 (random(1, :per_client) - 1) * :nclients + :client_id + 1
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
