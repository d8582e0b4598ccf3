-- init ssb --indexes: btree indexes on lineorder's join (foreign-key) columns, as the 2020
-- report built them on SF 100 (§6.3.3.2.1, table 6.7: idx_lo_partkey, idx_lo_custkey,
-- idx_lo_suppkey, idx_lo_orderdate; the dimension tables' keys are their primary keys).
CREATE INDEX idx_lo_custkey   ON lineorder (lo_custkey);
CREATE INDEX idx_lo_partkey   ON lineorder (lo_partkey);
CREATE INDEX idx_lo_suppkey   ON lineorder (lo_suppkey);
CREATE INDEX idx_lo_orderdate ON lineorder (lo_orderdate);
