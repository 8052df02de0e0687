package hongbao.postgres;

import hongbao.core.NotNow;
import hongbao.core.Unavailable;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTransientConnectionException;
import java.sql.Statement;
import java.time.Duration;
import java.util.random.RandomGenerator;
import javax.sql.DataSource;

/**
 * Runs a unit of work in one transaction on a pooled connection (the pool hands out connections
 * with auto-commit off). Deadlocks and serialization failures are transient: the whole unit is run
 * again, a bounded number of times, after a jittered exponential backoff so that the colliding
 * transactions do not collide again in lockstep. An unreachable or overloaded database is {@link
 * Unavailable} (retried by the caller's loop); every other {@link SQLException} becomes a {@link
 * DatabaseException}; runtime exceptions thrown by the work (domain rejections) roll back and pass
 * through unchanged.
 */
final class Transactions {

  static final int ATTEMPTS_MAX = 6;
  static final Duration BACKOFF_BASE = Duration.ofMillis(4);

  private static final String SERIALIZATION_FAILURE = "40001";
  private static final String DEADLOCK_DETECTED = "40P01";

  /** One unit of work; it must not commit or roll back itself. */
  @FunctionalInterface
  interface Work<T> {
    T run(Connection connection) throws SQLException;
  }

  private final DataSource dataSource;
  private final RandomGenerator jitter;

  Transactions(DataSource dataSource, RandomGenerator jitter) {
    this.dataSource = dataSource;
    this.jitter = jitter;
  }

  /** Runs {@code work} in a read-committed transaction, retried when transiently refused. */
  <T> T write(String what, Work<T> work) {
    return withRetries(what, work, false);
  }

  /** Runs {@code work} in a read-only transaction that sees one snapshot for all its statements. */
  <T> T read(String what, Work<T> work) {
    return withRetries(what, work, true);
  }

  private <T> T withRetries(String what, Work<T> work, boolean snapshot) {
    for (int attempt = 1; ; attempt++) {
      try {
        return once(work, snapshot);
      } catch (SQLException e) {
        if (isOutage(e, snapshot)) {
          throw new Unavailable("postgres", what + ": " + e.getMessage(), e);
        }
        if (!isTransient(e) || attempt >= ATTEMPTS_MAX) {
          throw new DatabaseException(what + " failed after " + attempt + " attempt(s)", e);
        }
        backOff(what, attempt);
      }
    }
  }

  private <T> T once(Work<T> work, boolean snapshot) throws SQLException {
    try (Connection connection = dataSource.getConnection()) {
      try {
        if (snapshot) {
          try (Statement statement = connection.createStatement()) {
            statement.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY");
          }
        }
        T result = work.run(connection);
        connection.commit();
        return result;
      } catch (SQLException | RuntimeException | Error e) {
        rollBackQuietly(connection, e);
        throw e;
      }
    }
  }

  private static void rollBackQuietly(Connection connection, Throwable cause) {
    try {
      connection.rollback();
    } catch (SQLException rollbackFailure) {
      // The connection is probably broken; the pool discards it. The first failure is the story.
      cause.addSuppressed(rollbackFailure);
    }
  }

  /**
   * The database is unreachable, shutting down, out of resources, did not answer within the
   * statement timeout, or is a standby that refuses writes after a failover: the SQLStates of
   * {@link NotNow}, and the driver's and the pool's transient-connection exceptions.
   */
  static boolean isOutage(SQLException e) {
    return isOutage(e, false);
  }

  /**
   * As above; in a read-only transaction a write's refusal ({@link NotNow#POSTGRES_READ_ONLY}) is
   * the code's own mistake, a bug, not a standby to wait for.
   */
  static boolean isOutage(SQLException e, boolean readOnly) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (readOnly
          && t instanceof SQLException sql
          && NotNow.POSTGRES_READ_ONLY.equals(sql.getSQLState())) {
        return false;
      }
      if (t instanceof SQLTransientConnectionException
          || t instanceof SQLNonTransientConnectionException
          || t instanceof SQLRecoverableException
          || t instanceof java.net.SocketException
          || t instanceof java.net.SocketTimeoutException) {
        return true;
      }
      if (t instanceof SQLException sql && NotNow.postgresState(sql.getSQLState())) {
        return true;
      }
    }
    return false;
  }

  static boolean isTransient(SQLException e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof SQLException sql
          && (SERIALIZATION_FAILURE.equals(sql.getSQLState())
              || DEADLOCK_DETECTED.equals(sql.getSQLState()))) {
        return true;
      }
    }
    return false;
  }

  private void backOff(String what, int attempt) {
    long ceilingMillis = BACKOFF_BASE.toMillis() << (attempt - 1);
    long sleepMillis;
    // Shared by the pool's threads: the generator is not thread-safe.
    synchronized (jitter) {
      sleepMillis = jitter.nextLong(ceilingMillis / 2, ceilingMillis + 1);
    }
    try {
      Thread.sleep(sleepMillis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new DatabaseException(what + " interrupted while backing off", e);
    }
  }
}
