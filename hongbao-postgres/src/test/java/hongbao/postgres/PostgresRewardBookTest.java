package hongbao.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import hongbao.core.reward.RewardKind;
import hongbao.core.reward.RewardRecord;
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
}
