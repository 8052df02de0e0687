package hongbao.postgres;

import hongbao.core.ops.InstallSettings;
import java.sql.PreparedStatement;
import java.sql.ResultSet;

/** Install settings in the {@code install_setting} table: inserted once, never updated. */
final class PostgresInstallSettings implements InstallSettings {

  private final Transactions transactions;

  PostgresInstallSettings(Transactions transactions) {
    this.transactions = transactions;
  }

  @Override
  public String keep(String name, String candidate) {
    return transactions.write(
        "keep install setting",
        connection -> {
          try (PreparedStatement insert =
              connection.prepareStatement(
                  "INSERT INTO install_setting (name, value) VALUES (?, ?)"
                      + " ON CONFLICT (name) DO NOTHING")) {
            insert.setString(1, name);
            insert.setString(2, candidate);
            insert.executeUpdate();
          }
          // Read in the same transaction: the row is ours or the earlier writer's, committed.
          return value(connection, name);
        });
  }

  @Override
  public String find(String name) {
    return transactions.read("find install setting", connection -> value(connection, name));
  }

  private static String value(java.sql.Connection connection, String name)
      throws java.sql.SQLException {
    try (PreparedStatement select =
        connection.prepareStatement("SELECT value FROM install_setting WHERE name = ?")) {
      select.setString(1, name);
      try (ResultSet row = select.executeQuery()) {
        return row.next() ? row.getString(1) : null;
      }
    }
  }
}
