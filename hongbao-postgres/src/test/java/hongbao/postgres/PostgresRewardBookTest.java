package hongbao.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import hongbao.core.money.Amount;
import hongbao.core.reward.Reward;
import hongbao.core.reward.RewardBook.Credit;
import hongbao.core.reward.RewardKind;
import hongbao.core.reward.RewardRecord;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PostgresRewardBookTest {

  private TestSchema db;

  @BeforeAll
  void open() {
    db = TestDatabase.freshSchema();
  }

  @AfterAll
  void close() {
    db.close();
  }

  /**
   * The reconciler sums a campaign's rewards from this read: capped at the listing limit, as it
   * was, the rewards past it looked uncredited and their cash missing.
   */
  @Test
  void byCampaign_readsEveryReward_pastTheListingLimit() {
    int rows = PostgresRewardBook.LIST_MAX + PostgresRewardBook.CAMPAIGN_FETCH / 2;
    TestDatabase.execute(
        db.database,
        "INSERT INTO reward (trade_no, digest, user_id, campaign_id, scene, type, kind, amount,"
            + " descr, awarded_at, status)"
            + " SELECT 'big_' || n, 'd', 'u' || n, 'big', 's', 'CASH', 'CASH', 1, '', now(),"
            + " 'CREDITED' FROM generate_series(1, "
            + rows
            + ") AS n");
    TestDatabase.execute(
        db.database,
        "INSERT INTO reward (trade_no, digest, user_id, campaign_id, scene, type, kind, amount,"
            + " descr, awarded_at, status)"
            + " VALUES ('other_1', 'd', 'u1', 'other', 's', 'CASH', 'CASH', 7, '', now(),"
            + " 'CREDITED')");

    List<RewardRecord> big = db.database.rewards().byCampaign("big");

    assertThat(big).hasSize(rows);
    assertThat(big.stream().mapToLong(r -> r.amount().fen()).sum()).isEqualTo(rows);
    assertThat(big)
        .allMatch(r -> r.kind() == RewardKind.CASH && r.reward().campaignId().equals("big"));
    assertThat(big.stream().map(r -> r.reward().tradeNo()).distinct().count()).isEqualTo(rows);
    assertThat(db.database.rewards().byCampaign("other")).hasSize(1);
  }

  /**
   * The closer reads a campaign's rewards a page at a time: the pages, each started after the last
   * tradeNo of the one before, hold every reward of the campaign once and no other's; the index on
   * (campaign, tradeNo) reads a page without sorting the campaign.
   */
  @Test
  void byCampaignPages_holdEveryRewardOnce_throughTheCampaignsTradeNoIndex() throws SQLException {
    TestDatabase.execute(
        db.database,
        "INSERT INTO reward (trade_no, digest, user_id, campaign_id, scene, type, kind, amount,"
            + " descr, awarded_at, status)"
            + " SELECT 'paged_' || n, 'd', 'u' || n, 'paged', 's', 'CASH', 'CASH', n, '', now(),"
            + " 'CREDITED' FROM generate_series(1, 2500) AS n"
            + " UNION ALL SELECT 'pagef_' || n, 'd', 'u' || n, 'pagef', 's', 'CASH', 'CASH', 1, '',"
            + " now(), 'CREDITED' FROM generate_series(1, 10) AS n");
    var book = db.database.rewards();

    var seen = new java.util.ArrayList<String>();
    long fen = 0;
    int pages = 0;
    String after = null;
    while (true) {
      List<RewardRecord> page = book.byCampaign("paged", after, 1_000);
      pages++;
      assertThat(page).hasSizeLessThanOrEqualTo(1_000);
      for (RewardRecord record : page) {
        assertThat(record.reward().campaignId()).isEqualTo("paged");
        seen.add(record.reward().tradeNo());
        fen += record.amount().fen();
      }
      if (page.size() < 1_000) {
        break;
      }
      after = page.getLast().reward().tradeNo();
    }

    assertThat(pages).isEqualTo(3);
    assertThat(seen).hasSize(2_500).doesNotHaveDuplicates().isSorted();
    assertThat(fen).isEqualTo(2_500L * 2_501 / 2);
    assertThat(book.byCampaign("paged", "paged_2499", 2))
        .extracting(r -> r.reward().tradeNo())
        .as("after a tradeNo, in the book's order of tradeNos")
        .containsExactly("paged_25", "paged_250");
    assertThat(plan(PostgresRewardBook.CAMPAIGN_PAGE, "paged", "paged_1", "1000"))
        .as("the generic plan, made without the parameters' values")
        .contains("$1")
        .contains("reward_by_campaign_trade")
        .doesNotContain("Sort");
  }

  /**
   * The generic plan of {@code sql} (the one a prepared statement may settle on whatever its
   * parameters), with sequential scans priced out: which index serves the query, if any. The
   * statement's {@code ?} become {@code $1..$n} for PREPARE.
   */
  private String plan(String sql, String... parameters) throws SQLException {
    var numbered = new StringBuilder();
    int n = 0;
    for (char c : sql.toCharArray()) {
      numbered.append(c == '?' ? "$" + ++n : String.valueOf(c));
    }
    try (Connection connection = db.database.dataSource().getConnection();
        Statement statement = connection.createStatement()) {
      statement.execute("ANALYZE reward");
      statement.execute("SET enable_seqscan = off");
      statement.execute("SET plan_cache_mode = force_generic_plan");
      statement.execute("PREPARE page AS " + numbered);
      var lines = new java.util.ArrayList<String>();
      try (ResultSet rows =
          statement.executeQuery(
              "EXPLAIN EXECUTE page('" + String.join("', '", parameters) + "')")) {
        while (rows.next()) {
          lines.add(rows.getString(1));
        }
      } finally {
        statement.execute("DEALLOCATE page");
        connection.rollback();
      }
      return String.join("\n", lines);
    }
  }

  /** The budget gauges' list: campaigns with money left in their escrow, read without sums. */
  @Test
  void fundedCampaigns_areThoseWhoseEscrowStillHoldsMoney() {
    var book = db.database.rewards();
    book.openCampaign("funded_a", Amount.fen(500));
    book.openCampaign("funded_b", Amount.fen(300));
    assertThat(book.creditCash(List.of(cash("funded_b_1", "funded_b", 300))))
        .containsExactly(Credit.DONE);

    assertThat(book.fundedCampaigns()).contains("funded_a").doesNotContain("funded_b");
  }

  private static Reward cash(String tradeNo, String campaign, long fen) {
    return new Reward(
        tradeNo, "u_" + tradeNo, campaign, "s", "CASH", Amount.fen(fen), "", Instant.EPOCH);
  }

  /**
   * The budget's reservations keep CASH within the escrow, unless Redis lost some of them. Then an
   * escrow can hold less than a reward: that reward is refused, nothing of it written, and the
   * others of its batch (its own campaign's that fit, other campaigns') are credited.
   */
  @Test
  void aRewardItsEscrowCannotPay_isUnpayable_writesNothing_andTheRestOfItsBatchIsCredited() {
    var book = db.database.rewards();
    book.openCampaign("short", Amount.fen(500));
    book.openCampaign("ample", Amount.fen(500));
    assertThat(book.creditCash(List.of(cash("short_1", "short", 400))))
        .containsExactly(Credit.DONE);

    Reward over = cash("short_2", "short", 200);
    List<Credit> answers =
        book.creditCash(
            List.of(over, cash("short_3", "short", 100), cash("ample_1", "ample", 300)));

    assertThat(answers).containsExactly(Credit.UNPAYABLE, Credit.DONE, Credit.DONE);
    assertThat(book.find("short_2")).isEmpty();
    assertThat(book.campaign("short").orElseThrow().escrow()).isEqualTo(Amount.ZERO);
    assertThat(book.campaign("short").orElseThrow().credited()).isEqualTo(Amount.fen(500));
    assertThat(book.campaign("ample").orElseThrow().escrow()).isEqualTo(Amount.fen(200));
    assertThat(book.creditCash(over, over.digest())).isEqualTo(Credit.UNPAYABLE);
    assertThat(book.find("short_2")).isEmpty();
  }
}
