package hongbao.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import hongbao.core.Unavailable;
import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.util.logging.Logger;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;

/** Which database failures are outages (retried by loops, 503 to clients) and which are not. */
class TransactionsOutageTest {

  @Test
  void connectionFailures_timeouts_andShutdowns_areOutages() {
    for (String state :
        new String[] {
          "08001", "08006", "53300", "57014", "57P01", "57P03", "58030", "25006", "55P03"
        }) {
      assertThat(Transactions.isOutage(new SQLException("x", state))).as(state).isTrue();
    }
    assertThat(Transactions.isOutage(new SQLTransientConnectionException("pool timed out")))
        .isTrue();
    assertThat(
            Transactions.isOutage(
                new SQLException("wrapped", null, new java.net.SocketTimeoutException("read"))))
        .isTrue();
  }

  @Test
  void refusedStatements_andPermanentFaults_areNotOutages() {
    for (String state : new String[] {"23505", "23514", "42P01", "22021", "57P04", "58P01"}) {
      assertThat(Transactions.isOutage(new SQLException("x", state))).as(state).isFalse();
    }
  }

  /** A write inside a read-only transaction is the code's mistake, not a standby to wait out. */
  @Test
  void aWriteRefusedInAReadOnlyTransaction_isABug() {
    var readOnly = new SQLException("cannot execute UPDATE in a read-only transaction", "25006");
    assertThat(Transactions.isOutage(readOnly, true)).isFalse();
    assertThat(Transactions.isOutage(readOnly, false)).as("a standby after a failover").isTrue();
  }

  @Test
  void aDatabaseThatCannotBeReached_isUnavailable() {
    var transactions = new Transactions(new Unreachable(), new java.util.SplittableRandom(1));

    assertThatThrownBy(() -> transactions.read("anything", connection -> 1))
        .isInstanceOf(Unavailable.class)
        .hasMessageContaining("postgres unavailable");
  }

  /** A pool that times out handing out connections, as Hikari does when PostgreSQL is gone. */
  private static final class Unreachable implements DataSource {
    @Override
    public Connection getConnection() throws SQLException {
      throw new SQLTransientConnectionException("Connection is not available, request timed out");
    }

    @Override
    public Connection getConnection(String username, String password) throws SQLException {
      return getConnection();
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
    public Logger getParentLogger() {
      return Logger.getGlobal();
    }

    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
      throw new SQLException("not a wrapper");
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) {
      return false;
    }
  }
}
