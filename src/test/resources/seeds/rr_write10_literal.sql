\set naccounts 100000 * :scale
\set caccounts :naccounts / :num_clients
\set mydiff :ccounts - :client_id
\setrandom aid00 1 :ccounts
\set aid00 :num_clients * :aid00
\set aid00 :aid00 - :mydiff
\setrandom aid01 1 :ccounts
\set aid01 :num_clients * :aid01
\set aid01 :aid01 - :mydiff
\setrandom aid02 1 :ccounts
\set aid02 :num_clients * :aid02
\set aid02 :aid02 - :mydiff
\setrandom aid03 1 :ccounts
\set aid03 :num_clients * :aid03
\set aid03 :aid03 - :mydiff
\setrandom aid04 1 :ccounts
\set aid04 :num_clients * :aid04
\set aid04 :aid04 - :mydiff
\setrandom aid05 1 :ccounts
\set aid05 :num_clients * :aid05
\set aid05 :aid05 - :mydiff
\setrandom aid06 1 :ccounts
\set aid06 :num_clients * :aid06
\set aid06 :aid06 - :mydiff
\setrandom aid07 1 :ccounts
\set aid07 :num_clients * :aid07
\setrandom aid08 1 :ccounts
\set aid08 :num_clients * :aid08
\set aid08 :aid08 - :mydiff
\setrandom aid09 1 :ccounts
\set aid09 :num_clients * :aid09
\set aid09 :aid09 - :mydiff
BEGIN;
UPDATE pgbench_accounts SET filler=repeat(md5(current_timestamp::text),2) WHERE aid= :aid00;
UPDATE pgbench_accounts SET filler=repeat(md5(current_timestamp::text),2) WHERE aid= :aid01;
UPDATE pgbench_accounts SET filler=repeat(md5(current_timestamp::text),2) WHERE aid= :aid02;
UPDATE pgbench_accounts SET filler=repeat(md5(current_timestamp::text),2) WHERE aid= :aid03;
UPDATE pgbench_accounts SET filler=repeat(md5(current_timestamp::text),2) WHERE aid= :aid04;
UPDATE pgbench_accounts SET filler=repeat(md5(current_timestamp::text),2) WHERE aid= :aid05;
UPDATE pgbench_accounts SET filler=repeat(md5(current_timestamp::text),2) WHERE aid= :aid06;
UPDATE pgbench_accounts SET filler=repeat(md5(current_timestamp::text),2) WHERE aid= :aid07;
UPDATE pgbench_accounts SET filler=repeat(md5(current_timestamp::text),2) WHERE aid= :aid08;
UPDATE pgbench_accounts SET filler=repeat(md5(current_timestamp::text),2) WHERE aid= :aid09;
END;
