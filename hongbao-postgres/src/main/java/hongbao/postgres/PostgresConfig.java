package hongbao.postgres;

import java.time.Duration;
import java.util.Objects;

/**
 * Where the database is, how many connections to hold and how long to wait for it.
 *
 * @param user null to take it from the URL (or the driver's default)
 * @param password null to take it from the URL
 * @param schema the schema to migrate and use; null for the connection's default ({@code public})
 * @param poolSize connections in the pool
 */
public record PostgresConfig(
    String jdbcUrl, String user, String password, String schema, int poolSize, Timeouts timeouts) {

  /**
   * How long anything may wait for the database. The driver's defaults wait forever for an answer,
   * so a database that black-holes (a dropped route, a frozen VM) held every thread that touched
   * it.
   *
   * @param connect the longest wait for a connection: TCP connect and login, and a turn at the pool
   * @param socket the longest wait for any reply on an open connection, after which the driver
   *     closes it (and the pool replaces it); longer than {@code statement}, so that a slow
   *     statement is cancelled by the server and the connection survives
   * @param statement the server cancels a statement that runs longer ({@code statement_timeout}); a
   *     migration that needs longer says {@code SET LOCAL statement_timeout} itself
   */
  public record Timeouts(Duration connect, Duration socket, Duration statement) {

    /**
     * Twice HikariCP's floor of 250 ms (below it, it quietly waits 30 s instead), since the pool's
     * validation timeout is half the connect timeout.
     */
    public static final Duration CONNECT_MIN = Duration.ofMillis(500);

    /** Declared after CONNECT_MIN, which its constructor reads. */
    public static final Timeouts DEFAULTS =
        new Timeouts(Duration.ofSeconds(10), Duration.ofSeconds(20), Duration.ofSeconds(15));

    public Timeouts {
      Objects.requireNonNull(connect, "connect");
      Objects.requireNonNull(socket, "socket");
      Objects.requireNonNull(statement, "statement");
      if (connect.compareTo(CONNECT_MIN) < 0) {
        throw new IllegalArgumentException(
            "connect timeout must be at least " + CONNECT_MIN + ": " + connect);
      }
      if (statement.toMillis() < 1) {
        throw new IllegalArgumentException("statement timeout must be at least 1 ms: " + statement);
      }
      if (socket.compareTo(statement) <= 0) {
        throw new IllegalArgumentException(
            "socket timeout " + socket + " must exceed the statement timeout " + statement);
      }
    }

    /** The driver counts connect, login and socket timeouts in whole seconds; rounds up. */
    static int wholeSeconds(Duration duration) {
      return Math.toIntExact((duration.toMillis() + 999) / 1000);
    }
  }

  /**
   * Sized for the 2-core box that also runs PostgreSQL: a handful of busy connections keep both
   * cores working (PostgreSQL's rule of thumb is cores × 2 plus spindles); more only queue inside
   * the database instead of in the pool.
   */
  public static final int POOL_SIZE_DEFAULT = 6;

  public PostgresConfig {
    Objects.requireNonNull(jdbcUrl, "jdbcUrl");
    Objects.requireNonNull(timeouts, "timeouts");
    if (!jdbcUrl.startsWith("jdbc:postgresql:")) {
      throw new IllegalArgumentException("not a PostgreSQL JDBC URL: " + jdbcUrl);
    }
    if (poolSize < 1 || poolSize > 100) {
      throw new IllegalArgumentException("pool size " + poolSize + " not in 1..100");
    }
  }

  public static PostgresConfig of(String jdbcUrl) {
    return new PostgresConfig(jdbcUrl, null, null, null, POOL_SIZE_DEFAULT, Timeouts.DEFAULTS);
  }

  public PostgresConfig withCredentials(String user, String password) {
    return new PostgresConfig(jdbcUrl, user, password, schema, poolSize, timeouts);
  }

  public PostgresConfig withSchema(String schema) {
    return new PostgresConfig(jdbcUrl, user, password, schema, poolSize, timeouts);
  }

  public PostgresConfig withPoolSize(int poolSize) {
    return new PostgresConfig(jdbcUrl, user, password, schema, poolSize, timeouts);
  }

  public PostgresConfig withTimeouts(Timeouts timeouts) {
    return new PostgresConfig(jdbcUrl, user, password, schema, poolSize, timeouts);
  }

  /** Hides the password, which may also sit in the URL. */
  @Override
  public String toString() {
    return "PostgresConfig["
        + jdbcUrl.replaceAll("password=[^&]*", "password=***")
        + ", user="
        + user
        + ", schema="
        + schema
        + ", poolSize="
        + poolSize
        + ", timeouts="
        + timeouts
        + "]";
  }
}
