package hongbao.app.campaign;

import static hongbao.app.campaign.RainFixture.campaign;
import static hongbao.app.campaign.RainFixture.prize;
import static hongbao.app.campaign.RainFixture.round;
import static org.assertj.core.api.Assertions.assertThat;

import hongbao.core.campaign.Campaign;
import hongbao.core.campaign.TapOutcome;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * A rain's budget covers its prizes, but another sender may pay a reward out of the campaign (the
 * reward API takes any campaign with a budget) and leave the rounds short. A tap that draws a prize
 * the budget can no longer issue is answered MISSED, as a tap answers nothing but its outcomes (it
 * was 402 INSUFFICIENT_FUNDS), and the campaign still closes: the closer skips the win it cannot
 * issue instead of failing on it every pass, and returns what was not reserved. The reconciler
 * names the campaign, whose return falls short of the prizes drawn by those never issued.
 *
 * <p>Its own Redis and schema: the drawn, unissued wins stay in the campaign's pools.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RainSpentBudgetTest extends RainOfItsOwn {

  private static final long PRIZE = 100;
  private static final int PRIZES = 10;
  private static final long BONUS = 500;

  RainSpentBudgetTest() {
    super("rain-spent-budget", Map.of());
  }

  @Test
  void aPrizeTheBudgetCannotIssue_isAMiss_andTheCampaignStillCloses() throws Exception {
    Instant starts = fixture.clock.instant().plusSeconds(10);
    String id =
        fixture.created(
            campaign(PRIZE * PRIZES, PRIZES, 10, round(starts, 60, prize("CASH", PRIZE, PRIZES))));
    Campaign campaign = fixture.rain().campaigns().get(id);
    fixture.othersBonus(id, BONUS);

    fixture.clock.advance(Duration.ofSeconds(10));
    var wins = new ConcurrentHashMap<String, TapOutcome.Won>();
    var perUser = new ConcurrentHashMap<String, AtomicInteger>();
    // Until every prize is drawn: half of them find the budget spent. No tap fails.
    List<String> users = RainFixture.users("spent-", 50);
    for (int pass = 0; pass < 40 && fixture.rain().pools().wins(campaign).size() < PRIZES; pass++) {
      fixture.tap(id, users, 1, wins, perUser);
    }
    assertThat(fixture.rain().pools().wins(campaign)).hasSize(PRIZES);
    assertThat(wins).hasSize((int) ((PRIZE * PRIZES - BONUS) / PRIZE));
    fixture.books.awaitCredited(id, 1 + wins.size(), Duration.ofSeconds(30));

    fixture.pastReturnGrace(campaign);
    assertThat(fixture.awaitReturned(id)).isZero();
    assertThat(fixture.escrow(id)).as("every fen paid out").isZero();
    // The prizes drawn and never issued are what the reconciler names, by their campaign.
    assertThat(fixture.service.hongbao().parts().reconciler().reconcile().discrepancies())
        .singleElement()
        .asString()
        .startsWith("campaign " + id + ": returned 0 fen")
        .endsWith("= -500 fen");
  }
}
