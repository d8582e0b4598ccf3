package dev.wg1bench.server;

import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * A target's connections as a {@link DataSource}, for code of the user's that takes one (a
 * workload's set-up and check): each {@link #getConnection()} opens a client connection with the
 * run's driver and session settings; closing it closes it.
 */
public final class FactoryDataSource implements DataSource {
  private final ConnectionFactory factory;

  public FactoryDataSource(ConnectionFactory factory) {
    this.factory = factory;
  }

  @Override
  public Connection getConnection() throws SQLException {
    return factory.openClient();
  }

  @Override
  public Connection getConnection(String username, String password) throws SQLException {
    throw new SQLFeatureNotSupportedException("the target's own user is used");
  }

  @Override
  public PrintWriter getLogWriter() {
    return null;
  }

  @Override
  public void setLogWriter(PrintWriter out) {}

  @Override
  public void setLoginTimeout(int seconds) {}

  @Override
  public int getLoginTimeout() {
    return 0;
  }

  @Override
  public Logger getParentLogger() throws SQLFeatureNotSupportedException {
    throw new SQLFeatureNotSupportedException();
  }

  @Override
  public <T> T unwrap(Class<T> iface) throws SQLException {
    if (iface.isInstance(this)) {
      return iface.cast(this);
    }
    throw new SQLException("not a wrapper of " + iface.getName());
  }

  @Override
  public boolean isWrapperFor(Class<?> iface) {
    return iface.isInstance(this);
  }
}
