package hongbao.app.campaign;

import static hongbao.app.campaign.RainFixture.campaign;
import static hongbao.app.campaign.RainFixture.prize;
import static hongbao.app.campaign.RainFixture.round;
import static org.assertj.core.api.Assertions.assertThat;

import hongbao.core.campaign.Campaign;
import hongbao.core.campaign.PrizePools;
import hongbao.core.campaign.Round;
import hongbao.core.campaign.SubPools;
import hongbao.core.campaign.TapOutcome;
import hongbao.core.campaign.TradeNos;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * A tap dies at the two points rain.md says it may, played by calling the home script and the tail
 * draw without what the tap does next:
 *
 * <ul>
 *   <li>after its draw and before the issue: the win is recorded in the pools but the reward budget
 *       has no trade for it. Nothing on the tap path looks at it again; the closer issues it once
 *       the campaign ended, before it closes the budget, and it is credited once.
 *   <li>after the home script reserved a win for the tail and before the tail drew or released it:
 *       the user's win counter stays one too high. The user wins one prize fewer, never one more,
 *       the win number is skipped, and no prize or budget moves.
 * </ul>
 *
 * Each campaign has a first round of one sub-pool and a second of two, so half of the homes have no
 * sub-pool in the first round and every draw of their users there goes through the tail. The clock
 * stands in the first round's last second, where every tap draws.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RainCrashTest {

  private static final int MAX_WINS = 2;
  private static final long BUDGET = 10_000;
  private static final long CASH = 100;

  /** Two sub-pools: the second round makes the campaign's homes two. */
  private static final long SECOND_ROUND_PRIZES = 6_251;

  private RainFixture fixture;

  @BeforeAll
  void start() {
    fixture = new RainFixture();
  }

  @AfterAll
  void stop() {
    if (fixture != null) {
      fixture.close();
    }
  }

  @AfterEach
  void reconciled() {
    fixture.service.assertReconciled();
  }

  @Test
  void aTapThatDiedBetweenDrawAndIssue_isIssuedByTheCloser_andCreditedOnce() {
    long prizes = 10;
    Rain rain = startRain(prizes);
    String home = rain.user("draw-home-", 0);
    String tail = rain.user("draw-tail-", 1);
    var pools = fixture.rain().pools();
    long now = fixture.clock.millis();

    // Died after the home script took and recorded its prize.
    String homePrefix = TradeNos.prefix(rain.id(), 1, home);
    assertThat(pools.tap(rain.campaign(), rain.first(), home, homePrefix, now, true, 0.5))
        .isEqualTo(new PrizePools.HomeReply.Won(0, 1));
    // Died after the tail took and recorded its prize in the other slot.
    String tailPrefix = TradeNos.prefix(rain.id(), 1, tail);
    assertThat(pools.tap(rain.campaign(), rain.first(), tail, tailPrefix, now, true, 0.5))
        .isEqualTo(new PrizePools.HomeReply.Reserved(1));
    assertThat(
            pools.drawAt(rain.campaign(), rain.first(), 0, tailPrefix + 1, tail, now / 1_000, 0.5))
        .isZero();
    Set<String> died = Set.of(homePrefix + 1, tailPrefix + 1);
    assertThat(pools.wins(rain.campaign())).containsOnlyKeys(died);
    assertThat(trades(rain.id())).as("never issued").isEmpty();
    assertThat(fixture.rain().repair().repairAll()).as("nothing the book holds is lost").isZero();

    // The round goes on: the dead taps' wins count against the limit and the round's prizes.
    var taps = fixture.rain().taps();
    assertThat(won(taps.tap(rain.id(), home))).isEqualTo(homePrefix + 2);
    assertThat(won(taps.tap(rain.id(), tail))).isEqualTo(tailPrefix + 2);
    assertThat(taps.tap(rain.id(), home)).isEqualTo(TapOutcome.LIMIT_REACHED);
    assertThat(taps.tap(rain.id(), tail)).isEqualTo(TapOutcome.LIMIT_REACHED);
    var issued = new ArrayList<String>(List.of(homePrefix + 2, tailPrefix + 2));
    for (int u = 0; u < prizes - 4; u++) {
      issued.add(won(taps.tap(rain.id(), "draw-other-" + u)));
    }
    assertThat(taps.tap(rain.id(), "draw-late")).isEqualTo(TapOutcome.MISSED);
    assertThat(prizesLeft(rain)).isZero();
    assertThat(pools.wins(rain.campaign())).hasSize((int) prizes);
    fixture.books.awaitCredited(rain.id(), prizes - 2, Duration.ofSeconds(30));
    assertThat(trades(rain.id())).containsExactlyInAnyOrderElementsOf(issued);
    for (String tradeNo : died) {
      assertThat(rewardRows(tradeNo)).as("not credited before the closer").isZero();
    }

    fixture.clock.advance(Duration.between(fixture.clock.instant(), rain.closes()));
    assertThat(fixture.awaitReturned(rain.id())).isEqualTo(BUDGET - prizes * CASH);
    fixture.books.awaitCredited(rain.id(), prizes, Duration.ofSeconds(30));
    assertThat(trades(rain.id())).isEqualTo(pools.wins(rain.campaign()).keySet());
    for (String tradeNo : died) {
      assertThat(rewardRows(tradeNo)).as("credited once: " + tradeNo).isEqualTo(1);
      assertThat(
              fixture.books.value(
                  "SELECT count(*) FROM transfer WHERE key = ?", "reward:" + tradeNo))
          .as("one transfer: " + tradeNo)
          .isEqualTo(1);
    }
    assertBooks(rain.id(), prizes);
  }

  @Test
  void aTapThatDiedBetweenReserveAndRelease_costsItsUserOneWin_andNothingElse() {
    long prizes = 4;
    Rain rain = startRain(prizes);
    String died = rain.user("reserve-died-", 1);
    String other = rain.user("reserve-other-", 1);
    var pools = fixture.rain().pools();

    String prefix = TradeNos.prefix(rain.id(), 1, died);
    assertThat(
            pools.tap(
                rain.campaign(), rain.first(), died, prefix, fixture.clock.millis(), true, 0.5))
        .isEqualTo(new PrizePools.HomeReply.Reserved(1));
    assertThat(prizesLeft(rain)).as("a reservation takes no prize").isEqualTo(prizes);
    assertThat(pools.wins(rain.campaign())).isEmpty();
    assertThat(fixture.rain().repair().repairAll()).isZero();

    var taps = fixture.rain().taps();
    assertThat(won(taps.tap(rain.id(), died))).as("n = 1 skipped").isEqualTo(prefix + 2);
    assertThat(taps.tap(rain.id(), died))
        .as("the counter one too high: one win fewer than the limit")
        .isEqualTo(TapOutcome.LIMIT_REACHED);
    String otherPrefix = TradeNos.prefix(rain.id(), 1, other);
    assertThat(won(taps.tap(rain.id(), other))).isEqualTo(otherPrefix + 1);
    assertThat(won(taps.tap(rain.id(), other))).isEqualTo(otherPrefix + 2);
    assertThat(taps.tap(rain.id(), other)).isEqualTo(TapOutcome.LIMIT_REACHED);
    String last = won(taps.tap(rain.id(), "reserve-last"));
    assertThat(taps.tap(rain.id(), "reserve-late")).isEqualTo(TapOutcome.MISSED);
    assertThat(prizesLeft(rain)).isZero();
    assertThat(pools.wins(rain.campaign()))
        .containsOnlyKeys(prefix + 2, otherPrefix + 1, otherPrefix + 2, last);

    fixture.clock.advance(Duration.between(fixture.clock.instant(), rain.closes()));
    assertThat(fixture.awaitReturned(rain.id())).isEqualTo(BUDGET - prizes * CASH);
    fixture.books.awaitCredited(rain.id(), prizes, Duration.ofSeconds(30));
    assertThat(trades(rain.id())).isEqualTo(pools.wins(rain.campaign()).keySet());
    assertThat(rewardRows(prefix + 1)).as("the skipped number issued nowhere").isZero();
    assertBooks(rain.id(), prizes);
  }

  /** A created campaign: its first round of {@code prizes} CASH, and its clock where all draw. */
  private record Rain(String id, Campaign campaign, Instant closes) {
    Round first() {
      return campaign.round(1);
    }

    /** The first user {@code prefix<u>} whose home is {@code home}. */
    String user(String prefix, int home) {
      for (int u = 0; u < 1_000; u++) {
        if (SubPools.home(prefix + u, campaign.homePools()) == home) {
          return prefix + u;
        }
      }
      throw new AssertionError("no user of home " + home);
    }
  }

  private Rain startRain(long prizes) {
    Instant first = fixture.clock.instant().plusSeconds(10);
    Instant second = first.plusSeconds(60);
    String id =
        fixture.created(
            campaign(
                BUDGET,
                MAX_WINS,
                10,
                round(first, 60, prize("CASH", CASH, prizes)),
                round(second, 1, prize("VOUCHER", 1, SECOND_ROUND_PRIZES))));
    Campaign campaign = fixture.rain().campaigns().get(id);
    assertThat(campaign.homePools()).isEqualTo(2);
    assertThat(campaign.round(1).subPools()).isEqualTo(1);
    fixture.clock.advance(Duration.between(fixture.clock.instant(), first.plusMillis(59_500)));
    Instant closes = campaign.endsAt().plus(CampaignWiring.RETURN_GRACE).plusSeconds(1);
    return new Rain(id, campaign, closes);
  }

  /** Every win credited once, nobody over the limit, the CASH exactly the prizes', escrow empty. */
  private void assertBooks(String id, long prizes) {
    assertThat(fixture.books.rewards(id)).as("each win credited once").isEqualTo(prizes);
    assertThat(fixture.books.usersOver(id, MAX_WINS))
        .as("users over the limit in the book")
        .isZero();
    assertThat(
            fixture.books.value(
                "SELECT count(*) FROM transfer WHERE kind = 'REWARD' AND campaign_id = ?", id))
        .isEqualTo(prizes);
    assertThat(
            fixture.books.value(
                "SELECT coalesce(sum(amount), 0) FROM transfer WHERE kind = 'REWARD'"
                    + " AND campaign_id = ?",
                id))
        .isEqualTo(prizes * CASH);
    assertThat(fixture.escrow(id)).isZero();
    assertThat(fixture.returnTransfers(id)).isEqualTo(1);
  }

  private static String won(TapOutcome outcome) {
    assertThat(outcome).isInstanceOf(TapOutcome.Won.class);
    return ((TapOutcome.Won) outcome).tradeNo();
  }

  private long prizesLeft(Rain rain) {
    return fixture.rain().service().view(rain.id()).rounds().getFirst().prizesLeft();
  }

  private long rewardRows(String tradeNo) {
    return fixture.books.value("SELECT count(*) FROM reward WHERE trade_no = ?", tradeNo);
  }

  /** The tradeNos the reward budget in Redis holds for the campaign. */
  private Set<String> trades(String id) {
    return Set.copyOf(
        fixture.service.hongbao().rewards().sdk().parts().budget().trades(id).keySet());
  }
}
