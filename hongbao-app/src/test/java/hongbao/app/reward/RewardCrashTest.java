package hongbao.app.reward;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import hongbao.app.support.DeadQueues;
import hongbao.core.money.Amount;
import hongbao.core.reward.RewardBook;
import hongbao.core.reward.RewardBudget;
import hongbao.crypto.Sealer;
import hongbao.redis.LuaScript;
import hongbao.sdk.Activity;
import hongbao.sdk.Bonus;
import hongbao.sdk.BonusReceipt;
import hongbao.sdk.RewardSdk;
import hongbao.sdk.User;
import io.lettuce.core.ScriptOutputType;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Two crashes rewards.md says the reward pipeline survives, each injected into the real service:
 *
 * <ul>
 *   <li>a borrower that dies between {@code budget_lend.lua} and {@code budget_grant.lua}: the
 *       allowance it took is lost to the campaign, never spent, and nothing else changes;
 *   <li>an SDK whose process dies while it holds events no queue would take: the rewards it
 *       accepted are reported as stuck once older than {@code HONGBAO_REWARD_STUCK_AFTER_SECONDS},
 *       each still holding the budget it reserved.
 * </ul>
 *
 * <p>Stuck rewards stay in the budget's trades (Redis) and their campaign in the reward book, so
 * every later reconciliation on these backends would report them: this class has a Redis and a
 * schema of its own, and the lost allowance, which the reconciler must not report, runs first.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RewardCrashTest {

  private static final long CASH_FEN = 100;

  /** Past it, an accepted reward that is neither credited nor failed is a discrepancy. */
  private static final Duration STUCK_AFTER = Duration.ofSeconds(1);

  private static final LuaScript LEND = LuaScript.fromResource("budget_lend.lua");

  private final Sealer keyset = Sealer.generate();
  private RewardFixture fixture;

  @BeforeAll
  void start() {
    try {
      fixture =
          RewardFixture.onItsOwn(
              "reward-crash",
              Map.of(
                  "HONGBAO_REWARD_STUCK_AFTER_SECONDS",
                  Long.toString(STUCK_AFTER.toSeconds()),
                  "HONGBAO_REWARD_KEYSET",
                  keyset.keysetJson()));
      fixture.putType(
          "CASH",
          JsonObject.of("kind", "CASH", "ratePerSecond", 1_000, "burst", 100, "queue", "MASSIVE"));
    } catch (RuntimeException | Error e) {
      stop();
      throw e;
    }
  }

  @AfterAll
  void stop() {
    if (fixture != null) {
      fixture.close();
    }
  }

  @Test
  @Order(1)
  void borrowerDiesBetweenLendAndGrant_allowanceLost_neverSpent_reconcilerFindsNothing() {
    String campaign = "lent";
    long budgetFen = 1_000;
    long lostFen = 100;
    fixture.openCampaign(campaign, budgetFen);
    RewardSdk.Parts parts = fixture.rewards().sdk().parts();
    int keys = 8;
    assertThat(parts.redis().sync().hget(parts.keys().campaigns(), campaign))
        .isEqualTo(budgetFen + "|" + keys);

    // The first half of a borrow, as RedisRewardBudget runs it, and then the borrower is gone.
    Long lent =
        LEND.run(
            parts.redis(),
            ScriptOutputType.INTEGER,
            new String[] {parts.keys().budget(campaign, 3)},
            Long.toString(lostFen));
    assertThat(lent).isEqualTo(lostFen);

    RewardBudget budget = parts.budget();
    assertThat(budget.state(campaign))
        .isEqualTo(
            new RewardBudget.BudgetState(
                Amount.fen(budgetFen), Amount.ZERO, Amount.fen(budgetFen - lostFen), true));
    assertThat(lentMinusBorrowed(parts, campaign, keys)).isEqualTo(lostFen);

    // Never more is spent: the rewards that fit the allowance left are accepted, the next refused.
    var accepted = new ArrayList<String>();
    int fitting = (int) ((budgetFen - lostFen) / CASH_FEN);
    for (int i = 0; i <= fitting; i++) {
      String tradeNo = "lent_" + i;
      var answer = fixture.sendOverHttp(cash(tradeNo, "lent-user-" + i, campaign), null);
      if (i < fitting) {
        assertThat(answer.status()).as(answer.raw()).isEqualTo(202);
        accepted.add(tradeNo);
      } else {
        assertThat(answer.status()).as("beyond the allowance left: %s", answer).isEqualTo(402);
      }
    }
    fixture.awaitAllCredited(accepted, Duration.ofSeconds(30));

    RewardBudget.BudgetState state = budget.state(campaign);
    assertThat(state.reserved()).isEqualTo(Amount.fen(budgetFen - lostFen));
    assertThat(state.allowance()).isEqualTo(Amount.fen(budgetFen - lostFen));
    assertThat(lentMinusBorrowed(parts, campaign, keys)).isEqualTo(lostFen);
    RewardBook.CampaignBooks books = books(campaign);
    assertThat(books.credited()).isEqualTo(Amount.fen(budgetFen - lostFen));
    assertThat(books.escrow()).as("the lost allowance's cash").isEqualTo(Amount.fen(lostFen));

    var answer = fixture.api.get("/api/v1/admin/reconciliation", fixture.admin);
    assertThat(answer.status()).as(answer.raw()).isEqualTo(200);
    assertThat(answer.json().getJsonArray("discrepancies")).as(answer.raw()).isEmpty();
  }

  @Test
  @Order(2)
  void sdkDiesHoldingEvents_theRewardsItAccepted_areReportedStuck_withTheirBudgetReserved()
      throws Exception {
    String campaign = "stuck";
    long budgetFen = 10_000;
    fixture.openCampaign(campaign, budgetFen);
    // Users whose events try Kafka first: an event held after both refused is retried on Redis
    // next, which refuses at once, so closing the SDK at the end costs no Kafka timeout.
    List<String> users =
        IntStream.range(0, 100)
            .mapToObj(i -> "stuck-user-" + i)
            .filter(DeadQueues::kafkaFirst)
            .limit(3)
            .toList();
    List<String> stuck = users.stream().map(user -> "stuck_" + user).toList();

    try (RewardSdk sdk = DeadQueues.sdk(fixture.redisUrl(), keyset)) {
      var receipts = new ArrayList<BonusReceipt>();
      try (var callers = Executors.newVirtualThreadPerTaskExecutor()) {
        // Each send waits out Kafka's metadata timeout (2 s): at once, they wait it out together.
        var sent = new ArrayList<Future<BonusReceipt>>();
        for (String user : users) {
          sent.add(
              callers.submit(
                  () ->
                      sdk.sendBonus(
                          new Activity(campaign, "crash"),
                          new User(user),
                          new Bonus("stuck_" + user, "CASH", CASH_FEN, "never delivered"))));
        }
        for (Future<BonusReceipt> receipt : sent) {
          receipts.add(receipt.get());
        }
      }
      assertThat(receipts)
          .allSatisfy(r -> assertThat(r.status()).isEqualTo(BonusReceipt.Status.ACCEPTED))
          .allSatisfy(r -> assertThat(r.token()).isNotBlank());
      assertThat(sdk.held()).as("no queue took them").isEqualTo(stuck.size());
      // The process dies here: its retrier never runs again, its memory is gone. (The object is
      // closed after the reconciliation, its queues still refusing.)

      RewardBudget budget = fixture.rewards().sdk().parts().budget();
      Map<String, RewardBudget.Trade> trades = budget.trades(campaign);
      assertThat(trades.keySet()).containsExactlyInAnyOrderElementsOf(stuck);
      long lastAccepted =
          trades.values().stream()
              .mapToLong(RewardBudget.Trade::acceptedAtMillis)
              .max()
              .orElseThrow();
      await()
          .atMost(STUCK_AFTER.plusSeconds(5))
          .pollInterval(Duration.ofMillis(100))
          .until(() -> System.currentTimeMillis() > lastAccepted + STUCK_AFTER.toMillis() + 500);

      // Their budget stays reserved (rewards.md: reserved = the accepted trades' costs), their
      // cash in the escrow.
      long reservedFen = stuck.size() * CASH_FEN;
      RewardBudget.BudgetState state = budget.state(campaign);
      assertThat(state.reserved()).isEqualTo(Amount.fen(reservedFen));
      assertThat(state.left()).isEqualTo(Amount.fen(budgetFen - reservedFen));
      RewardBook.CampaignBooks books = books(campaign);
      assertThat(books.credited()).isEqualTo(Amount.ZERO);
      assertThat(books.escrow()).isEqualTo(Amount.fen(budgetFen));
      assertThat(stuck).noneMatch(fixture::isCredited);

      var answer = fixture.api.get("/api/v1/admin/reconciliation", fixture.admin);
      assertThat(answer.status()).as(answer.raw()).isEqualTo(200);
      assertThat(answer.json().getBoolean("ok")).as(answer.raw()).isFalse();
      List<String> lines =
          answer.json().getJsonArray("discrepancies").stream().map(String.class::cast).toList();
      assertThat(lines)
          .as(answer.raw())
          .allSatisfy(line -> assertThat(line).contains("neither credited nor failed"));
      assertThat(lines.stream().map(line -> namedIn(line, stuck)))
          .as(answer.raw())
          .containsExactlyInAnyOrderElementsOf(stuck);
    }
  }

  private static JsonObject cash(String tradeNo, String user, String campaign) {
    return JsonObject.of(
        "tradeNo", tradeNo,
        "userId", user,
        "campaignId", campaign,
        "scene", "crash",
        "type", "CASH",
        "amount", CASH_FEN,
        "desc", "crash drill");
  }

  /** What the budget keys say was lent and never granted: lent − borrowed over every key. */
  private static long lentMinusBorrowed(RewardSdk.Parts parts, String campaign, int keys) {
    long sum = 0;
    for (int k = 0; k < keys; k++) {
      var values = parts.redis().sync().hmget(parts.keys().budget(campaign, k), "lent", "borrowed");
      sum += Long.parseLong(values.get(0).getValue()) - Long.parseLong(values.get(1).getValue());
    }
    return sum;
  }

  private RewardBook.CampaignBooks books(String campaign) {
    return fixture.service.hongbao().parts().database().rewards().campaigns().stream()
        .filter(c -> c.campaignId().equals(campaign))
        .findFirst()
        .orElseThrow();
  }

  /** The one tradeNo of {@code tradeNos} the line names (a line naming none or two fails). */
  private static String namedIn(String line, List<String> tradeNos) {
    List<String> found =
        tradeNos.stream().filter(t -> line.matches(".*\\b" + t + "\\b.*")).toList();
    assertThat(found).as(line).hasSize(1);
    return found.getFirst();
  }
}
