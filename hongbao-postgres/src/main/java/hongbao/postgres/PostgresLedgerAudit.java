package hongbao.postgres;

import hongbao.core.money.Amount;
import hongbao.core.packet.Packet;
import hongbao.core.reconcile.LedgerAudit;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The ledger's books for the reconciler. {@link #accountProblems} recomputes every balance from the
 * transfers in one statement (a full scan of {@code transfer}, grouped by account) on one snapshot,
 * so it never reports a transfer whose balance update it cannot see yet.
 */
public final class PostgresLedgerAudit implements LedgerAudit {

  public static final int PAGE_MAX = 1_000;

  /** Beyond this many problems the books are broken wholesale; more lines would not help. */
  public static final int PROBLEMS_MAX = 1_000;

  /**
   * Accounts whose balance is not credits minus debits, accounts that transfers name but that do
   * not exist, and non-system accounts below zero.
   */
  private static final String ACCOUNT_PROBLEMS =
      """
      WITH movement AS (
          SELECT account, sum(delta)::bigint AS net FROM (
              SELECT credit_account AS account, amount AS delta FROM transfer
              UNION ALL
              SELECT debit_account, -amount FROM transfer
          ) posting
          GROUP BY account
      )
      SELECT coalesce(a.id, m.account) AS account, a.kind, a.balance, coalesce(m.net, 0) AS net
      FROM account a FULL OUTER JOIN movement m ON m.account = a.id
      WHERE a.id IS NULL
         OR a.balance <> coalesce(m.net, 0)
         OR (a.kind <> 'SYSTEM' AND a.balance < 0)
      ORDER BY 1
      LIMIT ?
      """;

  private final Transactions transactions;

  PostgresLedgerAudit(Transactions transactions) {
    this.transactions = transactions;
  }

  @Override
  public List<Packet> packets(long afterId, int limit) {
    if (limit < 0 || limit > PAGE_MAX) {
      throw new IllegalArgumentException("limit " + limit + " not in 0.." + PAGE_MAX);
    }
    return transactions.read(
        "packets after " + afterId,
        connection -> {
          try (PreparedStatement find =
              connection.prepareStatement(
                  "SELECT "
                      + PacketRows.COLUMNS
                      + " FROM packet WHERE id > ? ORDER BY id LIMIT ?")) {
            find.setLong(1, afterId);
            find.setInt(2, limit);
            return PacketRows.readAll(find);
          }
        });
  }

  /**
   * One pass over the packets after {@code afterId} in id order, each tested by its own columns or
   * one probe of {@code transfer_by_packet}: far cheaper than the per-packet check (three readings
   * of Redis and the escrow) it spares for every packet that did not move.
   */
  @Override
  public List<Packet> packetsTouchedSince(Instant since, long afterId, int limit) {
    if (limit < 0 || limit > PAGE_MAX) {
      throw new IllegalArgumentException("limit " + limit + " not in 0.." + PAGE_MAX);
    }
    return transactions.read(
        "packets after " + afterId + " touched since " + since,
        connection -> {
          try (PreparedStatement find =
              connection.prepareStatement(
                  "SELECT "
                      + PacketRows.COLUMNS
                      + " FROM packet WHERE id > ? AND (closed_at IS NULL OR created_at >= ?"
                      + " OR closed_at >= ? OR EXISTS (SELECT 1 FROM transfer t"
                      + " WHERE t.packet_id = packet.id AND t.created_at >= ?))"
                      + " ORDER BY id LIMIT ?")) {
            var at = Sql.timestamp(since);
            find.setLong(1, afterId);
            find.setObject(2, at);
            find.setObject(3, at);
            find.setObject(4, at);
            find.setInt(5, limit);
            return PacketRows.readAll(find);
          }
        });
  }

  @Override
  public Amount escrowBalance(long packetId) {
    return transactions.read(
        "escrow of packet " + packetId,
        connection -> PostgresLedger.balance(connection, Sql.escrowAccount(packetId)));
  }

  @Override
  public List<String> accountProblems() {
    return transactions.read(
        "account audit",
        connection -> {
          List<String> problems = new ArrayList<>();
          try (PreparedStatement audit = connection.prepareStatement(ACCOUNT_PROBLEMS)) {
            audit.setInt(1, PROBLEMS_MAX);
            try (ResultSet rows = audit.executeQuery()) {
              while (rows.next()) {
                problems.add(describe(rows));
              }
            }
          }
          return problems;
        });
  }

  private static String describe(ResultSet row) throws java.sql.SQLException {
    String account = row.getString("account");
    long net = row.getLong("net");
    String kind = row.getString("kind");
    if (kind == null) {
      return "account " + account + " is missing; its transfers sum to " + net + " fen";
    }
    long balance = row.getLong("balance");
    if (balance != net) {
      return "account "
          + account
          + " holds "
          + balance
          + " fen but its transfers sum to "
          + net
          + " fen";
    }
    return "account " + account + " is negative: " + balance + " fen";
  }
}
