-- @description the same 8 rows as one multi-row INSERT ... VALUES in one transaction
-- @seed blog (insert-heavy pgbench), bulk insert
-- @tables pgbench
-- @rows-per-op 8
-- @check rows
\set nbranches 1 * :scale
\set ntellers 10 * :scale
\set naccounts 100000 * :scale
\set aid random(1, :naccounts)
\set bid random(1, :nbranches)
\set tid random(1, :ntellers)
\set delta random(-5000, 5000)
BEGIN;
INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES
  (:tid, :bid, :aid, :delta, CURRENT_TIMESTAMP),
  (:tid, :bid, :aid, :delta + 1, CURRENT_TIMESTAMP),
  (:tid, :bid, :aid, :delta + 2, CURRENT_TIMESTAMP),
  (:tid, :bid, :aid, :delta + 3, CURRENT_TIMESTAMP),
  (:tid, :bid, :aid, :delta + 4, CURRENT_TIMESTAMP),
  (:tid, :bid, :aid, :delta + 5, CURRENT_TIMESTAMP),
  (:tid, :bid, :aid, :delta + 6, CURRENT_TIMESTAMP),
  (:tid, :bid, :aid, :delta + 7, CURRENT_TIMESTAMP);
END;
