package hongbao.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A payout writes its transfer only into the indexes somebody reads, so every reader of {@code
 * transfer} must find its rows through one of those: a query the planner can only answer by reading
 * the whole table would slow down as the ledger grows. With sequential scans priced out, each plan
 * must name an index and no sequential scan of {@code transfer}.
 */
class TransferIndexesTest extends LedgerTestBase {

  @Test
  void walletHistory_readsBothSidesThroughTheAccountIndexes() throws SQLException {
    String plan =
        plan(PostgresLedger.WALLET_ENTRIES, "wallet:alice", 100, "wallet:alice", 100, 100);

    assertThat(plan)
        .contains("transfer_by_debit_account")
        .contains("transfer_by_credit_account")
        .doesNotContain("Seq Scan on transfer");
  }

  @Test
  void campaignBooks_readTheReturnedBudgetThroughTheDebitIndex() throws SQLException {
    String plan = plan(PostgresRewardBook.CAMPAIGN_BOOKS + " WHERE c.id = ?", "spring");

    assertThat(plan).contains("transfer_by_debit_account").doesNotContain("Seq Scan on transfer");
  }

  @Test
  void transfer_hasExactlyTheIndexesItsReadersUse() throws SQLException {
    // Each index costs every payout a write. Readers: the primary key on key (the once-only guard,
    // lookups by key),
    // debit and credit (wallet histories, campaign returns), by packet (a packet's grabs, the
    // audit's touched packets, activities), grabs by wallet (packets paid to a user), by campaign
    // (rewards of a campaign). Nothing reads a transfer by id or an escrow's debits by index.
    assertThat(indexes())
        .containsExactlyInAnyOrder(
            "transfer_pkey (key)",
            "transfer_by_debit_account (debit_account, id DESC) WHERE (kind <> 'GRAB'::text)",
            "transfer_by_credit_account (credit_account, id DESC)",
            "transfer_by_packet (packet_id, kind) WHERE (packet_id IS NOT NULL)",
            "transfer_grabs_by_wallet (credit_account, packet_id DESC) WHERE (kind = 'GRAB'::text)",
            "transfer_by_campaign (campaign_id, kind) WHERE (campaign_id IS NOT NULL)");
  }

  /**
   * Each index on {@code transfer} as its name and what follows "USING btree" in its definition.
   */
  private static List<String> indexes() throws SQLException {
    try (Connection connection = db.database.dataSource().getConnection();
        PreparedStatement find =
            connection.prepareStatement(
                "SELECT indexname, indexdef FROM pg_indexes"
                    + " WHERE tablename = 'transfer' AND schemaname = ?")) {
      find.setString(1, db.schema);
      List<String> indexes = new ArrayList<>();
      try (ResultSet rows = find.executeQuery()) {
        while (rows.next()) {
          String definition = rows.getString(2);
          indexes.add(
              rows.getString(1)
                  + " "
                  + definition.substring(
                      definition.indexOf("USING btree ") + "USING btree ".length()));
        }
      }
      connection.rollback();
      return indexes;
    }
  }

  private static String plan(String sql, Object... parameters) throws SQLException {
    try (Connection connection = db.database.dataSource().getConnection()) {
      try (Statement off = connection.createStatement()) {
        off.execute("SET enable_seqscan = off");
      }
      try (PreparedStatement explain = connection.prepareStatement("EXPLAIN " + sql)) {
        for (int i = 0; i < parameters.length; i++) {
          explain.setObject(i + 1, parameters[i]);
        }
        List<String> lines = new ArrayList<>();
        try (ResultSet rows = explain.executeQuery()) {
          while (rows.next()) {
            lines.add(rows.getString(1));
          }
        }
        return String.join("\n", lines);
      } finally {
        connection.rollback();
      }
    }
  }
}
