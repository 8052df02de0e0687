package hongbao.app.campaign;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import hongbao.app.support.Api;
import hongbao.app.support.Backends;
import hongbao.app.support.Books;
import hongbao.app.support.TestService;
import hongbao.core.campaign.Campaign;
import hongbao.core.campaign.CampaignDraft;
import hongbao.core.campaign.CampaignRules;
import hongbao.core.campaign.PrizeLine;
import hongbao.core.campaign.TapOutcome;
import hongbao.kafka.embedded.EmbeddedKafka;
import hongbao.sdk.Activity;
import hongbao.sdk.Bonus;
import hongbao.sdk.User;
import hongbao.testkit.SimClock;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiConsumer;

/**
 * The service with its reward pipeline and rain on the embedded default (Redis, PostgreSQL, a Kafka
 * broker as a child process) or on given backends, the rain's rounds on a test clock, and helpers
 * to drive it.
 */
final class RainFixture implements AutoCloseable {

  final SimClock clock;
  final EmbeddedKafka kafka;
  final TestService service;
  final Books books;
  final Api api;
  final String admin;

  /** Where a tap's blocking part runs, as the HTTP route runs it: virtual threads. */
  private final ExecutorService slowPath = Executors.newVirtualThreadPerTaskExecutor();

  static final Instant CLOCK_START = Instant.parse("2027-02-16T11:00:00Z");

  RainFixture() {
    this(CLOCK_START);
  }

  /** With the rain's clock standing at {@code clockStart} until a test moves it. */
  RainFixture(Instant clockStart) {
    this(Backends.embedded(), Map.of(), clockStart);
  }

  /**
   * On {@code backends} (a cluster, or a Redis a test restarts), with {@code overrides} of the
   * service's settings.
   */
  RainFixture(Backends backends, Map<String, String> overrides) {
    this(backends, overrides, CLOCK_START);
  }

  private RainFixture(Backends backends, Map<String, String> overrides, Instant clockStart) {
    clock = new SimClock(clockStart);
    kafka = EmbeddedKafka.start();
    var env = new HashMap<String, String>();
    env.put("HONGBAO_KAFKA_BOOTSTRAP", kafka.bootstrap());
    env.put("HONGBAO_KAFKA_SESSION_TIMEOUT_MILLIS", "3000");
    env.put("HONGBAO_REWARD_STUCK_AFTER_SECONDS", "600");
    env.put("HONGBAO_REWARD_CONSUME_RATE", "1000000");
    // 100,000 wins are credited in a test: more records in flight per consumer than the default.
    env.put("HONGBAO_REWARD_IN_FLIGHT", "2000");
    env.putAll(overrides);
    try {
      service = TestService.start(backends, env, true, clock);
    } catch (RuntimeException e) {
      kafka.close();
      throw e;
    }
    api = service.api();
    books = service.books();
    admin = api.adminToken();
    // The rain credits tens of thousands of CASH prizes in a test: the type must not be the limit.
    var cash =
        JsonObject.of(
            "kind", "CASH", "ratePerSecond", 1_000_000, "burst", 100_000, "queue", "MASSIVE");
    var answer = api.put("/api/v1/admin/reward-types/CASH", admin, cash.encode());
    if (answer.status() != 200) {
      throw new IllegalStateException("CASH type: " + answer);
    }
  }

  CampaignWiring rain() {
    return service.hongbao().campaigns();
  }

  Api.Response create(JsonObject body, String key) {
    return api.post(
        "/api/v1/admin/campaigns", admin, Map.of("Idempotency-Key", key), body.encode());
  }

  /** Creates a campaign; returns its id. */
  String created(JsonObject body) {
    var response = create(body, UUID.randomUUID().toString());
    if (response.status() != 201) {
      throw new IllegalStateException("campaign: " + response);
    }
    return response.json().getString("id");
  }

  static JsonObject campaign(long budget, int maxWins, int tapsPerSecond, JsonObject... rounds) {
    return JsonObject.of(
        "name",
        "除夕红包雨",
        "budget",
        budget,
        "rounds",
        new JsonArray(java.util.List.of((Object[]) rounds)),
        "maxWinsPerUser",
        maxWins,
        "tapsPerUserPerSecond",
        tapsPerSecond);
  }

  static JsonObject round(Instant startsAt, long seconds, JsonObject... prizes) {
    return JsonObject.of(
        "startsAt",
        startsAt.toString(),
        "durationSeconds",
        seconds,
        "prizes",
        new JsonArray(java.util.List.of((Object[]) prizes)));
  }

  static JsonObject prize(String type, long amount, long count) {
    return JsonObject.of("type", type, "amount", amount, "count", count);
  }

  /** Opens a reward campaign that is no rain (the reward API's own), funded with {@code fen}. */
  void openedRewardCampaign(String campaignId, long fen) {
    var opened =
        api.post(
            "/api/v1/admin/reward-campaigns",
            admin,
            Map.of(),
            JsonObject.of("campaignId", campaignId, "budget", fen).encode());
    assertThat(opened.status()).as(opened.raw()).isEqualTo(201);
  }

  /**
   * The terms of an edit of {@code id} to {@code budget} fen: one minute-long round at {@code
   * starts} of {@code prizes} CASH prizes of 100, one win per user, ten taps a second.
   */
  static Campaign editedTerms(String id, long budget, Instant starts, int prizes, Instant now) {
    var draft =
        new CampaignDraft(
            "除夕红包雨",
            budget,
            List.of(
                new CampaignDraft.RoundDraft(
                    starts, 60, List.of(new PrizeLine("CASH", 100, prizes)))),
            1,
            10);
    return CampaignRules.accept(id, draft, "CASH"::equals, now);
  }

  /**
   * Another sender's CASH reward paid out of the campaign (the reward SDK takes any campaign with a
   * budget), waited for until credited.
   */
  void othersBonus(String campaignId, long fen) {
    othersBonus(campaignId, "CASH", fen);
  }

  /** As above, of any type; returns its tradeNo. */
  String othersBonus(String campaignId, String type, long amount) {
    String tradeNo = "bonus-" + (type.equals("CASH") ? "" : type + "-") + campaignId;
    service
        .hongbao()
        .rewards()
        .sdk()
        .sendBonus(
            new Activity(campaignId, "bonus"),
            new User("outsider"),
            new Bonus(tradeNo, type, amount, "bonus"));
    books.awaitCredited(campaignId, 1, Duration.ofSeconds(30));
    return tradeNo;
  }

  long systemBalance() {
    return books.value("SELECT balance FROM account WHERE id = 'system'");
  }

  long escrow(String campaignId) {
    return books.value("SELECT balance FROM account WHERE id = ?", "campaign:" + campaignId);
  }

  long returnTransfers(String campaignId) {
    return books.value(
        "SELECT count(*) FROM transfer WHERE kind = 'CAMPAIGN_RETURN' AND campaign_id = ?",
        campaignId);
  }

  /**
   * Moves the rain's clock {@code ahead} and waits until every campaign ended by then (grace
   * included) has given its unspent budget back.
   */
  void returnEnded(Duration ahead) {
    clock.advance(ahead);
    var cutoff = java.sql.Timestamp.from(clock.instant().minus(CampaignWiring.RETURN_GRACE));
    await()
        .atMost(Duration.ofSeconds(30))
        .pollInterval(Duration.ofMillis(100))
        .until(
            () ->
                books.value(
                        "SELECT count(*) FROM campaign WHERE returned_at IS NULL AND ends_at < ?",
                        cutoff)
                    == 0);
  }

  /** Moves the clock a second past the end of {@code campaign} and its return grace. */
  void pastReturnGrace(Campaign campaign) {
    clock.advance(
        Duration.between(
            clock.instant(), campaign.endsAt().plus(CampaignWiring.RETURN_GRACE).plusSeconds(1)));
  }

  /** Waits for the closer (a worker on the test clock) to give the unspent budget back. */
  long awaitReturned(String campaignId) {
    return awaitReturned(campaignId, Duration.ofSeconds(30));
  }

  /** As above, for a closer that first issues many wins again (one at a time). */
  long awaitReturned(String campaignId, Duration patience) {
    await()
        .atMost(patience)
        .pollInterval(Duration.ofMillis(100))
        .until(() -> rain().store().returned(campaignId).isPresent());
    return rain().store().returned(campaignId).orElseThrow().amount().fen();
  }

  /** {@code count} user ids: {@code prefix} followed by 0, 1, ... */
  static List<String> users(String prefix, int count) {
    var users = new ArrayList<String>(count);
    for (int u = 0; u < count; u++) {
      users.add(prefix + u);
    }
    return users;
  }

  /** Taps {@code times} for each user from 8 threads, keeping every win. */
  void tap(
      String id,
      List<String> users,
      int times,
      Map<String, TapOutcome.Won> wins,
      Map<String, AtomicInteger> perUser)
      throws Exception {
    tapEach(
        id,
        users,
        times,
        8,
        (user, outcome) -> {
          if (outcome instanceof TapOutcome.Won won) {
            assertThat(wins.putIfAbsent(won.tradeNo(), won)).isNull();
            perUser.computeIfAbsent(user, k -> new AtomicInteger()).incrementAndGet();
          }
        });
  }

  /**
   * Taps {@code times} for each user from {@code threads} threads, handing every outcome to {@code
   * seen} with its user (from those threads); returns when all are done.
   */
  void tapEach(
      String id, List<String> users, int times, int threads, BiConsumer<String, TapOutcome> seen)
      throws Exception {
    var pool = Executors.newFixedThreadPool(threads);
    try {
      var futures = new ArrayList<Future<?>>();
      for (String user : users) {
        futures.add(
            pool.submit(
                () -> {
                  for (int i = 0; i < times; i++) {
                    seen.accept(user, tap(id, user));
                  }
                }));
      }
      for (Future<?> future : futures) {
        future.get(120, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
  }

  /**
   * One tap as the HTTP route makes it ({@code TapService.tap(id, user, executor)}): a miss is
   * answered by the store's thread, a win continues on a virtual thread.
   */
  TapOutcome tap(String id, String user) {
    try {
      return rain()
          .taps()
          .tap(id, user, slowPath)
          .toCompletableFuture()
          .orTimeout(60, TimeUnit.SECONDS)
          .join();
    } catch (CompletionException e) {
      // As the blocking call would throw it.
      throw e.getCause() instanceof RuntimeException cause ? cause : e;
    }
  }

  @Override
  public void close() {
    slowPath.shutdownNow();
    try {
      service.close();
    } finally {
      kafka.close();
    }
  }
}
