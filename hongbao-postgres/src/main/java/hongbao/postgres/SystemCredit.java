package hongbao.postgres;

import hongbao.core.money.Amount;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;

/**
 * Money the system account pays into a wallet (a top-up, a compensation), in the caller's
 * transaction: the system debit, the transfer and the wallet's credit (creating it) in one round
 * trip. Every such credit updates the one system row, so they are serialised; they are an
 * operator's actions, not a hot path. A key already posted fails the statement with a unique
 * violation, for the caller to say what that means.
 */
final class SystemCredit {

  private static final String CREDIT =
      """
      WITH funding AS (
          UPDATE account SET balance = balance - ? WHERE id = 'system'
      ), posting AS (
          INSERT INTO transfer
              (key, kind, debit_account, credit_account, amount, packet_id, user_id)
          VALUES (?, ?, 'system', ?, ?, ?, ?)
      )
      INSERT INTO account (id, kind, balance) VALUES (?, 'WALLET', ?)
      ON CONFLICT (id) DO UPDATE SET balance = account.balance + excluded.balance
      RETURNING balance
      """;

  private SystemCredit() {}

  /**
   * @param kind the transfer's kind
   * @param packetId the packet the credit is for, or null
   * @return the wallet's balance after it
   */
  static Amount post(
      Connection connection, String key, String kind, String userId, Long packetId, Amount amount)
      throws SQLException {
    String wallet = Sql.walletAccount(userId);
    try (PreparedStatement credit = connection.prepareStatement(CREDIT)) {
      credit.setLong(1, amount.fen());
      credit.setString(2, key);
      credit.setString(3, kind);
      credit.setString(4, wallet);
      credit.setLong(5, amount.fen());
      credit.setObject(6, packetId, Types.BIGINT);
      credit.setString(7, userId);
      credit.setString(8, wallet);
      credit.setLong(9, amount.fen());
      try (ResultSet row = credit.executeQuery()) {
        row.next();
        return Amount.fen(row.getLong(1));
      }
    }
  }
}
