-- @description SSB Q1.3, flight 1: revenue from discounts, one year/month/week, quantity range
-- @seed 2020 §6.2.2
-- @read-only
-- @tables ssb
select sum(lo_extendedprice*lo_discount) as revenue
from lineorder, date
where lo_orderdate = d_datekey
  and d_weeknuminyear = 6
  and d_year = 1994
  and lo_discount between 5 and 7
  and lo_quantity between 26 and 35;
