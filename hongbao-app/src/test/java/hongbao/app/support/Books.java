package hongbao.app.support;

import static org.awaitility.Awaitility.await;

import hongbao.app.Hongbao;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The service's PostgreSQL as a test reads it beyond the API: counts, balances and stamps straight
 * from the ledger and the reward table, to check the books against what the test did.
 */
public final class Books {

  private final Hongbao service;

  Books(Hongbao service) {
    this.service = service;
  }

  /** The first column of every row the query finds, as longs. */
  public List<Long> column(String sql, Object... args) {
    try (var connection = service.parts().database().dataSource().getConnection();
        var statement = connection.prepareStatement(sql)) {
      for (int i = 0; i < args.length; i++) {
        statement.setObject(i + 1, args[i]);
      }
      var values = new ArrayList<Long>();
      try (var rows = statement.executeQuery()) {
        while (rows.next()) {
          values.add(rows.getLong(1));
        }
      }
      return values;
    } catch (SQLException e) {
      throw new IllegalStateException(sql, e);
    }
  }

  /** Runs statements (a fault's trigger, its removal) and commits them. */
  public void execute(String... statements) {
    try (var connection = service.parts().database().dataSource().getConnection();
        var statement = connection.createStatement()) {
      for (String sql : statements) {
        statement.execute(sql);
      }
      connection.commit(); // the pool's connections do not commit on their own
    } catch (SQLException e) {
      throw new IllegalStateException(String.join("; ", statements), e);
    }
  }

  /** The query's one value: a count, a balance. */
  public long value(String sql, Object... args) {
    List<Long> values = column(sql, args);
    if (values.size() != 1) {
      throw new IllegalStateException(values.size() + " rows, not one, from " + sql);
    }
    return values.getFirst();
  }

  /** Rewards of the campaign credited to their wallets. */
  public long credited(String campaignId) {
    return value(
        "SELECT count(*) FROM reward WHERE campaign_id = ? AND status = 'CREDITED'", campaignId);
  }

  /** Reward rows of the campaign, whatever their status: one per win issued. */
  public long rewards(String campaignId) {
    return value("SELECT count(*) FROM reward WHERE campaign_id = ?", campaignId);
  }

  /** Users of the campaign with more than {@code maxWins} reward rows. */
  public long usersOver(String campaignId, int maxWins) {
    return value(
        "SELECT count(*) FROM (SELECT user_id FROM reward WHERE campaign_id = ?"
            + " GROUP BY user_id HAVING count(*) > ?) AS over",
        campaignId,
        maxWins);
  }

  public void awaitCredited(String campaignId, long expected, Duration patience) {
    await()
        .atMost(patience)
        .pollInterval(Duration.ofMillis(250))
        .until(() -> credited(campaignId) >= expected);
  }

  /** When each of the campaign's rewards was credited (its transfer's commit), in epoch millis. */
  public List<Long> creditMillis(String campaignId) {
    return column(
        "SELECT (extract(epoch FROM created_at) * 1000)::bigint FROM transfer"
            + " WHERE campaign_id = ? AND kind = 'REWARD'",
        campaignId);
  }
}
