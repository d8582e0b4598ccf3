-- SSB schema (O'Neil et al., SSB rev.3 column names), column order = dbgen .tbl column order.
-- Table for the date dimension is named "date": in PostgreSQL 15 'date' is not a keyword
-- (absent from pg_get_keywords()), so it works unquoted.
--
-- Loaded by SsbLoader (wg1bench init ssb): the tables are created empty, filled by COPY, and only
-- then get the primary keys of ssb/keys.sql (and with --indexes those of ssb/indexes.sql).
-- With --partitioned, lineorder and date get "PARTITION BY RANGE (lo_orderdate / d_datekey)"
-- appended and 84 monthly partitions (2020 §6.5.4.5.2).

CREATE TABLE customer (
  c_custkey     INTEGER     NOT NULL,
  c_name        VARCHAR(25) NOT NULL,
  c_address     VARCHAR(25) NOT NULL,
  c_city        CHAR(10)    NOT NULL,
  c_nation      VARCHAR(15) NOT NULL,
  c_region      VARCHAR(12) NOT NULL,
  c_phone       CHAR(15)    NOT NULL,
  c_mktsegment  VARCHAR(10) NOT NULL
);

CREATE TABLE supplier (
  s_suppkey     INTEGER     NOT NULL,
  s_name        VARCHAR(25) NOT NULL,
  s_address     VARCHAR(25) NOT NULL,
  s_city        CHAR(10)    NOT NULL,
  s_nation      VARCHAR(15) NOT NULL,
  s_region      VARCHAR(12) NOT NULL,
  s_phone       CHAR(15)    NOT NULL
);

CREATE TABLE part (
  p_partkey     INTEGER     NOT NULL,
  p_name        VARCHAR(22) NOT NULL,
  p_mfgr        VARCHAR(6)  NOT NULL,
  p_category    VARCHAR(7)  NOT NULL,
  p_brand1      VARCHAR(9)  NOT NULL,
  p_color       VARCHAR(11) NOT NULL,
  p_type        VARCHAR(25) NOT NULL,
  p_size        INTEGER     NOT NULL,
  p_container   VARCHAR(10) NOT NULL
);

CREATE TABLE date (
  d_datekey          INTEGER     NOT NULL,
  d_date             VARCHAR(18) NOT NULL,
  d_dayofweek        VARCHAR(9)  NOT NULL,
  d_month            VARCHAR(9)  NOT NULL,
  d_year             INTEGER     NOT NULL,
  d_yearmonthnum     INTEGER     NOT NULL,
  d_yearmonth        CHAR(7)     NOT NULL,
  d_daynuminweek     INTEGER     NOT NULL,
  d_daynuminmonth    INTEGER     NOT NULL,
  d_daynuminyear     INTEGER     NOT NULL,
  d_monthnuminyear   INTEGER     NOT NULL,
  d_weeknuminyear    INTEGER     NOT NULL,
  d_sellingseason    VARCHAR(12) NOT NULL,
  d_lastdayinweekfl  CHAR(1)     NOT NULL,
  d_lastdayinmonthfl CHAR(1)     NOT NULL,
  d_holidayfl        CHAR(1)     NOT NULL,
  d_weekdayfl        CHAR(1)     NOT NULL
);

CREATE TABLE lineorder (
  lo_orderkey       INTEGER     NOT NULL,   -- BIGINT needed for very large SF (max key ~ 6,000,000*SF)
  lo_linenumber     INTEGER     NOT NULL,
  lo_custkey        INTEGER     NOT NULL,
  lo_partkey        INTEGER     NOT NULL,
  lo_suppkey        INTEGER     NOT NULL,
  lo_orderdate      INTEGER     NOT NULL,
  lo_orderpriority  VARCHAR(15) NOT NULL,
  lo_shippriority   CHAR(1)     NOT NULL,
  lo_quantity       INTEGER     NOT NULL,
  lo_extendedprice  INTEGER     NOT NULL,
  lo_ordtotalprice  INTEGER     NOT NULL,
  lo_discount       INTEGER     NOT NULL,
  lo_revenue        INTEGER     NOT NULL,
  lo_supplycost     INTEGER     NOT NULL,
  lo_tax            INTEGER     NOT NULL,
  lo_commitdate     INTEGER     NOT NULL,
  lo_shipmode       VARCHAR(10) NOT NULL
);
