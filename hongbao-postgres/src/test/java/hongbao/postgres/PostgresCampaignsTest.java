package hongbao.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import hongbao.core.campaign.Campaign;
import hongbao.core.campaign.CampaignStore;
import hongbao.core.campaign.PrizeLine;
import hongbao.core.campaign.Round;
import hongbao.core.ledger.IdempotencyKey;
import hongbao.core.ledger.StoredAnswer;
import hongbao.core.money.Amount;
import hongbao.core.reward.Reward;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PostgresCampaignsTest {

  private static final Instant T0 = Instant.parse("2027-02-16T12:00:00Z");

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
   * A pass over every unreturned campaign pages through them in id order, the returned left out.
   */
  @Test
  void unreturnedAfter_pagesThroughTheUnreturned_inIdOrder() {
    CampaignStore campaigns = db.database.campaigns();
    for (String id : List.of("c_page_c", "c_page_a", "c_page_d", "c_page_b")) {
      campaigns.create(
          campaign(id),
          new IdempotencyKey("op", "POST /api/v1/admin/campaigns", "k-" + id, "h"),
          new StoredAnswer("h", "CREATED", "{}"));
    }
    assertThat(campaigns.returnUnspent("c_page_b", Amount.fen(1_000), T0)).isTrue();

    assertThat(campaigns.unreturnedAfter("c_page", 2)).containsExactly("c_page_a", "c_page_c");
    assertThat(campaigns.unreturnedAfter("c_page_c", 2)).containsExactly("c_page_d");
    assertThat(campaigns.unreturnedAfter("c_page_d", 2)).isEmpty();
  }

  private static Campaign campaign(String id) {
    return new Campaign(
        id,
        "rain",
        Amount.fen(1_000),
        List.of(
            new Round(1, T0, Duration.ofSeconds(60), List.of(new PrizeLine("CASH", 1, 100)), 1)),
        1,
        5,
        T0,
        1);
  }

  /**
   * The closer computes a campaign's return from its budget keys and the cash credited without a
   * trade; a credit of a trade Redis lost can land after that. The escrow then holds less than the
   * return: refused as a retry for the next pass (nothing written), not as a broken invariant that
   * would stop the closer of every campaign.
   */
  @Test
  void aReturnLargerThanTheEscrow_isRefusedUnwritten_andTheRecomputedOneGoesThrough() {
    CampaignStore campaigns = db.database.campaigns();
    campaigns.create(
        campaign("c_short"),
        new IdempotencyKey("op", "POST /api/v1/admin/campaigns", "k-short", "h"),
        new StoredAnswer("h", "CREATED", "{}"));
    var late =
        new Reward("c_short_1_u1_1", "u1", "c_short", "rain", "CASH", Amount.fen(300), "", T0);
    db.database.rewards().creditCash(List.of(late));

    assertThatThrownBy(() -> campaigns.returnUnspent("c_short", Amount.fen(1_000), T0))
        .isInstanceOf(CampaignStore.EscrowShort.class);
    assertThat(campaigns.returned("c_short")).as("nothing written").isEmpty();
    assertThat(db.database.rewards().campaign("c_short").orElseThrow().escrow())
        .isEqualTo(Amount.fen(700));

    assertThat(campaigns.returnUnspent("c_short", Amount.fen(700), T0)).isTrue();
    assertThat(db.database.rewards().campaign("c_short").orElseThrow().escrow())
        .isEqualTo(Amount.ZERO);
  }
}
