package com.acme.orm;

import jakarta.persistence.CascadeType;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.OneToMany;
import jakarta.persistence.SequenceGenerator;
import jakarta.persistence.Table;
import java.util.ArrayList;
import java.util.List;

/** An order as the application maps it; its lines are saved with it. */
@Entity
@Table(name = "orm_orders")
public class PurchaseOrder {
  @Id
  @GeneratedValue(strategy = GenerationType.SEQUENCE, generator = "orm_orders_seq")
  @SequenceGenerator(name = "orm_orders_seq", sequenceName = "orm_orders_seq", allocationSize = 50)
  private Long id;

  private int customerId;

  private String status;

  @OneToMany(mappedBy = "order", cascade = CascadeType.PERSIST)
  private List<OrderLine> lines = new ArrayList<>();

  protected PurchaseOrder() {}

  public PurchaseOrder(int customerId, String status) {
    this.customerId = customerId;
    this.status = status;
  }

  public OrderLine addLine(int lineNo, String product, int qty, java.math.BigDecimal price) {
    OrderLine l = new OrderLine(this, lineNo, product, qty, price);
    lines.add(l);
    return l;
  }

  public Long getId() {
    return id;
  }

  public int getCustomerId() {
    return customerId;
  }

  public String getStatus() {
    return status;
  }

  public List<OrderLine> getLines() {
    return lines;
  }
}
