package hongbao.postgres;

import hongbao.core.Invariants;
import hongbao.core.RejectedException;
import hongbao.core.Rejection;
import hongbao.core.money.Amount;
import hongbao.core.reward.Reward;
import hongbao.core.reward.RewardBook;
import hongbao.core.reward.RewardKind;
import hongbao.core.reward.RewardRecord;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The reward book on PostgreSQL (schema in {@code V6__reward.sql}). A CASH credit is one statement:
 * claim the tradeNo's row, debit the campaign escrow, post the transfer, credit the wallet — so the
 * row exists if and only if the money moved. Locks follow the ledger's order: {@code campaign:*}
 * sorts before {@code wallet:*}.
 */
final class PostgresRewardBook implements RewardBook {

  static final int LIST_MAX = 100_000;

  /** Rows a campaign's read takes from the server at a time. */
  static final int CAMPAIGN_FETCH = 10_000;

  private static final String COLUMNS =
      "trade_no, digest, user_id, campaign_id, scene, type, kind, amount, descr, awarded_at,"
          + " status, note, settled_at";

  private static final String CLAIM =
      "INSERT INTO reward (trade_no, digest, user_id, campaign_id, scene, type, kind, amount,"
          + " descr, awarded_at, status, note) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
          + " ON CONFLICT (trade_no) DO NOTHING RETURNING trade_no";

  /**
   * The claim, then the money only if the claim inserted a row. The escrow debit refuses to go
   * below zero: a campaign's budget reservations make that impossible, so it is a bug if it does.
   */
  private static final String CREDIT_CASH =
      "WITH claimed AS ("
          + CLAIM
          + """
          ), debited AS (
              UPDATE account SET balance = balance - ?
              WHERE id = ? AND balance >= ? AND EXISTS (SELECT 1 FROM claimed)
              RETURNING id
          ), posting AS (
              INSERT INTO transfer
                  (key, kind, debit_account, credit_account, amount, user_id, campaign_id)
              SELECT ?, 'REWARD', ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM debited)
          ), credited AS (
              INSERT INTO account (id, kind, balance)
              SELECT ?, 'WALLET', ? WHERE EXISTS (SELECT 1 FROM debited)
              ON CONFLICT (id) DO UPDATE SET balance = account.balance + excluded.balance
          )
          SELECT (SELECT count(*) FROM claimed), (SELECT count(*) FROM debited)
          """;

  private final Transactions transactions;

  PostgresRewardBook(Transactions transactions) {
    this.transactions = transactions;
  }

  static String campaignAccount(String campaignId) {
    return "campaign:" + campaignId;
  }

  // ----------------------------------------------------------------------------------- campaigns

  @Override
  public boolean openCampaign(String campaignId, Amount budget) {
    Invariants.check(budget.isPositive(), "campaign %s budget %s", campaignId, budget);
    return transactions.write(
        "open campaign " + campaignId,
        connection -> {
          try (PreparedStatement insert =
              connection.prepareStatement(
                  "INSERT INTO reward_campaign (id, budget) VALUES (?, ?)"
                      + " ON CONFLICT (id) DO NOTHING RETURNING id")) {
            insert.setString(1, campaignId);
            insert.setLong(2, budget.fen());
            try (ResultSet row = insert.executeQuery()) {
              if (!row.next()) {
                checkNotARain(connection, campaignId);
                checkSameBudget(connection, campaignId, budget);
                return false;
              }
            }
          }
          fund(connection, campaignId, budget);
          return true;
        });
  }

  /**
   * A red-packet rain's escrow is opened, funded and returned with the rain: opening it by hand
   * would let rewards spend a budget the rain's closer accounts for.
   */
  private static void checkNotARain(Connection connection, String campaignId) throws SQLException {
    try (PreparedStatement find =
        connection.prepareStatement("SELECT 1 FROM campaign WHERE id = ?")) {
      find.setString(1, campaignId);
      try (ResultSet row = find.executeQuery()) {
        if (row.next()) {
          throw new RejectedException(
              Rejection.CONFLICT,
              "campaign " + campaignId + " is a red-packet rain; its budget is the rain's");
        }
      }
    }
  }

  private static void checkSameBudget(Connection connection, String campaignId, Amount budget)
      throws SQLException {
    try (PreparedStatement find =
        connection.prepareStatement("SELECT budget FROM reward_campaign WHERE id = ?")) {
      find.setString(1, campaignId);
      try (ResultSet row = find.executeQuery()) {
        row.next();
        if (row.getLong(1) != budget.fen()) {
          throw new RejectedException(
              Rejection.IDEMPOTENCY_CONFLICT,
              "campaign " + campaignId + " exists with another budget");
        }
      }
    }
  }

  static void fund(Connection connection, String campaignId, Amount budget) throws SQLException {
    String escrow = campaignAccount(campaignId);
    try (PreparedStatement fund =
        connection.prepareStatement(
            """
            WITH funding AS (
                UPDATE account SET balance = balance - ? WHERE id = 'system'
            ), posting AS (
                INSERT INTO transfer
                    (key, kind, debit_account, credit_account, amount, user_id, campaign_id)
                VALUES (?, 'CAMPAIGN', 'system', ?, ?, 'system', ?)
            )
            INSERT INTO account (id, kind, balance) VALUES (?, 'ESCROW', ?)
            """)) {
      fund.setLong(1, budget.fen());
      fund.setString(2, escrow);
      fund.setString(3, escrow);
      fund.setLong(4, budget.fen());
      fund.setString(5, campaignId);
      fund.setString(6, escrow);
      fund.setLong(7, budget.fen());
      fund.executeUpdate();
    }
  }

  /**
   * A campaign's budget, escrow, rewards credited and budget returned. What went back is every
   * debit of the escrow but the credits (REWARD) and an edit's budget cut (CAMPAIGN out of the
   * escrow), which lowers the budget by as much. A campaign escrow is never debited by a GRAB; the
   * returned sum says so to use {@code transfer_by_debit_account}, which leaves grabs out.
   */
  static final String CAMPAIGN_BOOKS =
      """
      SELECT c.id, c.budget, coalesce(a.balance, 0) AS escrow,
             coalesce((SELECT sum(amount) FROM transfer t
                       WHERE t.campaign_id = c.id AND t.kind = 'REWARD'), 0) AS credited,
             coalesce((SELECT sum(amount) FROM transfer t
                       WHERE t.debit_account = 'campaign:' || c.id
                         AND t.kind NOT IN ('REWARD', 'CAMPAIGN') AND t.kind <> 'GRAB'), 0)
                 AS returned
      FROM reward_campaign c LEFT JOIN account a ON a.id = 'campaign:' || c.id
      """;

  @Override
  public Optional<CampaignBooks> campaign(String campaignId) {
    return transactions.read(
        "campaign " + campaignId,
        connection -> {
          try (PreparedStatement find =
              connection.prepareStatement(CAMPAIGN_BOOKS + " WHERE c.id = ?")) {
            find.setString(1, campaignId);
            List<CampaignBooks> found = readCampaigns(find);
            return found.stream().findFirst();
          }
        });
  }

  @Override
  public List<CampaignBooks> campaigns() {
    return transactions.read(
        "campaigns",
        connection -> {
          try (PreparedStatement all =
              connection.prepareStatement(CAMPAIGN_BOOKS + " ORDER BY 1")) {
            return readCampaigns(all);
          }
        });
  }

  @Override
  public List<String> fundedCampaigns() {
    return transactions.read(
        "funded campaigns",
        connection -> {
          try (PreparedStatement funded =
              connection.prepareStatement(
                  "SELECT c.id FROM reward_campaign c JOIN account a ON a.id = 'campaign:' || c.id"
                      + " WHERE a.balance > 0 ORDER BY c.id")) {
            var ids = new ArrayList<String>();
            try (ResultSet row = funded.executeQuery()) {
              while (row.next()) {
                ids.add(row.getString(1));
              }
            }
            return ids;
          }
        });
  }

  private static List<CampaignBooks> readCampaigns(PreparedStatement query) throws SQLException {
    var campaigns = new ArrayList<CampaignBooks>();
    try (ResultSet row = query.executeQuery()) {
      while (row.next()) {
        campaigns.add(
            new CampaignBooks(
                row.getString("id"),
                Amount.fen(row.getLong("budget")),
                Amount.fen(row.getLong("escrow")),
                Amount.fen(row.getLong("credited")),
                Amount.fen(row.getLong("returned"))));
      }
    }
    return campaigns;
  }

  // ------------------------------------------------------------------------------------- credits

  @Override
  public Credit creditCash(Reward reward, String digest) {
    String escrow = campaignAccount(reward.campaignId());
    String wallet = Sql.walletAccount(reward.userId());
    long fen = reward.amount().fen();
    try {
      return creditCashOnce(reward, digest, escrow, wallet, fen);
    } catch (Shortfall shortfall) {
      return Credit.UNPAYABLE;
    }
  }

  private Credit creditCashOnce(
      Reward reward, String digest, String escrow, String wallet, long fen) {
    return transactions.write(
        "credit reward " + reward.tradeNo(),
        connection -> {
          try (PreparedStatement credit = connection.prepareStatement(CREDIT_CASH)) {
            int i = bindClaim(credit, reward, digest, RewardKind.CASH, "CREDITED", null);
            credit.setLong(++i, fen);
            credit.setString(++i, escrow);
            credit.setLong(++i, fen);
            credit.setString(++i, reward.transferKey());
            credit.setString(++i, escrow);
            credit.setString(++i, wallet);
            credit.setLong(++i, fen);
            credit.setString(++i, reward.userId());
            credit.setString(++i, reward.campaignId());
            credit.setString(++i, wallet);
            credit.setLong(++i, fen);
            try (ResultSet row = credit.executeQuery()) {
              row.next();
              if (row.getInt(1) == 0) {
                return existing(connection, reward.tradeNo(), digest);
              }
              if (row.getInt(2) != 1) {
                throw new Shortfall(); // rolls the claim back
              }
              return Credit.DONE;
            }
          }
        });
  }

  /**
   * A batch of CASH credits in one statement: claim the rows that are new, then move exactly what
   * was claimed — each escrow debited by its sum (refusing to go below zero), each wallet credited
   * by its sum. Accounts are locked in id order first, as the ledger's other writers do.
   */
  private static final String CREDIT_CASH_BATCH =
      """
      WITH input AS (
          SELECT * FROM unnest(?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[],
                               ?::bigint[], ?::text[], ?::bigint[])
              AS t(trade_no, digest, user_id, campaign_id, scene, type, amount, descr, awarded_micros)
      ), claimed AS (
          INSERT INTO reward (trade_no, digest, user_id, campaign_id, scene, type, kind, amount,
                              descr, awarded_at, status)
          SELECT trade_no, digest, user_id, campaign_id, scene, type, 'CASH', amount, descr,
                 timestamptz 'epoch' + awarded_micros * interval '1 microsecond', 'CREDITED'
          FROM input
          ON CONFLICT (trade_no) DO NOTHING
          RETURNING trade_no, user_id, campaign_id, amount
      ), debited AS (
          UPDATE account SET balance = account.balance - d.total
          FROM (SELECT 'campaign:' || campaign_id AS id, sum(amount)::bigint AS total
                FROM claimed GROUP BY 1) d
          WHERE account.id = d.id AND account.balance >= d.total
          RETURNING account.id
      ), posting AS (
          INSERT INTO transfer (key, kind, debit_account, credit_account, amount, user_id, campaign_id)
          SELECT 'reward:' || trade_no, 'REWARD', 'campaign:' || campaign_id, 'wallet:' || user_id,
                 amount, user_id, campaign_id
          FROM claimed
      ), credited AS (
          INSERT INTO account (id, kind, balance)
          SELECT 'wallet:' || user_id, 'WALLET', sum(amount)::bigint
          FROM claimed GROUP BY 1 ORDER BY 1
          ON CONFLICT (id) DO UPDATE SET balance = account.balance + excluded.balance
      )
      SELECT (SELECT array_agg(trade_no) FROM claimed),
             (SELECT count(DISTINCT campaign_id) FROM claimed),
             (SELECT count(*) FROM debited)
      """;

  @Override
  public List<Credit> creditCash(List<Reward> rewards) {
    if (rewards.isEmpty()) {
      return List.of();
    }
    Invariants.check(rewards.size() <= CASH_BATCH_MAX, "a batch of %d credits", rewards.size());
    try {
      return creditCashOnce(rewards);
    } catch (Shortfall shortfall) {
      // An escrow holds less than its rewards in the batch (the budget lost reservations): each
      // on its own, so that only the rewards it cannot pay fail.
      var answers = new ArrayList<Credit>(rewards.size());
      for (Reward reward : rewards) {
        answers.add(rewards.size() == 1 ? Credit.UNPAYABLE : creditCash(List.of(reward)).get(0));
      }
      return answers;
    }
  }

  /**
   * An escrow cannot pay what was claimed against it: thrown inside the transaction so that it
   * rolls back, and answered outside it.
   */
  private static final class Shortfall extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Shortfall() {
      super("an escrow cannot pay its rewards", null, false, false);
    }
  }

  private List<Credit> creditCashOnce(List<Reward> rewards) {
    return transactions.write(
        "credit " + rewards.size() + " rewards",
        connection -> {
          lockAccounts(connection, rewards);
          java.util.Set<String> claimed = claimCash(connection, rewards);
          var answers = new ArrayList<Credit>(rewards.size());
          java.util.Map<String, String> earlier =
              claimed.size() == rewards.size() ? java.util.Map.of() : digests(connection, rewards);
          for (Reward reward : rewards) {
            if (claimed.contains(reward.tradeNo())) {
              answers.add(Credit.DONE);
            } else {
              String digest = earlier.get(reward.tradeNo());
              Invariants.check(
                  digest != null, "reward %s neither claimed nor found", reward.tradeNo());
              answers.add(digest.equals(reward.digest()) ? Credit.ALREADY : Credit.CONFLICT);
            }
          }
          return answers;
        });
  }

  private static void lockAccounts(Connection connection, List<Reward> rewards)
      throws SQLException {
    var accounts = new java.util.TreeSet<String>();
    for (Reward reward : rewards) {
      accounts.add(campaignAccount(reward.campaignId()));
      accounts.add(Sql.walletAccount(reward.userId()));
    }
    try (PreparedStatement lock =
        connection.prepareStatement(
            "SELECT count(*) FROM (SELECT id FROM account WHERE id = ANY(?) ORDER BY id FOR UPDATE) l")) {
      lock.setArray(1, connection.createArrayOf("text", accounts.toArray()));
      lock.executeQuery().close();
    }
  }

  private static java.util.Set<String> claimCash(Connection connection, List<Reward> rewards)
      throws SQLException {
    int n = rewards.size();
    String[][] text = new String[7][n];
    Long[] amounts = new Long[n];
    Long[] awarded = new Long[n];
    for (int i = 0; i < n; i++) {
      Reward r = rewards.get(i);
      text[0][i] = r.tradeNo();
      text[1][i] = r.digest();
      text[2][i] = r.userId();
      text[3][i] = r.campaignId();
      text[4][i] = r.scene();
      text[5][i] = r.type();
      text[6][i] = r.desc();
      amounts[i] = r.amount().fen();
      awarded[i] = Sql.epochMicros(r.awardedAt());
    }
    try (PreparedStatement credit = connection.prepareStatement(CREDIT_CASH_BATCH)) {
      for (int column = 0; column < 6; column++) {
        credit.setArray(column + 1, connection.createArrayOf("text", text[column]));
      }
      credit.setArray(7, connection.createArrayOf("bigint", amounts));
      credit.setArray(8, connection.createArrayOf("text", text[6]));
      credit.setArray(9, connection.createArrayOf("bigint", awarded));
      try (ResultSet row = credit.executeQuery()) {
        row.next();
        java.sql.Array array = row.getArray(1);
        var claimed = new java.util.HashSet<String>();
        if (array != null) {
          for (Object tradeNo : (Object[]) array.getArray()) {
            claimed.add((String) tradeNo);
          }
        }
        if (row.getInt(2) != row.getInt(3)) {
          throw new Shortfall(); // a campaign's escrow was not debited: rolls the batch back
        }
        return claimed;
      }
    }
  }

  private static java.util.Map<String, String> digests(Connection connection, List<Reward> rewards)
      throws SQLException {
    var found = new java.util.HashMap<String, String>();
    try (PreparedStatement find =
        connection.prepareStatement(
            "SELECT trade_no, digest FROM reward WHERE trade_no = ANY(?)")) {
      find.setArray(
          1, connection.createArrayOf("text", rewards.stream().map(Reward::tradeNo).toArray()));
      try (ResultSet rows = find.executeQuery()) {
        while (rows.next()) {
          found.put(rows.getString(1), rows.getString(2));
        }
      }
    }
    return found;
  }

  @Override
  public Credit recordIssued(Reward reward, String digest, RewardKind kind, boolean couponBook) {
    return transactions.write(
        "record reward " + reward.tradeNo(),
        connection -> {
          if (!claim(connection, reward, digest, kind, "CREDITED", null)) {
            return existing(connection, reward.tradeNo(), digest);
          }
          if (couponBook) {
            try (PreparedStatement coupon =
                connection.prepareStatement(
                    "INSERT INTO coupon (trade_no, user_id, type, amount) VALUES (?, ?, ?, ?)")) {
              coupon.setString(1, reward.tradeNo());
              coupon.setString(2, reward.userId());
              coupon.setString(3, reward.type());
              coupon.setLong(4, reward.amount().fen());
              coupon.executeUpdate();
            }
          }
          return Credit.DONE;
        });
  }

  @Override
  public Credit recordFailed(Reward reward, String digest, RewardKind kind, String reason) {
    String note = reason.length() > 500 ? reason.substring(0, 500) : reason;
    return transactions.write(
        "record failed reward " + reward.tradeNo(),
        connection ->
            claim(connection, reward, digest, kind, "FAILED", note)
                ? Credit.DONE
                : existing(connection, reward.tradeNo(), digest));
  }

  private static boolean claim(
      Connection connection,
      Reward reward,
      String digest,
      RewardKind kind,
      String status,
      String note)
      throws SQLException {
    try (PreparedStatement claim = connection.prepareStatement(CLAIM)) {
      bindClaim(claim, reward, digest, kind, status, note);
      try (ResultSet row = claim.executeQuery()) {
        return row.next();
      }
    }
  }

  /** Binds the claim's twelve parameters; returns the last index bound. */
  private static int bindClaim(
      PreparedStatement statement,
      Reward reward,
      String digest,
      RewardKind kind,
      String status,
      String note)
      throws SQLException {
    statement.setString(1, reward.tradeNo());
    statement.setString(2, digest);
    statement.setString(3, reward.userId());
    statement.setString(4, reward.campaignId());
    statement.setString(5, reward.scene());
    statement.setString(6, reward.type());
    statement.setString(7, kind.name());
    statement.setLong(8, reward.amount().fen());
    statement.setString(9, reward.desc());
    statement.setObject(10, Sql.timestamp(reward.awardedAt()));
    statement.setString(11, status);
    statement.setString(12, note);
    return 12;
  }

  private static Credit existing(Connection connection, String tradeNo, String digest)
      throws SQLException {
    try (PreparedStatement find =
        connection.prepareStatement("SELECT digest FROM reward WHERE trade_no = ?")) {
      find.setString(1, tradeNo);
      try (ResultSet row = find.executeQuery()) {
        Invariants.check(row.next(), "reward %s claimed but not found", tradeNo);
        return row.getString(1).equals(digest) ? Credit.ALREADY : Credit.CONFLICT;
      }
    }
  }

  // --------------------------------------------------------------------------------------- reads

  @Override
  public Optional<RewardRecord> find(String tradeNo) {
    return transactions.read(
        "reward " + tradeNo,
        connection -> {
          try (PreparedStatement find =
              connection.prepareStatement(
                  "SELECT " + COLUMNS + " FROM reward WHERE trade_no = ?")) {
            find.setString(1, tradeNo);
            return readRecords(find).stream().findFirst();
          }
        });
  }

  @Override
  public List<RewardRecord> byUser(String userId, int limit) {
    return list(
        "rewards of " + userId,
        "SELECT " + COLUMNS + " FROM reward WHERE user_id = ? ORDER BY awarded_at DESC LIMIT ?",
        userId,
        Math.min(limit, LIST_MAX));
  }

  /**
   * Every row, however many: the reconciler sums and checks them all, so a cap would turn a large
   * campaign's rewards past it into false discrepancies (a rain round may hold ten million prizes).
   * Read through a cursor, {@value #CAMPAIGN_FETCH} rows at a time.
   */
  @Override
  public List<RewardRecord> byCampaign(String campaignId) {
    return transactions.read(
        "rewards of campaign " + campaignId,
        connection -> {
          try (PreparedStatement find =
              connection.prepareStatement(
                  "SELECT " + COLUMNS + " FROM reward WHERE campaign_id = ?")) {
            find.setFetchSize(CAMPAIGN_FETCH);
            find.setString(1, campaignId);
            return readRecords(find);
          }
        });
  }

  /** Through the index on (campaign, tradeNo): each page starts where the last one stopped. */
  static final String CAMPAIGN_PAGE =
      "SELECT "
          + COLUMNS
          + " FROM reward WHERE campaign_id = ? AND trade_no > ? ORDER BY trade_no LIMIT ?";

  @Override
  public List<RewardRecord> byCampaign(String campaignId, String afterTradeNo, int limit) {
    return transactions.read(
        "a page of the rewards of campaign " + campaignId,
        connection -> {
          try (PreparedStatement find = connection.prepareStatement(CAMPAIGN_PAGE)) {
            find.setString(1, campaignId);
            // Every tradeNo sorts after the empty string: a reward's tradeNo is never empty.
            find.setString(2, afterTradeNo == null ? "" : afterTradeNo);
            find.setInt(3, limit);
            return readRecords(find);
          }
        });
  }

  private List<RewardRecord> list(String what, String sql, String key, int limit) {
    return transactions.read(
        what,
        connection -> {
          try (PreparedStatement find = connection.prepareStatement(sql)) {
            find.setString(1, key);
            find.setInt(2, limit);
            return readRecords(find);
          }
        });
  }

  private static List<RewardRecord> readRecords(PreparedStatement query) throws SQLException {
    var records = new ArrayList<RewardRecord>();
    try (ResultSet row = query.executeQuery()) {
      while (row.next()) {
        Reward reward =
            new Reward(
                row.getString("trade_no"),
                row.getString("user_id"),
                row.getString("campaign_id"),
                row.getString("scene"),
                row.getString("type"),
                Amount.fen(row.getLong("amount")),
                row.getString("descr"),
                Sql.instant(row, "awarded_at"));
        records.add(
            new RewardRecord(
                reward,
                row.getString("digest"),
                RewardKind.valueOf(row.getString("kind")),
                RewardRecord.Status.valueOf(row.getString("status")),
                Sql.instant(row, "settled_at"),
                row.getString("note")));
      }
    }
    return records;
  }

  /**
   * Credited CASH rewards without exactly one matching transfer, and reward transfers without a
   * credited row. The second half joins on {@code r.trade_no = substr(t.key, 8)} (after {@code
   * 'reward:'}), not on an expression of {@code r.trade_no}: the reward's primary key then serves
   * the lookup. With the expression, statistics not yet refreshed after 100,000 fresh rewards made
   * the planner loop over every pair, past the statement timeout.
   */
  private static final String PROBLEMS =
      """
      SELECT 'reward ' || r.trade_no || ': credited but its transfer is missing or differs'
      FROM reward r LEFT JOIN transfer t ON t.key = 'reward:' || r.trade_no
      WHERE r.kind = 'CASH' AND r.status = 'CREDITED'
        AND (t.id IS NULL OR t.amount <> r.amount OR t.credit_account <> 'wallet:' || r.user_id)
      UNION ALL
      SELECT 'transfer ' || t.key || ': a reward paid without a credited reward row'
      FROM transfer t LEFT JOIN reward r
          ON r.trade_no = substr(t.key, 8) AND r.status = 'CREDITED' AND r.kind = 'CASH'
      WHERE t.kind = 'REWARD' AND r.trade_no IS NULL
      LIMIT 1000
      """;

  @Override
  public List<String> problems() {
    return transactions.read(
        "reward problems",
        connection -> {
          var lines = new ArrayList<String>();
          try (PreparedStatement query = connection.prepareStatement(PROBLEMS);
              ResultSet row = query.executeQuery()) {
            while (row.next()) {
              lines.add(row.getString(1));
            }
          }
          return lines;
        });
  }
}
