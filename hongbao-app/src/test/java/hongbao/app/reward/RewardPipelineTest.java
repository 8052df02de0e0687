package hongbao.app.reward;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import hongbao.app.support.Api;
import hongbao.app.support.Backends;
import hongbao.core.RejectedException;
import hongbao.core.Rejection;
import hongbao.core.money.Amount;
import hongbao.core.ops.Switch;
import hongbao.core.reward.ConsumeRate;
import hongbao.core.reward.Reward;
import hongbao.core.reward.RewardBudget;
import hongbao.core.reward.RewardHandler;
import hongbao.core.reward.RewardMetrics;
import hongbao.core.reward.RewardStatement;
import hongbao.core.reward.RewardTokens;
import hongbao.crypto.SealedRewardTokens;
import hongbao.crypto.Sealer;
import hongbao.http.HttpApi;
import hongbao.kafka.KafkaRewardConsumer;
import hongbao.sdk.Activity;
import hongbao.sdk.Bonus;
import hongbao.sdk.BonusReceipt;
import hongbao.sdk.RewardSdk;
import hongbao.sdk.User;
import io.lettuce.core.Consumer;
import io.lettuce.core.XReadArgs;
import io.vertx.core.json.JsonObject;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The reward pipeline end to end on the embedded default (Kafka broker as a child process, Redis,
 * PostgreSQL): concurrent sends over three types with different limits, and the faults of the issue
 * — each run ends with the reconciler finding nothing.
 *
 * <p>Sizes are scaled down from the 100,000 rewards to a few thousand so the class runs in
 * about a minute; {@code ./hongbao bench --scenario rewards} runs the full size.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RewardPipelineTest {

  private static final long CASH_RATE = 400;
  private static final long CASH_BURST = 40;

  private RewardFixture fixture;
  private IssuerSimulator issuer;
  private final AtomicInteger ids = new AtomicInteger();

  /** The service's keyset was rotated once: tokens of the old key must still open. */
  private final Sealer oldKey = Sealer.generate();

  /** One Redis here; the embedded cluster of three masters in the subclass. */
  Backends backends() {
    return Backends.embedded();
  }

  /** How many streams each Redis topic is split over. */
  int streamsPerTopic() {
    return 1;
  }

  @BeforeAll
  void start() {
    fixture =
        new RewardFixture(
            backends(),
            Map.of(
                "HONGBAO_REWARD_KEYSET",
                oldKey.rotate().keysetJson(),
                "HONGBAO_REWARD_STREAMS",
                Integer.toString(streamsPerTopic())));
    issuer =
        IssuerSimulator.start(
            new IssuerSimulator.Settings(0, 100_000, 0, Duration.ZERO), Clock.systemUTC(), 7);
    fixture.putType(
        "CASH",
        JsonObject.of(
            "kind", "CASH", "ratePerSecond", CASH_RATE, "burst", CASH_BURST, "queue", "MASSIVE"));
  }

  @AfterAll
  void stop() {
    if (issuer != null) {
      issuer.close();
    }
    if (fixture != null) {
      fixture.close();
    }
  }

  @AfterEach
  void reconciled() {
    fixture.service.assertReconciled();
  }

  private String unique(String name) {
    return name + "_" + ids.incrementAndGet() + "_" + (System.nanoTime() % 1_000_000);
  }

  private RewardSdk sdk() {
    return fixture.rewards().sdk();
  }

  private static JsonObject reward(
      String tradeNo, String user, String campaign, String type, long amount) {
    return JsonObject.of(
        "tradeNo", tradeNo,
        "userId", user,
        "campaignId", campaign,
        "scene", "rain",
        "type", type,
        "amount", amount,
        "desc", "除夕红包雨");
  }

  /** Sends through the SDK or over HTTP; returns the token, or null if refused for budget. */
  private String send(JsonObject reward, boolean overHttp) {
    if (overHttp) {
      var response = fixture.sendOverHttp(reward, null);
      if (response.status() == 402) {
        return null;
      }
      assertThat(response.status()).as("%s", response).isEqualTo(202);
      return response.json().getString("token");
    }
    try {
      BonusReceipt receipt =
          sdk()
              .sendBonus(
                  new Activity(reward.getString("campaignId"), reward.getString("scene")),
                  new User(reward.getString("userId")),
                  new Bonus(
                      reward.getString("tradeNo"),
                      reward.getString("type"),
                      reward.getLong("amount"),
                      reward.getString("desc")));
      assertThat(receipt.status()).isNotEqualTo(BonusReceipt.Status.FAILED);
      return receipt.token();
    } catch (RejectedException e) {
      if (e.rejection() == Rejection.INSUFFICIENT_FUNDS) {
        return null;
      }
      throw e;
    }
  }

  /** Sends every reward from {@code threads} threads; one in eight over HTTP. */
  private Map<String, String> sendAll(List<JsonObject> rewards, int threads) throws Exception {
    var accepted = new ConcurrentHashMap<String, String>();
    var pool = Executors.newFixedThreadPool(threads);
    try {
      var futures = new ArrayList<Future<?>>();
      for (int i = 0; i < rewards.size(); i++) {
        JsonObject reward = rewards.get(i);
        boolean overHttp = i % 8 == 0;
        futures.add(
            pool.submit(
                () -> {
                  String token = send(reward, overHttp);
                  if (token != null) {
                    accepted.put(reward.getString("tradeNo"), token);
                  }
                }));
      }
      for (Future<?> future : futures) {
        future.get();
      }
    } finally {
      pool.shutdownNow();
    }
    return accepted;
  }

  /**
   * The service's count of rewards each type's bucket admitted ({@code
   * hongbao_rewards_admitted_total}), read from {@code /metrics} every 50 ms while it runs. A pair
   * of readings brackets what was admitted between the start of the first and the end of the
   * second, so pairs at most a second apart that way say how many a second of the bucket let
   * through, however late a reading ran.
   */
  private static final class Admissions {
    private static final Pattern ADMITTED =
        Pattern.compile("(?m)^hongbao_rewards_admitted_total\\{type=\"([^\"]+)\"} (\\S+)$");

    private record Reading(long startedNanos, long endedNanos, Map<String, Long> admitted) {}

    private final Api api;
    private final List<Reading> readings = new CopyOnWriteArrayList<>();
    private final ScheduledExecutorService reader = Executors.newSingleThreadScheduledExecutor();

    Admissions(Api api) {
      this.api = api;
      reader.scheduleWithFixedDelay(this::read, 0, 50, TimeUnit.MILLISECONDS);
    }

    private void read() {
      long started = System.nanoTime();
      Matcher m = ADMITTED.matcher(api.get("/metrics", null).raw());
      var admitted = new HashMap<String, Long>();
      while (m.find()) {
        admitted.put(m.group(1), (long) Double.parseDouble(m.group(2)));
      }
      readings.add(new Reading(started, System.nanoTime(), admitted));
    }

    long total(String type) {
      return readings.getLast().admitted().getOrDefault(type, 0L);
    }

    long mostInOneSecond(String type) {
      long most = 0;
      for (int i = 0; i < readings.size(); i++) {
        for (int j = i + 1; j < readings.size(); j++) {
          Reading from = readings.get(i);
          Reading to = readings.get(j);
          if (to.endedNanos() - from.startedNanos() > 1_000_000_000L) {
            break;
          }
          most =
              Math.max(
                  most,
                  to.admitted().getOrDefault(type, 0L) - from.admitted().getOrDefault(type, 0L));
        }
      }
      return most;
    }

    /** Stops reading, after one last reading. */
    void stop() throws InterruptedException {
      reader.shutdown();
      assertThat(reader.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
      read();
    }
  }

  /** The longest time between two successive batches of credits (their transactions' stamps). */
  private static long longestBatchGapMillis(List<Long> stamps) {
    List<Long> batches = stamps.stream().distinct().sorted().toList();
    long longest = 0;
    for (int i = 1; i < batches.size(); i++) {
      longest = Math.max(longest, batches.get(i) - batches.get(i - 1));
    }
    return longest;
  }

  @Test
  void manyThreadsThreeTypes_eachCreditedOnce_budgetNeverExceeded_ratesWithinLimits()
      throws Exception {
    String campaign = unique("c");
    String coupon = unique("TEA").toUpperCase();
    String item = unique("SKIN").toUpperCase();
    fixture.putType(
        coupon,
        JsonObject.of(
            "kind",
            "COUPON",
            "ratePerSecond",
            150,
            "burst",
            15,
            "queue",
            "SPECIAL",
            "issuerUrl",
            issuer.url()));
    fixture.putType(
        item,
        JsonObject.of(
            "kind",
            "ITEM",
            "ratePerSecond",
            80,
            "burst",
            8,
            "queue",
            "EXPRESS",
            "issuerUrl",
            issuer.url()));
    long budget = 120_000;
    fixture.openCampaign(campaign, budget);
    var rewards = new ArrayList<JsonObject>();
    for (int i = 0; i < 1_500; i++) {
      rewards.add(reward(campaign + "_cash_" + i, "u" + i, campaign, "CASH", 100));
    }
    for (int i = 0; i < 600; i++) {
      rewards.add(reward(campaign + "_tea_" + i, "u" + i, campaign, coupon, 1));
    }
    for (int i = 0; i < 300; i++) {
      rewards.add(reward(campaign + "_skin_" + i, "u" + i, campaign, item, 1));
    }
    Collections.shuffle(rewards, new Random(42));

    Map<String, String> accepted;
    var admissions = new Admissions(fixture.api);
    try {
      accepted = sendAll(rewards, 16);
      fixture.books.awaitCredited(campaign, accepted.size(), Duration.ofSeconds(90));
    } finally {
      admissions.stop();
    }
    long cashMostAdmitted = admissions.mostInOneSecond("CASH");
    long couponMostAdmitted = admissions.mostInOneSecond(coupon);
    long itemMostAdmitted = admissions.mostInOneSecond(item);
    // Nothing reaches the ledger or the issuer without passing its type's bucket.
    assertThat(admissions.total(coupon)).isGreaterThanOrEqualTo(600);
    assertThat(admissions.total(item)).isGreaterThanOrEqualTo(300);
    assertThat(admissions.total("CASH"))
        .isGreaterThanOrEqualTo(
            accepted.keySet().stream().filter(t -> t.contains("_cash_")).count());

    long cash = accepted.keySet().stream().filter(t -> t.contains("_cash_")).count();
    assertThat(cash * 100).as("CASH accepted within the budget").isLessThanOrEqualTo(budget);
    assertThat(cash).as("the budget is spent, not stranded on dry keys").isGreaterThan(1_150);
    assertThat(accepted).hasSize((int) cash + 900);

    assertThat(fixture.books.credited(campaign)).isEqualTo(accepted.size());
    RewardBudget.BudgetState state = sdk().parts().budget().state(campaign);
    assertThat(state.reserved().fen()).isEqualTo(cash * 100).isLessThanOrEqualTo(budget);
    assertThat(
            fixture.books.value(
                "SELECT count(*) FROM transfer WHERE campaign_id = ? AND kind = 'REWARD'",
                campaign))
        .isEqualTo(cash);
    var stats = issuer.snapshot();
    assertThat(stats.issuedByType()).containsEntry(coupon, 600).containsEntry(item, 300);
    List<Long> cashTimes = fixture.books.creditMillis(campaign);
    long firstBatch = Collections.min(cashTimes);
    int cashMax =
        IssuerSimulator.maxInWindow(
            cashTimes.stream().filter(t -> t != firstBatch).toList(), 1_000);
    long cashGapMillis = longestBatchGapMillis(cashTimes);
    System.out.printf(
        "rates: most admitted in one second CASH %d (limit %d+%d), %s %d (150+15), %s %d (80+8);"
            + " at the ledger CASH %d (batches up to %d ms apart), at the issuer %s %d, %s %d%n",
        cashMostAdmitted,
        CASH_RATE,
        CASH_BURST,
        coupon,
        couponMostAdmitted,
        item,
        itemMostAdmitted,
        cashMax,
        cashGapMillis,
        coupon,
        stats.maxPerSecondByType().get(coupon),
        item,
        stats.maxPerSecondByType().get(item));
    // Where the bucket admits: at most a second's rate and the burst in any second, and 5% of the
    // rate for a worker that took its token just before a reading and counted it just after.
    // (Where the calls arrive, the issuer's windows also hold the calls' own delays, which on a
    // loaded box reached 173 in one second against 150+15: not a measure of the bucket.)
    assertThat(cashMostAdmitted).isLessThanOrEqualTo(CASH_RATE + CASH_BURST + CASH_RATE / 20);
    assertThat(couponMostAdmitted).isLessThanOrEqualTo(150 + 15 + 150 / 20);
    assertThat(itemMostAdmitted).isLessThanOrEqualTo(80 + 8 + 80 / 20);
    // CASH is measured at the ledger, by the start of the transaction that wrote it (now()).
    // Credits are group-committed: a batch carries what the bucket admitted since the previous
    // batch took its credits, so a one-second window of stamps holds what was admitted over one
    // second plus the gap before its first batch. That gap is a tenth of a second on a quiet box
    // and half a second when the box is loaded (597 in one second was seen then, against 540):
    // the bound takes the longest gap of the run, and 50 ms for a credit taken a little before
    // its batch's transaction began. The first batch is left out: what it carries was admitted
    // since the consumers started, which no stamp tells. And 5% of the rate, as at the bucket: a
    // worker that passes the gate just before a batch takes its credits and hands its own over
    // just after lands in the next batch (635 against 630 without it, once, on a quiet box).
    assertThat(cashMax)
        .isLessThanOrEqualTo(
            (int) (CASH_RATE * (1_050 + cashGapMillis) / 1_000 + CASH_BURST + CASH_RATE / 20));
  }

  @Test
  void sameTradeNoFiftyTimesAtOnce_acceptedOnce_everyAnswerTheFirstToken_creditedOnce()
      throws Exception {
    String campaign = unique("c");
    fixture.openCampaign(campaign, 10_000);
    String user = unique("same");
    JsonObject body = reward(campaign + "_once", user, campaign, "CASH", 888);
    var pool = Executors.newFixedThreadPool(16);
    var tokens = new ConcurrentLinkedQueue<String>();
    try {
      var futures = new ArrayList<Future<?>>();
      for (int i = 0; i < 50; i++) {
        boolean overHttp = i % 2 == 0;
        futures.add(pool.submit(() -> tokens.add(send(body, overHttp))));
      }
      for (Future<?> f : futures) {
        f.get();
      }
    } finally {
      pool.shutdownNow();
    }
    assertThat(tokens).hasSize(50);
    assertThat(tokens.stream().distinct()).hasSize(1);
    var conflict = fixture.sendOverHttp(body.copy().put("amount", 999), null);
    assertThat(conflict.status()).isEqualTo(409);
    assertThat(conflict.errorCode()).isEqualTo("IDEMPOTENCY_CONFLICT");
    fixture.awaitAllCredited(List.of(campaign + "_once"), Duration.ofSeconds(30));
    assertThat(fixture.api.get("/api/v1/wallet", fixture.api.token(user)).json().getLong("balance"))
        .isEqualTo(888);
    assertThat(sdk().parts().budget().state(campaign).reserved().fen()).isEqualTo(888);
  }

  @Test
  void fusedType_isNotIssuedNorLost_andIsIssuedOnceUnfused() throws Exception {
    String campaign = unique("c");
    fixture.openCampaign(campaign, 10_000);
    String type = unique("FUSE").toUpperCase();
    var fused =
        JsonObject.of(
            "kind",
            "COUPON",
            "ratePerSecond",
            1_000,
            "burst",
            100,
            "queue",
            "SPECIAL",
            "fused",
            true);
    fixture.putType(type, fused);
    var rewards = new ArrayList<JsonObject>();
    for (int i = 0; i < 40; i++) {
      rewards.add(reward(campaign + "_f_" + i, "fu" + i, campaign, type, 1));
    }
    Map<String, String> accepted = sendAll(rewards, 8);
    assertThat(accepted).hasSize(40);
    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> fixture.rewards().parking().peek(type, 100).size() == 40);
    assertThat(fixture.books.credited(campaign)).isZero();

    fixture.putType(type, fused.copy().put("fused", false));

    fixture.books.awaitCredited(campaign, 40, Duration.ofSeconds(30));
    await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> fixture.rewards().parking().peek(type, 100).isEmpty());
    assertThat(fixture.books.value("SELECT count(*) FROM coupon WHERE type = ?", type))
        .isEqualTo(40);
  }

  @Test
  void issuerFailingOneCallInFiveWithLatency_everyRewardIsIssuedOnce() throws Exception {
    try (var flaky =
        IssuerSimulator.start(
            new IssuerSimulator.Settings(0, 100_000, 0.2, Duration.ofMillis(20)),
            Clock.systemUTC(),
            11)) {
      String campaign = unique("c");
      fixture.openCampaign(campaign, 10_000);
      String type = unique("FLAKY").toUpperCase();
      fixture.putType(
          type,
          JsonObject.of(
              "kind",
              "ITEM",
              "ratePerSecond",
              300,
              "burst",
              30,
              "queue",
              "EXPRESS",
              "issuerUrl",
              flaky.url()));
      var rewards = new ArrayList<JsonObject>();
      for (int i = 0; i < 200; i++) {
        rewards.add(reward(campaign + "_x_" + i, "fl" + i, campaign, type, 1));
      }
      Map<String, String> accepted = sendAll(rewards, 8);

      fixture.books.awaitCredited(campaign, accepted.size(), Duration.ofSeconds(60));
      var stats = flaky.snapshot();
      assertThat(stats.errors()).as("injected failures").isPositive();
      assertThat(stats.issuedByType()).containsEntry(type, 200);
      assertThat(fixture.books.credited(campaign)).isEqualTo(200);
    }
  }

  @Test
  void withdrawal_creditsTheCallersTokensFirst_andTheQueuedEventFindsThemDone() {
    String campaign = unique("c");
    fixture.openCampaign(campaign, 10_000);
    var switches = fixture.service.hongbao().parts().switches();
    String user = unique("wd");
    String token;
    switches.set(Switch.REWARDS, false);
    try {
      token = send(reward(campaign + "_wd", user, campaign, "CASH", 700), false);
      var withdrawal =
          fixture.api.post(
              "/api/v1/withdrawals",
              fixture.api.token(user),
              java.util.Map.of("Idempotency-Key", unique("k")),
              io.vertx.core.json.JsonObject.of("amount", 700, "tokens", List.of(token)).encode());
      assertThat(withdrawal.status()).as(withdrawal.raw()).isEqualTo(202);
    } finally {
      switches.set(Switch.REWARDS, true);
    }
    fixture.books.awaitCredited(campaign, 1, Duration.ofSeconds(30));
    assertThat(
            fixture.books.value(
                "SELECT count(*) FROM transfer WHERE campaign_id = ? AND kind = 'REWARD'",
                campaign))
        .isEqualTo(1L);
  }

  /**
   * A client may keep 500 tokens of 512 characters, far more than the default 16 KiB body: a
   * statement and a withdrawal take them all, and find the one real token among them; a 501st token
   * is refused as the contract says (400), not for the body's size.
   */
  @Test
  void aStatementAndAWithdrawalOfTheMostTokens_areServed_thoughOverTheDefaultBodyLimit() {
    String campaign = unique("c");
    fixture.openCampaign(campaign, 10_000);
    var switches = fixture.service.hongbao().parts().switches();
    String user = unique("many");
    String userToken = fixture.api.token(user);
    switches.set(Switch.REWARDS, false);
    try {
      String token = send(reward(campaign + "_many", user, campaign, "CASH", 400), false);
      var tokens =
          new ArrayList<>(
              Collections.nCopies(
                  RewardStatement.MAX_CLIENT_TOKENS - 1, "x".repeat(RewardTokens.MAX_CHARS)));
      tokens.add(token);
      String body = JsonObject.of("tokens", tokens).encode();
      assertThat(body.length()).isGreaterThan(HttpApi.MAX_BODY_BYTES);

      var statement = fixture.api.post("/api/v1/rewards/statement", userToken, Map.of(), body);
      assertThat(statement.status()).as(statement.raw()).isEqualTo(200);
      assertThat(statement.json().getJsonArray("items")).hasSize(1);
      assertThat(statement.json().getLong("pendingAmount")).isEqualTo(400);
      tokens.add(token);
      var tooMany =
          fixture.api.post(
              "/api/v1/rewards/statement",
              userToken,
              Map.of(),
              JsonObject.of("tokens", tokens).encode());
      assertThat(tooMany.status()).as(tooMany.raw()).isEqualTo(400);
      tokens.removeLast();

      var withdrawal =
          fixture.api.post(
              "/api/v1/withdrawals",
              userToken,
              Map.of("Idempotency-Key", unique("k")),
              JsonObject.of("amount", 400, "tokens", tokens).encode());
      assertThat(withdrawal.status()).as(withdrawal.raw()).isEqualTo(202);
    } finally {
      switches.set(Switch.REWARDS, true);
    }
    fixture.books.awaitCredited(campaign, 1, Duration.ofSeconds(30));
  }

  @Test
  void forcedCreditRacingItsQueuedEvent_creditsOnce() throws Exception {
    String campaign = unique("c");
    fixture.openCampaign(campaign, 10_000);
    var switches = fixture.service.hongbao().parts().switches();
    var tokens = new ArrayList<String>();
    var users = new ArrayList<String>();
    switches.set(Switch.REWARDS, false);
    try {
      for (int i = 0; i < 10; i++) {
        String user = unique("fc");
        users.add(user);
        tokens.add(send(reward(campaign + "_fc_" + i, user, campaign, "CASH", 500), false));
      }
      Thread.sleep(300);
      assertThat(fixture.books.credited(campaign)).as("paused: events wait").isZero();
    } finally {
      switches.set(Switch.REWARDS, true);
    }
    var pool = Executors.newFixedThreadPool(10);
    var now = new AtomicInteger();
    try {
      var futures = new ArrayList<Future<?>>();
      for (int i = 0; i < 10; i++) {
        String user = users.get(i);
        String token = tokens.get(i);
        futures.add(
            pool.submit(
                (Callable<Void>)
                    () -> {
                      now.addAndGet(
                          fixture
                              .rewards()
                              .forcedCredits()
                              .creditNow(user, List.of(token))
                              .credited());
                      return null;
                    }));
      }
      for (Future<?> f : futures) {
        f.get();
      }
    } finally {
      pool.shutdownNow();
    }
    fixture.books.awaitCredited(campaign, 10, Duration.ofSeconds(30));
    Thread.sleep(500);
    for (String user : users) {
      assertThat(
              fixture.api.get("/api/v1/wallet", fixture.api.token(user)).json().getLong("balance"))
          .as("wallet of %s", user)
          .isEqualTo(500);
    }
    assertThat(
            fixture.books.value(
                "SELECT count(*) FROM transfer WHERE campaign_id = ? AND kind = 'REWARD'",
                campaign))
        .isEqualTo(10);
    assertThat(now.get()).isBetween(0, 10);
  }

  /**
   * A type whose issuer cannot be called is refused when it is defined: stored, every reward of it
   * failed its issue, round after round, until the failure stream took it.
   */
  @Test
  void aTypeWhoseIssuerUrlCannotBeCalled_isRefused_andNothingIsStored() {
    String type = unique("BAD").toUpperCase();
    for (String url :
        List.of("http://bad host/", "http:///no-host", "https://", "http://issuer:70000/")) {
      var answer =
          fixture.api.put(
              "/api/v1/admin/reward-types/" + type,
              fixture.admin,
              JsonObject.of("kind", "COUPON", "ratePerSecond", 10, "issuerUrl", url).encode());
      assertThat(answer.status()).as(answer.raw()).isEqualTo(400);
      assertThat(answer.errorCode()).isEqualTo("INVALID_REQUEST");
      assertThat(answer.json().getJsonObject("error").getString("message")).contains("issuerUrl");
    }
    assertThat(fixture.api.get("/api/v1/admin/reward-types", fixture.admin).raw())
        .doesNotContain(type);
  }

  @Test
  void syncMode_creditsBeforeAnswering_andUnknownCampaignOrTypeIsRefused() {
    String campaign = unique("c");
    fixture.openCampaign(campaign, 1_000);
    String user = unique("sync");
    var answer = fixture.sendOverHttp(reward(campaign + "_s", user, campaign, "CASH", 300), "sync");
    assertThat(answer.status()).as("%s", answer).isEqualTo(200);
    assertThat(answer.json().getString("status")).isEqualTo("CREDITED");
    assertThat(fixture.api.get("/api/v1/wallet", fixture.api.token(user)).json().getLong("balance"))
        .isEqualTo(300);
    assertThat(
            fixture
                .sendOverHttp(reward(campaign + "_o", user, campaign, "CASH", 800), null)
                .status())
        .isEqualTo(402);
    assertThat(
            fixture
                .sendOverHttp(reward(campaign + "_t", user, campaign, "NO_SUCH", 1), null)
                .status())
        .isEqualTo(400);
    assertThat(fixture.sendOverHttp(reward("x_1", user, "no-campaign", "CASH", 1), null).status())
        .isEqualTo(404);
    var empty = fixture.sendOverHttp(reward(campaign + "_e", user, campaign, "CASH", 100), "");
    assertThat(empty.status()).as("?mode= is no mode: queued, %s", empty).isEqualTo(202);
    assertThat(
            fixture
                .sendOverHttp(reward(campaign + "_b", user, campaign, "CASH", 1), "later")
                .status())
        .isEqualTo(400);
    assertThatThrownBy(
            () ->
                sdk()
                    .sendBonus(
                        new Activity(campaign, "rain"),
                        new User(user),
                        new Bonus(campaign + "_s", "CASH", 301, "除夕红包雨")))
        .isInstanceOf(RejectedException.class)
        .extracting(e -> ((RejectedException) e).rejection())
        .isEqualTo(Rejection.IDEMPOTENCY_CONFLICT);
  }

  @Test
  void aReplay_answersAsItsFirstSendDid_whateverModeTheReplayAsksFor() {
    String campaign = unique("c");
    fixture.openCampaign(campaign, 1_000);
    String user = unique("replay");
    JsonObject synced = reward(campaign + "_s", user, campaign, "CASH", 300);
    var first = fixture.sendOverHttp(synced, "sync");
    assertThat(first.status()).as("%s", first).isEqualTo(200);
    for (String mode : new String[] {null, "sync"}) {
      var again = fixture.sendOverHttp(synced, mode);
      assertThat(again.status())
          .as("sync send replayed with mode %s: %s", mode, again)
          .isEqualTo(200);
      assertThat(again.json().getString("status")).isEqualTo("CREDITED");
      assertThat(again.json().getString("token")).isEqualTo(first.json().getString("token"));
    }

    JsonObject queued = reward(campaign + "_a", user, campaign, "CASH", 200);
    var accepted = fixture.sendOverHttp(queued, null);
    assertThat(accepted.status()).as("%s", accepted).isEqualTo(202);
    fixture.books.awaitCredited(campaign, 2, Duration.ofSeconds(30));
    for (String mode : new String[] {null, "sync"}) {
      var again = fixture.sendOverHttp(queued, mode);
      assertThat(again.status())
          .as("credited async send replayed with mode %s: %s", mode, again)
          .isEqualTo(202);
      assertThat(again.json().getString("status")).isEqualTo("ACCEPTED");
      assertThat(again.json().getString("token")).isEqualTo(accepted.json().getString("token"));
    }
    assertThat(fixture.api.get("/api/v1/wallet", fixture.api.token(user)).json().getLong("balance"))
        .isEqualTo(500);
  }

  private long producedTo(String topic) {
    String metrics = fixture.api.get("/metrics", null).raw();
    double total = 0;
    for (String line : metrics.split("\n")) {
      if (line.startsWith("hongbao_rewards_produced_total{")
          && line.contains("\"" + topic + "\"")) {
        total += Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
      }
    }
    return (long) total;
  }

  @Test
  void kafkaKilledMidRun_trafficMovesToTheBackup_andEverythingIsCreditedAfterItReturns()
      throws Exception {
    String campaign = unique("c");
    fixture.openCampaign(campaign, 1_000_000);
    var rewards = new ArrayList<JsonObject>();
    for (int i = 0; i < 400; i++) {
      rewards.add(reward(campaign + "_k_" + i, "k" + i, campaign, "CASH", 10));
    }
    Map<String, String> before = sendAll(rewards.subList(0, 100), 8);
    long backupBefore = producedTo("redis:rewards-massive");

    fixture.kafka.kill();
    long killedAt = System.nanoTime();
    Map<String, String> during = sendAll(rewards.subList(100, 400), 16);
    long sendingMillis = (System.nanoTime() - killedAt) / 1_000_000;
    long toBackup = producedTo("redis:rewards-massive") - backupBefore;
    System.out.printf(
        "broker down: 300 rewards accepted in %d ms, %d of them on the Redis backup, %d held%n",
        sendingMillis, toBackup, sdk().held());
    assertThat(before).hasSize(100);
    assertThat(during).hasSize(300);
    assertThat(toBackup)
        .as("traffic moved to the backup")
        .isGreaterThanOrEqualTo(300 - sdk().held());

    fixture.kafka.restart();
    fixture.books.awaitCredited(campaign, 400, Duration.ofSeconds(120));
    assertThat(fixture.books.credited(campaign)).isEqualTo(400);
    assertThat(sdk().held()).isZero();
  }

  @Test
  @SuppressWarnings("unchecked") // one stream offset through a generic varargs parameter
  void consumersKilledMidBatch_onKafkaAndOnRedis_theirEventsAreCreditedByTheOthers()
      throws Exception {
    String campaign = unique("c");
    fixture.openCampaign(campaign, 1_000_000);
    var parts = sdk().parts();
    var taken = new CountDownLatch(1);
    // A member whose workers take their records and hang, as if the process froze mid-batch.
    var dyingHandler =
        new RewardHandler(
            parts.types(),
            (type, permits) -> {
              taken.countDown();
              try {
                Thread.sleep(Duration.ofMinutes(10));
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
              return 0;
            },
            fixture.rewards().service(),
            fixture.rewards().parking(),
            fixture.rewards().failures(),
            parts.queues(),
            fixture.service.hongbao().parts().switches(),
            RewardMetrics.NONE,
            RewardHandler.Sleeper.THREAD,
            new ConsumeRate(1_000, Clock.systemUTC(), RewardHandler.Sleeper.THREAD));
    var dyingWorkers = Executors.newVirtualThreadPerTaskExecutor();
    var dying =
        new KafkaRewardConsumer(
            fixture.kafka.bootstrap(),
            "rewards-massive",
            "dying",
            dyingHandler,
            dyingWorkers,
            new KafkaRewardConsumer.Settings(Duration.ofMillis(100), 64, Duration.ofSeconds(3)));
    // A Redis consumer that reads a batch and dies before acknowledging any of it.
    // (On a connection of its own: its blocking reads must not hold up the service's commands.)
    var redis = parts.redis().another();
    var rewards = new ArrayList<JsonObject>();
    for (int i = 0; i < 300; i++) {
      rewards.add(reward(campaign + "_d_" + i, "d" + i, campaign, "CASH", 10));
    }
    try {
      var polling =
          Executors.newSingleThreadExecutor()
              .submit(
                  () -> {
                    for (int i = 0; i < 300 && taken.getCount() > 0; i++) {
                      dying.pollOnce();
                    }
                  });
      // Sent before the group has given the dying member partitions, every record could go to the
      // service's own member (the send is quick, a rebalance on a busy machine is not).
      awaitPartitions(
          fixture.kafka.bootstrap(), KafkaRewardConsumer.groupOf("rewards-massive"), "dying");
      var stealing =
          Executors.newSingleThreadExecutor()
              .submit(
                  () -> {
                    var stolen = new ArrayList<Object>();
                    var streams = parts.redisTopics().get("rewards-massive").streams();
                    long until = System.nanoTime() + Duration.ofSeconds(10).toNanos();
                    for (int i = 0; stolen.size() < 5 && System.nanoTime() < until; i++) {
                      stolen.addAll(
                          redis
                              .sync()
                              .xreadgroup(
                                  Consumer.from("rewards", "dead-redis-consumer"),
                                  XReadArgs.Builder.count(5).block(Duration.ofMillis(50)),
                                  XReadArgs.StreamOffset.lastConsumed(
                                      streams.get(i % streams.size()))));
                    }
                    return stolen.size();
                  });
      Map<String, String> accepted = sendAll(rewards, 8);
      assertThat(accepted).hasSize(300);
      int stolen = stealing.get(30, TimeUnit.SECONDS);
      assertThat(stolen).as("the dead Redis consumer took entries").isPositive();
      System.out.printf(
          "killed mid-batch: a Kafka member, and a Redis consumer holding %d%n", stolen);
      polling.get(60, TimeUnit.SECONDS);
      assertThat(taken.await(1, TimeUnit.SECONDS)).as("the dying member took records").isTrue();
    } finally {
      dying.abort();
      dyingWorkers.shutdownNow();
      redis.close();
    }
    fixture.books.awaitCredited(campaign, 300, Duration.ofSeconds(90));
    assertThat(
            fixture.books.value(
                "SELECT count(*) FROM transfer WHERE campaign_id = ? AND kind = 'REWARD'",
                campaign))
        .isEqualTo(300);
  }

  private JsonObject verify(String token, String caller) {
    var response =
        fixture.api.post(
            "/api/v1/rewards/tokens/verify",
            caller,
            Map.of(),
            JsonObject.of("token", token).encode());
    assertThat(response.status()).as("%s", response).isEqualTo(200);
    return response.json();
  }

  @Test
  void tokens_tamperedTruncatedOtherUserOtherKeyAreIllegal_oldKeyLegal_unknownNeverCredited()
      throws Exception {
    String campaign = unique("c");
    fixture.openCampaign(campaign, 100_000);
    String user = unique("tok");
    String userToken = fixture.api.token(user);
    String token = send(reward(campaign + "_t1", user, campaign, "CASH", 120), false);
    Reward accepted = sdk().parts().tokens().open(token, user).orElseThrow();

    assertThat(verify(token, userToken).getString("validity")).isEqualTo("LEGAL");
    assertThat(verify(token, fixture.admin).getString("validity")).isEqualTo("LEGAL");
    String other = fixture.api.token(unique("other"));
    assertThat(verify(token, other).getString("validity")).isEqualTo("ILLEGAL");
    int at = token.length() - 10;
    String tampered =
        token.substring(0, at) + (token.charAt(at) == 'A' ? 'B' : 'A') + token.substring(at + 1);
    assertThat(verify(tampered, userToken).getString("validity")).isEqualTo("ILLEGAL");
    assertThat(verify(token.substring(0, token.length() - 3), userToken).getString("validity"))
        .isEqualTo("ILLEGAL");
    String otherKey = new SealedRewardTokens(Sealer.generate()).seal(accepted);
    assertThat(verify(otherKey, userToken).getString("validity")).isEqualTo("ILLEGAL");
    String oldKeyToken = new SealedRewardTokens(oldKey).seal(accepted);
    assertThat(oldKeyToken).isNotEqualTo(token);
    assertThat(verify(oldKeyToken, userToken).getString("validity")).isEqualTo("LEGAL");
    JsonObject illegal = verify(tampered, userToken);
    assertThat(illegal.getString("tradeNo")).isNull();
    assertThat(illegal.getValue("amount")).isNull();

    // Genuine key, but the server never accepted it: UNKNOWN, and never credited.
    Reward forged =
        new Reward(
            campaign + "_never",
            user,
            campaign,
            "rain",
            "CASH",
            Amount.fen(99_999),
            "",
            accepted.awardedAt());
    String unknown = sdk().parts().tokens().seal(forged);
    assertThat(verify(unknown, userToken).getString("validity")).isEqualTo("UNKNOWN");
    fixture.awaitAllCredited(List.of(campaign + "_t1"), Duration.ofSeconds(30));
    var forced =
        fixture.rewards().forcedCredits().creditNow(user, List.of(unknown, tampered, token));
    assertThat(forced.credited()).isZero();
    var statement =
        fixture.api.post(
            "/api/v1/rewards/statement",
            userToken,
            Map.of(),
            JsonObject.of(
                    "tokens",
                    new io.vertx.core.json.JsonArray(List.of(unknown, tampered, oldKeyToken)))
                .encode());
    assertThat(statement.status()).isEqualTo(200);
    var items = statement.json().getJsonArray("items");
    assertThat(items).hasSize(1);
    assertThat(items.getJsonObject(0).getString("status")).isEqualTo("CREDITED");
    assertThat(statement.json().getLong("creditedAmount")).isEqualTo(120);
    assertThat(statement.json().getLong("pendingAmount")).isZero();
    assertThat(verify(token, userToken).getBoolean("credited")).isTrue();
    assertThat(fixture.api.get("/api/v1/wallet", userToken).json().getLong("balance"))
        .isEqualTo(120);
  }

  /** Waits until the group's member of this client id holds partitions. */
  private static void awaitPartitions(String bootstrap, String group, String clientId) {
    try (Admin admin =
        Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
      await()
          .atMost(Duration.ofSeconds(60))
          .pollInterval(Duration.ofMillis(100))
          .until(
              () ->
                  admin
                      .describeConsumerGroups(List.of(group))
                      .all()
                      .get(10, TimeUnit.SECONDS)
                      .get(group)
                      .members()
                      .stream()
                      .anyMatch(
                          member ->
                              member.clientId().equals(clientId)
                                  && !member.assignment().topicPartitions().isEmpty()));
    }
  }
}
