package hongbao.postgres;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;
import org.flywaydb.core.Flyway;

/** A schema of its own migrated step by step, for the tests of one migration. */
final class Migrations {

  private Migrations() {}

  /** A schema name no other test uses. */
  static String schema() {
    return "hb_test_" + UUID.randomUUID().toString().replace("-", "").substring(0, 16);
  }

  /** Flyway on {@code schema}, migrating up to {@code target} ("latest" for all). */
  static Flyway flyway(String schema, String target) {
    return Flyway.configure()
        .dataSource(TestDatabase.serverUrl(), null, null)
        .locations("classpath:db/migration")
        .schemas(schema)
        .createSchemas(true)
        .target(target)
        .load();
  }

  /** Runs {@code sql} in {@code schema}, outside a transaction. */
  static void execute(String schema, String sql) throws SQLException {
    try (Connection connection = DriverManager.getConnection(TestDatabase.serverUrl());
        Statement statement = connection.createStatement()) {
      statement.execute("SET search_path TO " + schema);
      statement.execute(sql);
    }
  }
}
