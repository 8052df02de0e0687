package hongbao.postgres;

import static hongbao.postgres.Migrations.execute;
import static hongbao.postgres.Migrations.flyway;
import static hongbao.postgres.Migrations.schema;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * V15's index on (campaign, tradeNo) may be built by hand beforehand, concurrently, so that the
 * migration need not hold the credits while it builds; the migration then keeps it and drops the
 * old index. An index of that name that is not the one it needs must stop the migration, not leave
 * the reward table with no index by campaign.
 */
class RewardIndexMigrationTest {

  @Test
  void anIndexBuiltAheadConcurrently_isKept_andTheOldOneDropped() throws SQLException {
    String schema = schema();
    flyway(schema, "14").migrate();
    execute(
        schema,
        "CREATE INDEX CONCURRENTLY reward_by_campaign_trade ON reward (campaign_id, trade_no)");

    flyway(schema, "latest").migrate();

    assertThat(indexes(schema))
        .contains("reward_by_campaign_trade")
        .doesNotContain("reward_by_campaign");
    execute(schema, "DROP SCHEMA " + schema + " CASCADE");
  }

  @Test
  void anIndexOfThatNameOnOtherColumns_stopsTheMigration_keepingTheOldIndex() throws SQLException {
    String schema = schema();
    flyway(schema, "14").migrate();
    execute(schema, "CREATE INDEX reward_by_campaign_trade ON reward (trade_no)");

    assertThatThrownBy(() -> flyway(schema, "latest").migrate())
        .hasMessageContaining("not a valid index on reward (campaign_id, trade_no)");
    assertThat(indexes(schema)).contains("reward_by_campaign");
    execute(schema, "DROP SCHEMA " + schema + " CASCADE");
  }

  private static List<String> indexes(String schema) throws SQLException {
    try (Connection connection = DriverManager.getConnection(TestDatabase.serverUrl());
        Statement statement = connection.createStatement();
        ResultSet rows =
            statement.executeQuery(
                "SELECT indexname FROM pg_indexes WHERE schemaname = '"
                    + schema
                    + "' AND tablename = 'reward'")) {
      var names = new ArrayList<String>();
      while (rows.next()) {
        names.add(rows.getString(1));
      }
      return names;
    }
  }
}
