package com.acme.orm;

import jakarta.persistence.Entity;
import jakarta.persistence.FetchType;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.ManyToOne;
import jakarta.persistence.SequenceGenerator;
import jakarta.persistence.Table;
import java.math.BigDecimal;

/** A line of a {@link PurchaseOrder}. */
@Entity
@Table(name = "orm_order_lines")
public class OrderLine {
  @Id
  @GeneratedValue(strategy = GenerationType.SEQUENCE, generator = "orm_order_lines_seq")
  @SequenceGenerator(
      name = "orm_order_lines_seq",
      sequenceName = "orm_order_lines_seq",
      allocationSize = 50)
  private Long id;

  @ManyToOne(fetch = FetchType.LAZY, optional = false)
  @JoinColumn(name = "order_id")
  private PurchaseOrder order;

  private int lineNo;
  private String product;
  private int qty;
  private BigDecimal price;

  protected OrderLine() {}

  OrderLine(PurchaseOrder order, int lineNo, String product, int qty, BigDecimal price) {
    this.order = order;
    this.lineNo = lineNo;
    this.product = product;
    this.qty = qty;
    this.price = price;
  }

  public Long getId() {
    return id;
  }

  public PurchaseOrder getOrder() {
    return order;
  }

  public int getLineNo() {
    return lineNo;
  }

  public String getProduct() {
    return product;
  }

  public int getQty() {
    return qty;
  }

  public BigDecimal getPrice() {
    return price;
  }
}
