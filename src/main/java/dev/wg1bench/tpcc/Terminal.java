package dev.wg1bench.tpcc;

/**
 * One client as a TPC-C terminal (clause 2.1.5 and 5.5.1.1): bound to its home warehouse for the
 * whole run, and to one district of it for Stock-Level; client k has warehouse 1 + k mod W, so the
 * warehouses are shared out evenly, and the district 1 + (k / W) mod 10.
 *
 * @param warehouse the home warehouse
 * @param district the district Stock-Level reads
 * @param warehouses W, the warehouses loaded
 * @param c the run's NURand constants
 * @param r the client's random values
 */
record Terminal(int warehouse, int district, int warehouses, Constants c, TpccRandom r) {
  static Terminal of(int client, int warehouses, Constants c, TpccRandom r) {
    return new Terminal(1 + client % warehouses, 1 + (client / warehouses) % 10, warehouses, c, r);
  }

  /** A warehouse other than the home one, uniform (clause 2.4.1.5 and 2.5.1.2); home when W=1. */
  int remoteWarehouse() {
    if (warehouses == 1) {
      return warehouse;
    }
    int w = r.uniform(1, warehouses - 1);
    return w >= warehouse ? w + 1 : w;
  }

  /** Clause 2.1.6: a customer number, NURand(1023, 1, 3000). */
  int customerId() {
    return r.nurand(1023, c.customerId(), 1, WarehouseRows.CUSTOMERS);
  }

  /** Clause 2.1.6: a last name for a run, NURand(255, 0, 999) with C_LAST's run constant. */
  String lastName() {
    return TpccRandom.lastName(r.nurand(255, c.lastRun(), 0, 999));
  }

  /** Clause 2.1.6: an item number, NURand(8191, 1, 100000). */
  int itemId() {
    return r.nurand(8191, c.itemId(), 1, WarehouseRows.ITEMS);
  }
}
