package hongbao.app.campaign;

import static hongbao.app.campaign.RainFixture.campaign;
import static hongbao.app.campaign.RainFixture.prize;
import static hongbao.app.campaign.RainFixture.round;
import static org.assertj.core.api.Assertions.assertThat;

import hongbao.core.campaign.Campaign;
import hongbao.core.campaign.TapOutcome;
import hongbao.core.campaign.TradeNos;
import hongbao.sdk.Activity;
import hongbao.sdk.Bonus;
import hongbao.sdk.User;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * A rain's win tradeNos are its own ({@code <campaign>_<round>_<user>_<n>}); the reward route
 * refuses them, but the reward SDK inside a calling service takes any tradeNo for any campaign, and
 * a tradeNo is global: another campaign may hold one first. The win drawn under it can never be
 * issued, so the tap answers MISSED (a tap answers nothing but its outcomes), the campaign still
 * closes, returning what it did not reserve, and the reconciler names it: its return is more than
 * the budget less the CASH won, by the prizes drawn and never issued.
 *
 * <p>Its own Redis and schema: the drawn, unissued wins stay in the campaign's pools.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RainClaimedTradeNoTest extends RainOfItsOwn {

  private static final long PRIZE = 100;
  private static final int PRIZES = 10;
  private static final int USERS = 40;

  RainClaimedTradeNoTest() {
    super("rain-claimed-trade-no", Map.of());
  }

  @Test
  void aWinWhoseTradeNoAnotherCampaignHolds_isAMiss_andTheCampaignStillCloses() throws Exception {
    Instant starts = fixture.clock.instant().plusSeconds(10);
    String id =
        fixture.created(
            campaign(PRIZE * PRIZES, 1, 10, round(starts, 60, prize("CASH", PRIZE, PRIZES))));
    Campaign campaign = fixture.rain().campaigns().get(id);
    List<String> users = RainFixture.users("claimed-", USERS);
    // Every user but the last has the tradeNo of a first win taken by another campaign.
    String elsewhere = "elsewhere-" + id;
    fixture.openedRewardCampaign(elsewhere, 1_000);
    Set<String> claimed =
        users.subList(0, USERS - 1).stream()
            .map(user -> TradeNos.of(id, 1, user, 1))
            .collect(Collectors.toSet());
    // Through the SDK: the reward route refuses a rain's win form (RainForeignRewardTest).
    for (String tradeNo : claimed) {
      fixture
          .service
          .hongbao()
          .rewards()
          .sdk()
          .sendBonus(
              new Activity(elsewhere, "elsewhere"),
              new User("someone-else"),
              new Bonus(tradeNo, "CASH", 1, "first"));
    }
    fixture.books.awaitCredited(elsewhere, claimed.size(), Duration.ofSeconds(30));

    fixture.clock.advance(Duration.ofSeconds(10));
    var wins = new ConcurrentHashMap<String, TapOutcome.Won>();
    var perUser = new ConcurrentHashMap<String, AtomicInteger>();
    // Until every prize is drawn; no tap fails.
    for (int pass = 0; pass < 40 && fixture.rain().pools().wins(campaign).size() < PRIZES; pass++) {
      fixture.tap(id, users, 1, wins, perUser);
    }
    Set<String> drawn = fixture.rain().pools().wins(campaign).keySet();
    assertThat(drawn).hasSize(PRIZES);
    assertThat(wins.keySet())
        .as("issued: only an unclaimed tradeNo")
        .doesNotContainAnyElementsOf(claimed);
    Set<String> lost = drawn.stream().filter(t -> !wins.containsKey(t)).collect(Collectors.toSet());
    assertThat(claimed).as("drawn, never issued: the claimed ones").containsAll(lost);
    assertThat(lost).hasSizeGreaterThanOrEqualTo(PRIZES - 1);
    fixture.books.awaitCredited(id, wins.size(), Duration.ofSeconds(30));

    fixture.pastReturnGrace(campaign);
    long shortBy = lost.size() * PRIZE;
    assertThat(fixture.awaitReturned(id)).isEqualTo(shortBy);
    assertThat(fixture.escrow(id)).as("every fen paid out or returned").isZero();
    assertThat(fixture.service.hongbao().parts().reconciler().reconcile().discrepancies())
        .singleElement()
        .asString()
        .startsWith("campaign " + id + ": returned " + shortBy + " fen")
        .endsWith("= 0 fen");
  }
}
