package hongbao.core.campaign;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import hongbao.core.RejectedException;
import hongbao.core.Rejection;
import hongbao.core.Unavailable;
import hongbao.core.money.Amount;
import hongbao.core.reward.Reward;
import hongbao.core.reward.RewardBudget;
import hongbao.core.reward.RewardKind;
import hongbao.core.reward.RewardPages;
import hongbao.core.reward.RewardRecord;
import java.lang.reflect.Proxy;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;
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

  /** How many tradeNos each of the closer's questions to the budget named. */
  private final List<Integer> tradesAskedAtOnce = new ArrayList<>();

  private CampaignCloser closer(PrizeIssuer issuer) {
    return closer(issuer, Map.of());
  }

  /** As {@link #closer(PrizeIssuer)}, the budget holding {@code trades}. */
  private CampaignCloser closer(PrizeIssuer issuer, Map<String, RewardBudget.Trade> trades) {
    // "early" recorded a win whose tap died before it was issued.
    return closer(
        issuer, trades, Map.of("early_1_u1_1", new PrizePools.Win(1, 0, "u1")), List.of());
  }

  /**
   * As {@link #closer(PrizeIssuer)}: "early" recorded {@code earlyWins} and its reward book holds
   * {@code earlyRewards}, the budget {@code trades}; "late" has neither.
   */
  private CampaignCloser closer(
      PrizeIssuer issuer,
      Map<String, RewardBudget.Trade> trades,
      Map<String, PrizePools.Win> earlyWins,
      List<RewardRecord> earlyRewards) {
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
              if (!name.equals("forEachWin")) {
                throw new AssertionError("unexpected " + name);
              }
              if (((Campaign) args[0]).id().equals("early")) {
                @SuppressWarnings("unchecked")
                var each = (BiConsumer<String, PrizePools.Win>) args[1];
                earlyWins.forEach(each);
              }
              return null;
            });
    RewardBudget budget =
        proxy(
            RewardBudget.class,
            (name, args) -> {
              if (!name.equals("trades") || args.length != 2) {
                throw new AssertionError("unexpected " + name);
              }
              var asked = (Collection<?>) args[1];
              tradesAskedAtOnce.add(asked.size());
              var found = new HashMap<String, RewardBudget.Trade>(trades);
              found.keySet().retainAll(asked);
              return found;
            });
    List<RewardRecord> book =
        earlyRewards.stream()
            .sorted(Comparator.comparing((RewardRecord r) -> r.reward().tradeNo()))
            .toList();
    RewardPages pages =
        (id, after, limit) ->
            id.equals("early")
                ? book.stream()
                    .filter(r -> after == null || r.reward().tradeNo().compareTo(after) > 0)
                    .limit(limit)
                    .toList()
                : List.of();
    return new CampaignCloser(
        store,
        campaigns,
        pools,
        issuer,
        budget,
        id -> Amount.ZERO,
        pages,
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

  /**
   * A rain may record millions of wins and rewards: the closer reads them a page at a time and asks
   * the budget only for one page's trades, yet issues every lost win and counts every credit whose
   * trade the budget lost, across the pages.
   */
  @Test
  void aCampaignOfManyPages_isClosedAPageAtATime_missingNothingAcrossThem() {
    var wins = new HashMap<String, PrizePools.Win>();
    var trades = new HashMap<String, RewardBudget.Trade>();
    var rewards = new ArrayList<RewardRecord>();
    var lost = new HashSet<String>();
    for (int n = 0; n < 2 * CampaignCloser.PAGE + 500; n++) {
      String tradeNo = "early_1_u" + n + "_1";
      wins.put(tradeNo, new PrizePools.Win(1, 0, "u" + n));
      if (n % 2 == 0) {
        trades.put(tradeNo, new RewardBudget.Trade("digest", Amount.fen(1), 0));
      } else {
        lost.add(tradeNo);
      }
    }
    // Credits of 1 fen each: every third one's trade lost (opened again empty after a loss).
    int creditedWithoutTrade = 0;
    for (int n = 0; n < CampaignCloser.PAGE + 700; n++) {
      String tradeNo = "early_credited_" + n;
      rewards.add(credited(tradeNo, "u" + n));
      if (n % 3 == 0) {
        creditedWithoutTrade++;
      } else {
        trades.put(tradeNo, new RewardBudget.Trade("digest", Amount.fen(1), 0));
      }
    }
    var issued = ConcurrentHashMap.<String>newKeySet();
    PrizeIssuer issuer =
        (campaign, round, userId, tradeNo, prize) -> {
          issued.add(tradeNo);
          return "token-" + tradeNo;
        };

    assertThat(closer(issuer, trades, wins, rewards).closeOnce()).isEqualTo(2);

    assertThat(issued).as("every win without a trade, on every page").isEqualTo(lost);
    assertThat(returned.get("early"))
        .as("the budget less nothing reserved and each credit without a trade")
        .isEqualTo(Amount.fen(1_000 - creditedWithoutTrade));
    assertThat(tradesAskedAtOnce).isNotEmpty().allMatch(size -> size <= CampaignCloser.PAGE);
  }

  private static RewardRecord credited(String tradeNo, String userId) {
    var reward =
        new Reward(
            tradeNo, userId, "early", "rain", "CASH", Amount.fen(1), "prize", T0.plusSeconds(30));
    return new RewardRecord(
        reward,
        reward.digest(),
        RewardKind.CASH,
        RewardRecord.Status.CREDITED,
        T0.plusSeconds(31),
        null);
  }
}
