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
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Campaigns of the red-packet rain on PostgreSQL (schema in {@code V8__campaign.sql}). Creation is
 * one transaction: the Idempotency-Key, the reward campaign and its funding transfer, the campaign
 * with its rounds and prizes. An edit is one transaction that locks the row for update, checks the
 * time, replaces rounds and prizes, raises the version and moves the budget's difference; a read
 * locks the row for share, so it waits for an edit in flight. The return of the unspent budget is
 * one transaction that marks the campaign first: the row lock makes a second instance wait, then
 * find it marked and move nothing.
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
    // A write transaction only for the row lock: FOR SHARE waits for an edit in flight and keeps
    // one from committing until the rounds are read too (read committed, one row locked first).
    return transactions.write("campaign " + id, connection -> find(connection, id, "FOR SHARE"));
  }

  private static Optional<Campaign> find(Connection connection, String id, String lock)
      throws SQLException {
    try (PreparedStatement find =
        connection.prepareStatement(
            "SELECT name, budget, max_wins_per_user, taps_per_user_per_second, created_at, version"
                + " FROM campaign WHERE id = ? "
                + lock)) {
      find.setString(1, id);
      try (ResultSet row = find.executeQuery()) {
        if (!row.next()) {
          return Optional.empty();
        }
        return Optional.of(
            new Campaign(
                id,
                row.getString("name"),
                Amount.fen(row.getLong("budget")),
                rounds(connection, id),
                row.getInt("max_wins_per_user"),
                row.getInt("taps_per_user_per_second"),
                Sql.instant(row, "created_at"),
                row.getInt("version")));
      }
    }
  }

  @Override
  public Edit edit(String id, Campaign terms, Clock clock, Duration lead, Runnable beforeCommit) {
    return transactions.write(
        "edit campaign " + id,
        connection -> {
          Optional<Campaign> found = find(connection, id, "FOR UPDATE");
          if (found.isEmpty()) {
            return new Edit.NotFound();
          }
          Campaign before = found.get();
          // The clock is read with the row locked: a read that held it for share came first.
          Instant now = clock.instant();
          if (!now.isBefore(before.startsAt().minus(lead))) {
            return new Edit.TooLate(
                "campaign "
                    + id
                    + " is "
                    + before.statusAt(now).name().toLowerCase(java.util.Locale.ROOT)
                    + (before.statusAt(now) == hongbao.core.campaign.CampaignStatus.SCHEDULED
                        ? " to start within " + lead.toSeconds() + " s: it can no longer be edited"
                        : ": only a scheduled campaign can be edited"));
          }
          if (terms.startsAt().isBefore(now.plus(lead))) {
            return new Edit.TooLate(
                "the first round would start within "
                    + lead.toSeconds()
                    + " s: an edit must leave at least that much time");
          }
          if (before.sameTermsAs(terms)) {
            return new Edit.Unchanged(before);
          }
          Campaign after = terms.asVersion(id, before.createdAt(), before.version() + 1);
          replace(connection, after);
          moveBudgetDifference(connection, before, after);
          beforeCommit.run();
          return new Edit.Edited(before, after);
        });
  }

  private static void replace(Connection connection, Campaign c) throws SQLException {
    for (String sql :
        List.of(
            "DELETE FROM campaign_prize WHERE campaign_id = ?",
            "DELETE FROM campaign_round WHERE campaign_id = ?")) {
      try (PreparedStatement delete = connection.prepareStatement(sql)) {
        delete.setString(1, c.id());
        delete.executeUpdate();
      }
    }
    insertRounds(connection, c);
    try (PreparedStatement update =
        connection.prepareStatement(
            """
            UPDATE campaign SET name = ?, budget = ?, max_wins_per_user = ?,
                                taps_per_user_per_second = ?, starts_at = ?, ends_at = ?,
                                version = ?
            WHERE id = ?
            """)) {
      update.setString(1, c.name());
      update.setLong(2, c.budget().fen());
      update.setInt(3, c.maxWinsPerUser());
      update.setInt(4, c.tapsPerUserPerSecond());
      update.setObject(5, Sql.timestamp(c.startsAt()));
      update.setObject(6, Sql.timestamp(c.endsAt()));
      update.setInt(7, c.version());
      update.setString(8, c.id());
      update.executeUpdate();
    }
    try (PreparedStatement update =
        connection.prepareStatement("UPDATE reward_campaign SET budget = ? WHERE id = ?")) {
      update.setLong(1, c.budget().fen());
      update.setString(2, c.id());
      update.executeUpdate();
    }
  }

  /**
   * Moves {@code after − before} between the system account and the escrow, as the creation's
   * funding did (kind CAMPAIGN, the other way round for a smaller budget), so that budget = spent +
   * escrow + returned stays exact. Nothing was spent before the first round, so the escrow holds
   * the whole old budget; a cut it cannot cover is a broken invariant.
   */
  private static void moveBudgetDifference(Connection connection, Campaign before, Campaign after)
      throws SQLException {
    long difference = after.budget().fen() - before.budget().fen();
    if (difference == 0) {
      return;
    }
    String escrow = PostgresRewardBook.campaignAccount(after.id());
    String from = difference > 0 ? "system" : escrow;
    String to = difference > 0 ? escrow : "system";
    long amount = Math.abs(difference);
    try (PreparedStatement move = connection.prepareStatement(EDIT_MOVE)) {
      move.setLong(1, amount);
      move.setString(2, from);
      move.setLong(3, amount);
      move.setString(4, "campaign-edit:" + after.id() + ":" + after.version());
      move.setString(5, from);
      move.setString(6, to);
      move.setLong(7, amount);
      move.setString(8, after.id());
      move.setLong(9, amount);
      move.setString(10, to);
      try (ResultSet row = move.executeQuery()) {
        row.next();
        hongbao.core.Invariants.check(
            row.getLong(1) == 1,
            "campaign %s escrow holds less than the budget cut %s",
            after.id(),
            Amount.fen(amount));
      }
    }
  }

  /** Debits {@code from} (the escrow only as far as it holds), posts, credits {@code to}. */
  private static final String EDIT_MOVE =
      """
      WITH debited AS (
          UPDATE account SET balance = balance - ?
          WHERE id = ? AND (kind <> 'ESCROW' OR balance >= ?)
          RETURNING id
      ), posting AS (
          INSERT INTO transfer
              (key, kind, debit_account, credit_account, amount, user_id, campaign_id)
          SELECT ?, 'CAMPAIGN', ?, ?, ?, 'system', ? WHERE EXISTS (SELECT 1 FROM debited)
      ), credited AS (
          UPDATE account SET balance = balance + ? WHERE id = ?
              AND EXISTS (SELECT 1 FROM debited)
      )
      SELECT count(*) FROM debited
      """;

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
  public List<String> unreturnedAfter(String afterId, int max) {
    return ids(
        "SELECT id FROM campaign WHERE returned_at IS NULL AND id > ? ORDER BY id LIMIT ?",
        afterId,
        max);
  }

  @Override
  public List<String> recent(int max) {
    return ids("SELECT id FROM campaign ORDER BY created_at DESC LIMIT ?", max);
  }

  /** The ids {@code sql} finds, its parameters bound in order. */
  private List<String> ids(String sql, Object... parameters) {
    return transactions.read(
        "campaign ids",
        connection -> {
          try (PreparedStatement find = connection.prepareStatement(sql)) {
            for (int i = 0; i < parameters.length; i++) {
              find.setObject(i + 1, parameters[i]);
            }
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
                if (row.getLong(1) != 1) {
                  // Rolls back the mark: the closer computes the return again.
                  throw new CampaignStore.EscrowShort(id, amount);
                }
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
