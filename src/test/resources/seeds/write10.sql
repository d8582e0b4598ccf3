\set naccounts 100000 * :scale
\setrandom aid00 1 :naccounts
\setrandom aid01 1 :naccounts
\setrandom aid02 1 :naccounts
\setrandom aid03 1 :naccounts
\setrandom aid04 1 :naccounts
\setrandom aid05 1 :naccounts
\setrandom aid06 1 :naccounts
\setrandom aid07 1 :naccounts
\setrandom aid08 1 :naccounts
\setrandom aid09 1 :naccounts
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
