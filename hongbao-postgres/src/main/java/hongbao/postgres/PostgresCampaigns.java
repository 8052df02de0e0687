package hongbao.postgres;

import hongbao.core.campaign.Campaign;
import hongbao.core.campaign.CampaignStore;
import hongbao.core.campaign.PrizeLine;
import hongbao.core.campaign.Round;
import hongbao.core.ledger.IdempotencyKey;
import hongbao.core.ledger.StoredAnswer;
import hongbao.core.money.Amount;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Campaigns of the red-packet rain on PostgreSQL (schema in {@code V8__campaign.sql}). Creation is
 * one transaction: the Idempotency-Key, the reward campaign and its funding transfer, the campaign
 * with its rounds and prizes. The return of the unspent budget is one transaction that marks the
 * campaign first: the row lock makes a second instance wait, then find it marked and move nothing.
 */
final class PostgresCampaigns implements CampaignStore {

  private final Transactions transactions;

  PostgresCampaigns(Transactions transactions) {
    this.transactions = transactions;
  }

  @Override
  public long nextNumber() {
    return transactions.write(
        "next campaign number",
        connection -> {
          try (PreparedStatement next =
                  connection.prepareStatement("SELECT nextval('campaign_number_seq')");
              ResultSet row = next.executeQuery()) {
            row.next();
            return row.getLong(1);
          }
        });
  }

  @Override
  public void create(Campaign campaign, IdempotencyKey key, StoredAnswer answer) {
    transactions.write(
        "create campaign " + campaign.id(),
        connection -> {
          PostgresLedger.claimKey(connection, key, answer);
          try (PreparedStatement rewards =
              connection.prepareStatement(
                  "INSERT INTO reward_campaign (id, budget) VALUES (?, ?)"
                      + " ON CONFLICT (id) DO NOTHING")) {
            rewards.setString(1, campaign.id());
            rewards.setLong(2, campaign.budget().fen());
            if (rewards.executeUpdate() == 0) {
              // Opened by hand (POST /admin/reward-campaigns) under this id: roll back, redraw.
              throw new CampaignStore.IdTaken(campaign.id());
            }
          }
          PostgresRewardBook.fund(connection, campaign.id(), campaign.budget());
          insertCampaign(connection, campaign, key);
          insertRounds(connection, campaign);
          return null;
        });
  }

  private static void insertCampaign(Connection connection, Campaign c, IdempotencyKey key)
      throws SQLException {
    try (PreparedStatement insert =
        connection.prepareStatement(
            """
            INSERT INTO campaign (id, name, budget, max_wins_per_user, taps_per_user_per_second,
                                  starts_at, ends_at, created_at, created_by, creation_key)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)) {
      insert.setString(1, c.id());
      insert.setString(2, c.name());
      insert.setLong(3, c.budget().fen());
      insert.setInt(4, c.maxWinsPerUser());
      insert.setInt(5, c.tapsPerUserPerSecond());
      insert.setObject(6, Sql.timestamp(c.startsAt()));
      insert.setObject(7, Sql.timestamp(c.endsAt()));
      insert.setObject(8, Sql.timestamp(c.createdAt()));
      insert.setString(9, key.userId());
      insert.setString(10, key.key());
      insert.executeUpdate();
    }
  }

  private static void insertRounds(Connection connection, Campaign c) throws SQLException {
    try (PreparedStatement round =
            connection.prepareStatement(
                "INSERT INTO campaign_round (campaign_id, number, starts_at, duration_ms,"
                    + " sub_pools) VALUES (?, ?, ?, ?, ?)");
        PreparedStatement prize =
            connection.prepareStatement(
                "INSERT INTO campaign_prize (campaign_id, round, line, type, amount, count)"
                    + " VALUES (?, ?, ?, ?, ?, ?)")) {
      for (Round r : c.rounds()) {
        round.setString(1, c.id());
        round.setInt(2, r.number());
        round.setObject(3, Sql.timestamp(r.startsAt()));
        round.setLong(4, r.duration().toMillis());
        round.setInt(5, r.subPools());
        round.addBatch();
        for (int line = 0; line < r.prizes().size(); line++) {
          PrizeLine p = r.prizes().get(line);
          prize.setString(1, c.id());
          prize.setInt(2, r.number());
          prize.setInt(3, line);
          prize.setString(4, p.type());
          prize.setLong(5, p.amount());
          prize.setLong(6, p.count());
          prize.addBatch();
        }
      }
      round.executeBatch();
      prize.executeBatch();
    }
  }

  @Override
  public Optional<StoredAnswer> answerFor(IdempotencyKey key) {
    return new PostgresLedger(transactions).answerFor(key);
  }

  @Override
  public Optional<String> createdUnder(IdempotencyKey key) {
    return transactions.read(
        "campaign by key",
        connection -> {
          try (PreparedStatement find =
              connection.prepareStatement(
                  "SELECT id FROM campaign WHERE created_by = ? AND creation_key = ?")) {
            find.setString(1, key.userId());
            find.setString(2, key.key());
            try (ResultSet row = find.executeQuery()) {
              return row.next() ? Optional.of(row.getString(1)) : Optional.<String>empty();
            }
          }
        });
  }

  @Override
  public Optional<Campaign> find(String id) {
    return transactions.read(
        "campaign " + id,
        connection -> {
          try (PreparedStatement find =
              connection.prepareStatement(
                  "SELECT name, budget, max_wins_per_user, taps_per_user_per_second, created_at"
                      + " FROM campaign WHERE id = ?")) {
            find.setString(1, id);
            try (ResultSet row = find.executeQuery()) {
              if (!row.next()) {
                return Optional.<Campaign>empty();
              }
              return Optional.of(
                  new Campaign(
                      id,
                      row.getString("name"),
                      Amount.fen(row.getLong("budget")),
                      rounds(connection, id),
                      row.getInt("max_wins_per_user"),
                      row.getInt("taps_per_user_per_second"),
                      Sql.instant(row, "created_at")));
            }
          }
        });
  }

  private static List<Round> rounds(Connection connection, String id) throws SQLException {
    var prizes = new ArrayList<List<PrizeLine>>();
    try (PreparedStatement find =
        connection.prepareStatement(
            "SELECT round, type, amount, count FROM campaign_prize WHERE campaign_id = ?"
                + " ORDER BY round, line")) {
      find.setString(1, id);
      try (ResultSet row = find.executeQuery()) {
        while (row.next()) {
          int round = row.getInt(1);
          while (prizes.size() < round) {
            prizes.add(new ArrayList<>());
          }
          prizes
              .get(round - 1)
              .add(new PrizeLine(row.getString(2), row.getLong(3), row.getLong(4)));
        }
      }
    }
    var rounds = new ArrayList<Round>();
    try (PreparedStatement find =
        connection.prepareStatement(
            "SELECT number, starts_at, duration_ms, sub_pools FROM campaign_round"
                + " WHERE campaign_id = ? ORDER BY number")) {
      find.setString(1, id);
      try (ResultSet row = find.executeQuery()) {
        while (row.next()) {
          int number = row.getInt(1);
          rounds.add(
              new Round(
                  number,
                  Sql.instant(row, "starts_at"),
                  Duration.ofMillis(row.getLong(3)),
                  prizes.get(number - 1),
                  row.getInt(4)));
        }
      }
    }
    return rounds;
  }

  @Override
  public List<String> unreturned(int max) {
    return ids("SELECT id FROM campaign WHERE returned_at IS NULL ORDER BY ends_at LIMIT ?", max);
  }

  @Override
  public List<String> recent(int max) {
    return ids("SELECT id FROM campaign ORDER BY created_at DESC LIMIT ?", max);
  }

  private List<String> ids(String sql, int max) {
    return transactions.read(
        "campaign ids",
        connection -> {
          try (PreparedStatement find = connection.prepareStatement(sql)) {
            find.setInt(1, max);
            var ids = new ArrayList<String>();
            try (ResultSet row = find.executeQuery()) {
              while (row.next()) {
                ids.add(row.getString(1));
              }
            }
            return ids;
          }
        });
  }

  /** The transfer moves only a positive amount: a fully spent campaign is marked, not moved. */
  private static final String RETURN =
      """
      WITH debited AS (
          UPDATE account SET balance = balance - ? WHERE id = ? AND balance >= ? RETURNING id
      ), posting AS (
          INSERT INTO transfer
              (key, kind, debit_account, credit_account, amount, user_id, campaign_id)
          SELECT ?, 'CAMPAIGN_RETURN', ?, 'system', ?, 'system', ? WHERE EXISTS (SELECT 1 FROM debited)
      ), credited AS (
          UPDATE account SET balance = balance + ? WHERE id = 'system'
              AND EXISTS (SELECT 1 FROM debited)
      )
      SELECT count(*) FROM debited
      """;

  @Override
  public boolean returnUnspent(String id, Amount amount, java.time.Instant at) {
    return transactions.write(
        "return the unspent budget of " + id,
        connection -> {
          try (PreparedStatement mark =
              connection.prepareStatement(
                  "UPDATE campaign SET returned_amount = ?, returned_at = ?"
                      + " WHERE id = ? AND returned_at IS NULL")) {
            mark.setLong(1, amount.fen());
            mark.setObject(2, Sql.timestamp(at));
            mark.setString(3, id);
            if (mark.executeUpdate() == 0) {
              return false;
            }
          }
          if (amount.isPositive()) {
            String escrow = PostgresRewardBook.campaignAccount(id);
            try (PreparedStatement move = connection.prepareStatement(RETURN)) {
              move.setLong(1, amount.fen());
              move.setString(2, escrow);
              move.setLong(3, amount.fen());
              move.setString(4, "campaign-return:" + id);
              move.setString(5, escrow);
              move.setLong(6, amount.fen());
              move.setString(7, id);
              move.setLong(8, amount.fen());
              try (ResultSet row = move.executeQuery()) {
                row.next();
                hongbao.core.Invariants.check(
                    row.getLong(1) == 1, "campaign %s escrow holds less than %s", id, amount);
              }
            }
          }
          return true;
        });
  }

  @Override
  public Optional<Return> returned(String id) {
    return transactions.read(
        "returned of " + id,
        connection -> {
          try (PreparedStatement find =
              connection.prepareStatement(
                  "SELECT returned_amount, returned_at FROM campaign WHERE id = ?")) {
            find.setString(1, id);
            try (ResultSet row = find.executeQuery()) {
              if (!row.next()) {
                return Optional.<Return>empty();
              }
              long fen = row.getLong(1);
              return row.wasNull()
                  ? Optional.<Return>empty()
                  : Optional.of(new Return(Amount.fen(fen), Sql.instant(row, "returned_at")));
            }
          }
        });
  }
}
