package hongbao.core.campaign;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import hongbao.core.RejectedException;
import hongbao.core.Rejection;
import hongbao.core.Unavailable;
import hongbao.core.money.Amount;
import hongbao.core.reward.RewardBudget;
import java.lang.reflect.Proxy;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/**
 * {@link CampaignCloser#closeOnce} takes the unreturned campaigns oldest end first. A campaign that
 * cannot be closed now (its lost win meets an outage) must not keep the campaigns that ended after
 * it from being returned; a lost win its budget can never issue (refused INSUFFICIENT_FUNDS:
 * another sender's reward took the budget, or a crash while borrowing lost allowance) must not keep
 * its own campaign from closing.
 */
class CampaignCloserTest {

  private static final Instant T0 = Instant.parse("2026-11-29T08:00:00Z");

  private static Campaign campaign(String id, Instant start) {
    Round round =
        new Round(1, start, Duration.ofMinutes(1), List.of(new PrizeLine("CASH", 100, 10)), 1);
    return new Campaign(id, id, Amount.fen(1_000), List.of(round), 1, 10, T0.minusSeconds(3600), 1);
  }

  @SuppressWarnings("unchecked")
  private static <T> T proxy(
      Class<T> type, java.util.function.BiFunction<String, Object[], Object> f) {
    return (T)
        Proxy.newProxyInstance(
            type.getClassLoader(),
            new Class<?>[] {type},
            (p, m, args) -> f.apply(m.getName(), args));
  }

  private final Map<String, Amount> returned = new ConcurrentHashMap<>();

  private CampaignCloser closer(PrizeIssuer issuer) {
    return closer(issuer, Map.of());
  }

  /** As {@link #closer(PrizeIssuer)}, the budget holding {@code trades}. */
  private CampaignCloser closer(PrizeIssuer issuer, Map<String, RewardBudget.Trade> trades) {
    Campaign early = campaign("early", T0);
    Campaign late = campaign("late", T0.plusSeconds(120));
    Map<String, Campaign> byId = Map.of("early", early, "late", late);
    CampaignStore store =
        proxy(
            CampaignStore.class,
            (name, args) ->
                switch (name) {
                  case "unreturned" -> List.of("early", "late"); // ORDER BY ends_at
                  case "find" -> Optional.ofNullable(byId.get((String) args[0]));
                  case "returnUnspent" -> {
                    returned.put((String) args[0], (Amount) args[1]);
                    yield true;
                  }
                  default -> throw new AssertionError("unexpected " + name);
                });
    Clock clock = Clock.fixed(T0.plus(Duration.ofHours(1)), ZoneOffset.UTC);
    Campaigns campaigns = new Campaigns(store, c -> {}, clock, Duration.ofMinutes(1));
    PrizePools pools =
        proxy(
            PrizePools.class,
            (name, args) -> {
              if (!name.equals("wins")) {
                throw new AssertionError("unexpected " + name);
              }
              // "early" recorded a win whose tap died before it was issued.
              return ((Campaign) args[0]).id().equals("early")
                  ? Map.of("early_1_u1_1", new PrizePools.Win(1, 0, "u1"))
                  : Map.of();
            });
    RewardBudget budget =
        proxy(
            RewardBudget.class,
            (name, args) -> {
              if (!name.equals("trades")) {
                throw new AssertionError("unexpected " + name);
              }
              return trades;
            });
    return new CampaignCloser(
        store,
        campaigns,
        pools,
        issuer,
        budget,
        id -> Amount.ZERO,
        id -> List.of(),
        clock,
        Duration.ofSeconds(10));
  }

  @Test
  void aCampaignThatCannotBeClosedNow_doesNotKeepTheOthersFromBeingReturned() {
    var closer =
        closer(
            (campaign, round, userId, tradeNo, prize) -> {
              throw new Unavailable("redis", "down", null);
            });

    for (int pass = 0; pass < 3; pass++) {
      // The pass fails with the campaign that could not be closed, for its loop to report.
      assertThatThrownBy(closer::closeOnce).isInstanceOf(Unavailable.class);
    }

    assertThat(returned)
        .as("'late' ended an hour ago and has nothing to re-issue; 'early' waits")
        .containsOnlyKeys("late");
  }

  @Test
  void aLostWinItsBudgetCannotIssue_doesNotKeepItsCampaignFromClosing() {
    var closer =
        closer(
            (campaign, round, userId, tradeNo, prize) -> {
              throw new RejectedException(
                  Rejection.INSUFFICIENT_FUNDS, "the campaign's budget has 0 fen left");
            });

    assertThat(closer.closeOnce()).isEqualTo(2);
    assertThat(returned).containsOnlyKeys("early", "late");
  }

  /**
   * A win whose send no queue took (every queue failed it while too many events were held; its tap
   * was answered 503, and the tap's retry draws anew) keeps its reservation, marked unqueued: only
   * the closer issues it again. A win whose trade is held as usual is not issued twice.
   */
  @Test
  void aWinWhoseSendNoQueueTook_isIssuedAgain_oneHeldAsUsualIsNot() {
    var issued = new ConcurrentHashMap<String, String>();
    PrizeIssuer issuer =
        (campaign, round, userId, tradeNo, prize) -> {
          issued.put(tradeNo, userId);
          return "token-" + tradeNo;
        };

    closer(issuer, Map.of("early_1_u1_1", new RewardBudget.Trade("digest", Amount.fen(100), 0)))
        .closeOnce();
    assertThat(issued).as("its trade is held: it was issued").isEmpty();

    returned.clear();
    closer(
            issuer,
            Map.of("early_1_u1_1", new RewardBudget.Trade("digest", Amount.fen(100), 0, true)))
        .closeOnce();
    assertThat(issued).containsExactly(Map.entry("early_1_u1_1", "u1"));
  }
}
