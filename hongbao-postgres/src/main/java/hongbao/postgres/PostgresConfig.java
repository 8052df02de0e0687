package hongbao.postgres;

import java.util.Objects;

/**
 * Where the database is and how many connections to hold.
 *
 * @param user null to take it from the URL (or the driver's default)
 * @param password null to take it from the URL
 * @param schema the schema to migrate and use; null for the connection's default ({@code public})
 * @param poolSize connections in the pool
 */
public record PostgresConfig(
    String jdbcUrl, String user, String password, String schema, int poolSize) {

  /**
   * Sized for the 2-core box that also runs PostgreSQL: a handful of busy connections keep both
   * cores working (PostgreSQL's rule of thumb is cores × 2 plus spindles); more only queue inside
   * the database instead of in the pool.
   */
  public static final int POOL_SIZE_DEFAULT = 6;

  public PostgresConfig {
    Objects.requireNonNull(jdbcUrl, "jdbcUrl");
    if (!jdbcUrl.startsWith("jdbc:postgresql:")) {
      throw new IllegalArgumentException("not a PostgreSQL JDBC URL: " + jdbcUrl);
    }
    if (poolSize < 1 || poolSize > 100) {
      throw new IllegalArgumentException("pool size " + poolSize + " not in 1..100");
    }
  }

  public static PostgresConfig of(String jdbcUrl) {
    return new PostgresConfig(jdbcUrl, null, null, null, POOL_SIZE_DEFAULT);
  }

  public PostgresConfig withCredentials(String user, String password) {
    return new PostgresConfig(jdbcUrl, user, password, schema, poolSize);
  }

  public PostgresConfig withSchema(String schema) {
    return new PostgresConfig(jdbcUrl, user, password, schema, poolSize);
  }

  public PostgresConfig withPoolSize(int poolSize) {
    return new PostgresConfig(jdbcUrl, user, password, schema, poolSize);
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
        + "]";
  }
}
