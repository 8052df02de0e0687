package hongbao.postgres;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;

/**
 * The PostgreSQL server the tests run against: the one named by {@code HONGBAO_TEST_JDBC_URL}, or
 * else one embedded server started once per test JVM (starting one takes seconds). Every {@link
 * TestSchema} gets a schema of its own, so tests never see each other's rows nor existing data.
 */
final class TestDatabase {

  static final String URL_VARIABLE = "HONGBAO_TEST_JDBC_URL";

  private static String serverUrl;
  private static EmbeddedPostgres embedded;

  private TestDatabase() {}

  static synchronized String serverUrl() {
    if (serverUrl == null) {
      String configured = System.getenv(URL_VARIABLE);
      if (configured != null && !configured.isBlank()) {
        serverUrl = configured;
      } else {
        try {
          // zonky registers a shutdown hook that stops the server when the JVM exits.
          embedded = EmbeddedPostgres.start();
        } catch (IOException e) {
          throw new UncheckedIOException("embedded PostgreSQL did not start", e);
        }
        serverUrl = embedded.getJdbcUrl("postgres", "postgres");
      }
    }
    return serverUrl;
  }

  /** A freshly migrated schema of its own; closing it drops the schema. */
  static TestSchema freshSchema() {
    String schema = "hb_test_" + UUID.randomUUID().toString().replace("-", "").substring(0, 16);
    PostgresDatabase database =
        PostgresDatabase.open(PostgresConfig.of(serverUrl()).withSchema(schema).withPoolSize(8));
    return new TestSchema(database, schema);
  }

  static void execute(PostgresDatabase database, String sql) {
    try (Connection connection = database.dataSource().getConnection();
        Statement statement = connection.createStatement()) {
      statement.execute(sql);
      connection.commit();
    } catch (SQLException e) {
      throw new IllegalStateException(sql, e);
    }
  }
}
