-- Primary keys, added after the load (faster than maintaining them during COPY).
-- On a partitioned lineorder the key must contain the partition key: SsbLoader appends
-- lo_orderdate, which changes nothing since all lines of an order share their order date.
ALTER TABLE lineorder ADD PRIMARY KEY (lo_orderkey, lo_linenumber);
ALTER TABLE part      ADD PRIMARY KEY (p_partkey);
ALTER TABLE customer  ADD PRIMARY KEY (c_custkey);
ALTER TABLE supplier  ADD PRIMARY KEY (s_suppkey);
ALTER TABLE date      ADD PRIMARY KEY (d_datekey);
