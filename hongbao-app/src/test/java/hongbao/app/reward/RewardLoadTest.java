package hongbao.app.reward;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import hongbao.app.support.Backends;
import hongbao.core.RejectedException;
import hongbao.core.Rejection;
import hongbao.sdk.Activity;
import hongbao.sdk.Bonus;
import hongbao.sdk.BonusReceipt;
import hongbao.sdk.RewardSdk;
import hongbao.sdk.User;
import io.vertx.core.json.JsonObject;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The full size, and the per-type limit under pressure, on the embedded default (one Redis,
 * PostgreSQL, a Kafka broker in a child process) with the SDK in-process and an issuer simulator
 * that answers at once: what bounds the run is the limits, not a slow downstream.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RewardLoadTest {

  private static final int THREADS = 32;
  private static final long CASH_RATE = 3_000;
  private static final long COUPON_RATE = 1_500;
  private static final long ITEM_RATE = 600;

  private RewardFixture fixture;
  private IssuerSimulator issuer;
  private final AtomicInteger ids = new AtomicInteger();

  @BeforeAll
  void start() {
    fixture = new RewardFixture(Backends.embedded(), Map.of());
    issuer =
        IssuerSimulator.start(
            new IssuerSimulator.Settings(0, 1_000_000, 0, Duration.ZERO), Clock.systemUTC(), 5);
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
    return name + ids.incrementAndGet() + "_" + (System.nanoTime() % 1_000_000);
  }

  private RewardSdk sdk() {
    return fixture.rewards().sdk();
  }

  private void putType(String type, String kind, long rate, String queue, boolean fused) {
    var body =
        JsonObject.of(
            "kind",
            kind,
            "ratePerSecond",
            rate,
            "burst",
            rate / 10,
            "queue",
            queue,
            "fused",
            fused);
    if (!"CASH".equals(kind)) {
      body.put("issuerUrl", issuer.url());
    }
    fixture.putType(type, body);
  }

  /** One reward to send: what {@link #sendAll} needs. */
  private record Send(String tradeNo, String user, String type, long amount) {}

  /**
   * Sends {@code count} rewards through the SDK from {@link #THREADS} threads; returns the tradeNos
   * accepted (refusals for budget are left out, any other refusal fails the test).
   */
  private Set<String> sendAll(String campaign, int count, IntFunction<Send> rewardOf)
      throws Exception {
    var accepted = ConcurrentHashMap.<String>newKeySet();
    var next = new AtomicInteger();
    var pool = Executors.newFixedThreadPool(THREADS);
    try {
      var futures = new ArrayList<Future<?>>();
      for (int t = 0; t < THREADS; t++) {
        futures.add(
            pool.submit(
                () -> {
                  for (int i = next.getAndIncrement(); i < count; i = next.getAndIncrement()) {
                    Send send = rewardOf.apply(i);
                    try {
                      BonusReceipt receipt =
                          sdk()
                              .sendBonus(
                                  new Activity(campaign, "rain"),
                                  new User(send.user()),
                                  new Bonus(send.tradeNo(), send.type(), send.amount(), "load"));
                      assertThat(receipt.status()).isEqualTo(BonusReceipt.Status.ACCEPTED);
                      accepted.add(send.tradeNo());
                    } catch (RejectedException e) {
                      assertThat(e.rejection()).isEqualTo(Rejection.INSUFFICIENT_FUNDS);
                    }
                  }
                  return null;
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

  @Test
  void hundredThousandRewardsFromManyThreads_eachCreditedOnce_budgetExact_ratesWithinLimits()
      throws Exception {
    String campaign = unique("load");
    String coupon = unique("LOAD_TEA");
    String item = unique("LOAD_SKIN");
    putType("CASH", "CASH", CASH_RATE, "MASSIVE", false);
    putType(coupon, "COUPON", COUPON_RATE, "SPECIAL", false);
    putType(item, "ITEM", ITEM_RATE, "EXPRESS", false);
    // 60,000 CASH rewards of 10 fen against a budget of 59,000 of them: the last thousand are
    // refused, so the test sees the budget spent to the fen and never beyond.
    long budget = 590_000;
    fixture.openCampaign(campaign, budget);
    int rewards = 100_000;
    long started = System.nanoTime();
    Set<String> accepted =
        sendAll(
            campaign,
            rewards,
            i ->
                switch (i % 10) {
                  case 6, 7, 8 -> new Send(campaign + "_p" + i, "lu" + i, coupon, 1);
                  case 9 -> new Send(campaign + "_i" + i, "lu" + i, item, 1);
                  default -> new Send(campaign + "_c" + i, "lu" + i, "CASH", 10);
                });
    double sendSeconds = (System.nanoTime() - started) / 1e9;
    long cash = accepted.stream().filter(t -> t.contains("_c")).count();
    fixture.books.awaitCredited(campaign, accepted.size(), Duration.ofSeconds(100));
    double allSeconds = (System.nanoTime() - started) / 1e9;
    System.out.printf(
        "100,000 rewards: accepted %d (%d CASH) in %.1f s (%.0f/s), all credited after %.1f s%n",
        accepted.size(), cash, sendSeconds, rewards / sendSeconds, allSeconds);

    assertThat(accepted).hasSize((int) cash + 40_000);
    var state = sdk().parts().budget().state(campaign);
    assertThat(state.reserved().fen()).isEqualTo(cash * 10).isLessThanOrEqualTo(budget);
    // A key that runs dry borrows from the others; at the very end the last reservations gather
    // what every key has left, and one is refused only when the budget has no room for it.
    assertThat(cash).as("the budget is spent to the fen").isEqualTo(59_000);
    assertThat(fixture.books.credited(campaign)).isEqualTo(accepted.size());
    assertThat(
            fixture.books.value(
                "SELECT count(*) FROM transfer WHERE campaign_id = ? AND kind = 'REWARD'",
                campaign))
        .isEqualTo(cash);
    assertThat(
            fixture.books.value(
                "SELECT coalesce(sum(amount), 0) FROM transfer WHERE campaign_id = ? AND kind = 'REWARD'",
                campaign))
        .as("credited money = reserved budget")
        .isEqualTo(cash * 10);
    assertThat(
            fixture.books.value("SELECT balance FROM account WHERE id = ?", "campaign:" + campaign))
        .as("escrow = budget - credited")
        .isEqualTo(budget - cash * 10);
    var stats = issuer.snapshot();
    assertThat(stats.issuedByType()).containsEntry(coupon, 30_000).containsEntry(item, 10_000);

    int cashMax = IssuerSimulator.maxInWindow(fixture.books.creditMillis(campaign), 1_000);
    System.out.printf(
        "most in one second: CASH %d (limit %d+%d), coupon %d (%d+%d), item %d (%d+%d)%n",
        cashMax,
        CASH_RATE,
        CASH_RATE / 10,
        stats.maxPerSecondByType().get(coupon),
        COUPON_RATE,
        COUPON_RATE / 10,
        stats.maxPerSecondByType().get(item),
        ITEM_RATE,
        ITEM_RATE / 10);
    // At the issuer: calls admitted at one instant arrive up to a few tens of milliseconds apart
    // on a loaded box, so a one-second window there may hold up to 5% of a second's rate more.
    assertThat(stats.maxPerSecondByType().get(coupon))
        .isLessThanOrEqualTo((int) (COUPON_RATE * 11 / 10 + COUPON_RATE / 20));
    assertThat(stats.maxPerSecondByType().get(item))
        .isLessThanOrEqualTo((int) (ITEM_RATE * 11 / 10 + ITEM_RATE / 20));
    // At the ledger, by the start of the transaction: credits are group-committed, so a batch
    // holds what the bucket admitted while the one before it was written (about a tenth of a
    // second at most).
    assertThat(cashMax).isLessThanOrEqualTo((int) (CASH_RATE * 1.25 + CASH_RATE / 10));
  }

  @Test
  void typePushedPastItsRate_isIssuedAtItsLimit_fusedEventsWait_unfusedAllIssuedOnce()
      throws Exception {
    String campaign = unique("push");
    fixture.openCampaign(campaign, 1_000);
    String type = unique("PUSHED");
    long rate = 200;
    long burst = rate / 10;
    putType(type, "ITEM", rate, "EXPRESS", false);
    int rewards = 2_400;

    long started = System.nanoTime();
    Set<String> accepted =
        sendAll(campaign, rewards, i -> new Send(campaign + "_" + i, "pu" + i, type, 1));
    double offeredPerSecond = rewards / ((System.nanoTime() - started) / 1e9);
    assertThat(accepted).hasSize(rewards);
    System.out.printf(
        "pushed %d at %.0f/s, %.1f times the limit of %d/s%n",
        rewards, offeredPerSecond, offeredPerSecond / rate, rate);
    // Above the limit: this JVM's sender, sharing two cores with the other test fork, reached
    // 391-550/s in fresh-clone CI runs (2-2.75 times the limit) and 249/s beside a second build;
    // anything above the limit shows the bucket at work.
    assertThat(offeredPerSecond).as("offered above the rate").isGreaterThan((double) rate);

    // Let it run past the burst into the steady rate, then fuse the type.
    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> issuer.snapshot().issuedByType().getOrDefault(type, 0) >= 1_000);
    putType(type, "ITEM", rate, "EXPRESS", true);
    long fusedAt = System.currentTimeMillis();
    // Every instance sees the fuse within a refresh (one second); events already past the bucket
    // reach the issuer after it, within milliseconds unless the loaded machine stalls.
    int issuedFused = issuedOnceStill(type);
    Thread.sleep(3_000);
    assertThat(issuer.snapshot().issuedByType().get(type))
        .as("nothing issued while fused")
        .isEqualTo(issuedFused);
    assertThat(issuedFused).as("events wait while fused").isLessThan(rewards);
    assertThat(fixture.rewards().parking().peek(type, rewards))
        .as("waiting events are parked")
        .isNotEmpty();

    putType(type, "ITEM", rate, "EXPRESS", false);
    fixture.books.awaitCredited(campaign, rewards, Duration.ofSeconds(60));
    await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> fixture.rewards().parking().peek(type, 1).isEmpty());
    assertThat(issuer.snapshot().issuedByType()).containsEntry(type, rewards);
    assertThat(fixture.books.credited(campaign)).isEqualTo(rewards);

    List<Long> times = issuer.issuedTimes(type);
    long first = times.stream().mapToLong(Long::longValue).min().orElseThrow();
    // The steady rate: from a second after the first issue (the burst is spent by then) to the
    // fuse. The bucket allows rate per second plus the burst once. That the throttled events are
    // not starved (a waiting worker retries within 1/rate s) shows in the busiest five seconds,
    // which must reach 80% of the limit: the whole window's average is only reported, as the other
    // test fork on the two cores can stall this JVM's workers for seconds (a fresh-clone CI run
    // averaged 108/s against the limit of 200 while its busiest five seconds issued 1,020).
    long steadyFrom = first + 1_000;
    long steady = times.stream().filter(t -> t >= steadyFrom && t < fusedAt).count();
    double steadyPerSecond = steady / ((fusedAt - steadyFrom) / 1000.0);
    int maxInSecond = IssuerSimulator.maxInWindow(times, 1_000);
    int maxInFive = IssuerSimulator.maxInWindow(times, 5_000);
    System.out.printf(
        "issued at %.0f/s in the steady window (limit %d/s); most in one second %d (%d+%d),"
            + " in five seconds %d (%d+%d)%n",
        steadyPerSecond, rate, maxInSecond, rate, burst, maxInFive, 5 * rate, burst);
    double windowSeconds = (fusedAt - steadyFrom) / 1000.0;
    assertThat(maxInFive).as("not starved").isGreaterThanOrEqualTo((int) (0.8 * 5 * rate));
    assertThat(steadyPerSecond).isLessThanOrEqualTo(1.05 * rate + burst / windowSeconds);
    // The bucket admits at most rate * w + burst in any window of w seconds. Where the calls
    // arrive, a window may also hold calls admitted just before it and delayed on the way (a
    // worker's wake-up, the HTTP client's pool, a pause of a JVM on a box shared by several
    // builds). At a load average of 20 one second held 237 against the bucket's 220 (a tenth of a
    // second's worth more); a quarter of a second's worth is allowed: 5% of a five-second window,
    // a quarter of a one-second one.
    assertThat(maxInFive).isLessThanOrEqualTo((int) (5 * rate + burst + rate / 4));
    assertThat(maxInSecond).isLessThanOrEqualTo((int) (rate + burst + rate / 4));
  }

  /**
   * What the issuer has issued of {@code type} once a second has passed without any more, after the
   * fuse's refresh: events already past the bucket have arrived. Issuing on at the rate, it never
   * is still, and that fails.
   */
  private int issuedOnceStill(String type) throws InterruptedException {
    Thread.sleep(1_000);
    int before = issuer.snapshot().issuedByType().get(type);
    for (int second = 0; second < 20; second++) {
      Thread.sleep(1_000);
      int now = issuer.snapshot().issuedByType().get(type);
      if (now == before) {
        return now;
      }
      before = now;
    }
    throw new AssertionError("still issuing " + type + " twenty seconds after the fuse");
  }
}
