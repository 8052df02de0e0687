package hongbao.app.campaign;

import static hongbao.app.campaign.RainFixture.campaign;
import static hongbao.app.campaign.RainFixture.prize;
import static hongbao.app.campaign.RainFixture.round;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import hongbao.app.support.Api;
import hongbao.app.support.Backends;
import hongbao.core.campaign.CampaignRules;
import hongbao.core.campaign.CampaignStore;
import hongbao.core.campaign.SubPools;
import hongbao.core.campaign.TapOutcome;
import hongbao.core.ledger.IdempotencyKey;
import hongbao.core.ledger.StoredAnswer;
import hongbao.http.HttpApi;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The red-packet rain end to end on real Redis, PostgreSQL and Kafka, rounds on a test clock: the
 * HTTP contract of every outcome and error, the tail rule, and a round of 100,000 prizes over 16
 * sub-pools tapped by 20,000 users from many threads. The reconciler runs after each test. On one
 * Redis here; {@link ClusterRainTest} runs it all on a Redis Cluster.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RainTest {

  private RainFixture fixture;

  RainFixture fixture() {
    return fixture;
  }

  /** One Redis here; the embedded cluster of three masters in the subclass. */
  Backends backends() {
    return Backends.embedded();
  }

  /** How many streams each Redis topic of the reward pipeline is split over. */
  int streamsPerTopic() {
    return 1;
  }

  @BeforeAll
  void start() {
    fixture =
        new RainFixture(
            backends(), Map.of("HONGBAO_REWARD_STREAMS", Integer.toString(streamsPerTopic())));
  }

  @AfterAll
  void stop() {
    if (fixture != null) {
      fixture.close();
    }
  }

  @AfterEach
  void reconciled() {
    long started = System.nanoTime();
    fixture.service.assertReconciled();
    System.out.printf("rain: reconciled in %d ms%n", (System.nanoTime() - started) / 1_000_000);
  }

  private Api api() {
    return fixture.api;
  }

  private Api.Response tap(String token, String campaignId) {
    return api().post("/api/v1/campaigns/" + campaignId + "/taps", token, Map.of(), "{}");
  }

  private void at(Instant instant) {
    Duration ahead = Duration.between(fixture.clock.instant(), instant);
    assertThat(ahead.isNegative()).as("the test clock only moves forward").isFalse();
    fixture.clock.advance(ahead);
  }

  // ------------------------------------------------------------------------------------ HTTP

  @Test
  void http_answersEveryOutcomeAndErrorCode() {
    Instant starts = fixture.clock.instant().plusSeconds(60);
    long system = fixture.systemBalance();
    long fundings = fixture.books.value("SELECT count(*) FROM transfer WHERE kind = 'CAMPAIGN'");
    var one = round(starts, 60, prize("CASH", 500, 1));

    // Refused requests change nothing.
    var noKey =
        api()
            .post(
                "/api/v1/admin/campaigns",
                fixture.admin,
                Map.of(),
                campaign(1_000, 1, 3, one).encode());
    assertThat(noKey.status()).isEqualTo(400);
    assertThat(noKey.errorCode()).isEqualTo("INVALID_REQUEST");
    assertError(fixture.create(campaign(499, 1, 3, one), "k-over"), 400, "INVALID_AMOUNT");
    assertError(
        fixture.create(campaign(1_000, 1, 3, round(starts, 60, prize("CASH", 1, 0))), "k-count"),
        400,
        "INVALID_COUNT");
    assertError(
        fixture.create(
            campaign(1_000, 1, 3, round(starts, 60, prize("CASH", 1, 10_000_001))), "k-many"),
        400,
        "INVALID_COUNT");
    assertError(
        fixture.create(
            campaign(1_000, 1, 3, one, round(starts.plusSeconds(30), 60, prize("CASH", 1, 1))),
            "k-lap"),
        400,
        "INVALID_REQUEST");
    var fraction = campaign(1_000, 1, 3, one).put("budget", 1000.0);
    assertError(fixture.create(fraction, "k-frac"), 400, "INVALID_REQUEST");
    var user = api().token("rain-alice");
    var forbidden =
        api().post("/api/v1/admin/campaigns", user, Map.of("Idempotency-Key", "k"), "{}");
    assertError(forbidden, 403, "FORBIDDEN");
    assertError(
        api().post("/api/v1/admin/campaigns", null, Map.of("Idempotency-Key", "k"), "{}"),
        401,
        "UNAUTHENTICATED");
    assertThat(fixture.systemBalance()).isEqualTo(system);
    assertThat(fixture.books.value("SELECT count(*) FROM transfer WHERE kind = 'CAMPAIGN'"))
        .isEqualTo(fundings);

    // Created once per key; the budget moved from the system account.
    var body = campaign(1_000, 1, 3, one);
    var created = fixture.create(body, "k-rain");
    assertThat(created.status()).isEqualTo(201);
    JsonObject json = created.json();
    String id = json.getString("id");
    assertThat(json.getString("status")).isEqualTo("SCHEDULED");
    assertThat(json.getLong("budget")).isEqualTo(1_000);
    assertThat(fixture.create(body, "k-rain").raw()).isEqualTo(created.raw());
    assertError(fixture.create(campaign(2_000, 1, 3, one), "k-rain"), 409, "IDEMPOTENCY_CONFLICT");
    // Validation comes before the replay: an invalid body under a used key is a 400.
    assertError(fixture.create(campaign(499, 1, 3, one), "k-rain"), 400, "INVALID_AMOUNT");
    assertThat(fixture.systemBalance()).isEqualTo(system - 1_000);
    assertThat(fixture.escrow(id)).isEqualTo(1_000);

    var alice = api().token("rain-alice");
    var bob = api().token("rain-bob");
    var early = tap(alice, id);
    assertThat(early.status()).isEqualTo(200);
    assertThat(early.json().getString("outcome")).isEqualTo("NOT_STARTED");
    assertThat(Instant.parse(early.json().getString("nextRoundAt"))).isEqualTo(starts);
    var scheduled = api().get("/api/v1/campaigns/" + id, bob).json();
    assertThat(scheduled.getString("status")).isEqualTo("SCHEDULED");
    assertThat(scheduled.getJsonArray("rounds").getJsonObject(0).getLong("prizesLeft"))
        .isEqualTo(1);

    // The round's last second: every tap draws.
    at(starts.plusMillis(59_500));
    var won = tap(alice, id).json();
    assertThat(won.getString("outcome")).isEqualTo("WON");
    JsonObject reward = won.getJsonObject("reward");
    assertThat(reward.getString("tradeNo")).isEqualTo(id + "_1_rain-alice_1");
    assertThat(reward.getString("type")).isEqualTo("CASH");
    assertThat(reward.getLong("amount")).isEqualTo(500);
    assertThat(reward.getString("token")).isNotBlank();
    assertThat(tap(alice, id).json().getString("outcome")).isEqualTo("LIMIT_REACHED");
    assertThat(tap(bob, id).json().getString("outcome")).isEqualTo("MISSED");
    assertThat(tap(bob, id).status()).isEqualTo(200);
    assertThat(tap(bob, id).status()).isEqualTo(200);
    assertError(tap(bob, id), 429, "RATE_LIMITED");

    var running = api().get("/api/v1/campaigns/" + id, bob).json();
    assertThat(running.getString("status")).isEqualTo("RUNNING");
    assertThat(running.getJsonArray("rounds").getJsonObject(0).getLong("prizesLeft")).isZero();
    assertThat(running.getLong("spent")).isEqualTo(500);
    var verified =
        api()
            .post(
                "/api/v1/rewards/tokens/verify",
                alice,
                Map.of(),
                JsonObject.of("token", reward.getString("token")).encode())
            .json();
    assertThat(verified.getString("validity")).isEqualTo("LEGAL");

    assertError(tap(bob, "c_nope"), 404, "NOT_FOUND");
    // The body (400) before the campaign (404), whether the id is unknown or malformed.
    for (String unknown : new String[] {"c_nope", "no%20such"}) {
      assertError(
          api().post("/api/v1/campaigns/" + unknown + "/taps", bob, Map.of(), "{\"x\":1}"),
          400,
          "INVALID_REQUEST");
    }
    assertError(tap(bob, "no%20such"), 404, "NOT_FOUND");
    assertError(api().get("/api/v1/campaigns/c_nope", bob), 404, "NOT_FOUND");
    assertError(
        api().post("/api/v1/campaigns/" + id + "/taps", null, Map.of(), "{}"),
        401,
        "UNAUTHENTICATED");

    at(starts.plusSeconds(61));
    assertThat(tap(bob, id).json().getString("outcome")).isEqualTo("ENDED");
    at(starts.plusSeconds(60).plus(CampaignWiring.RETURN_GRACE).plusSeconds(1));
    assertThat(fixture.awaitReturned(id)).isEqualTo(500);
    fixture.books.awaitCredited(id, 1, Duration.ofSeconds(30));
    var ended = api().get("/api/v1/campaigns/" + id, bob).json();
    assertThat(ended.getString("status")).isEqualTo("ENDED");
    assertThat(ended.getLong("returned")).isEqualTo(500);
    assertThat(fixture.escrow(id)).isZero();
    assertThat(fixture.systemBalance()).isEqualTo(system - 500);
    assertThat(fixture.returnTransfers(id)).isEqualTo(1);
  }

  /**
   * /metrics counts taps by outcome and wins by prize type, and times taps in the grab's SLO
   * buckets; every family has its HELP.
   */
  @Test
  void metrics_countTapsByOutcome_winsByType_andTimeThem() {
    Instant starts = fixture.clock.instant().plusSeconds(60);
    String id =
        fixture.created(
            campaign(
                1_000, 1, 3, round(starts, 60, prize("CASH", 7, 1), prize("RAIN_GIFT", 1, 1))));
    String before = api().get("/metrics", null).raw();
    var alice = api().token("metrics-alice");
    var bob = api().token("metrics-bob");
    var carol = api().token("metrics-carol");
    assertThat(tap(alice, id).json().getString("outcome")).isEqualTo("NOT_STARTED");
    at(starts.plusMillis(59_500));
    var prizes = new ArrayList<String>();
    for (String token : List.of(alice, bob)) {
      JsonObject won = tap(token, id).json();
      assertThat(won.getString("outcome")).isEqualTo("WON");
      prizes.add(won.getJsonObject("reward").getString("type"));
    }
    assertThat(prizes).containsExactlyInAnyOrder("CASH", "RAIN_GIFT");
    assertThat(tap(alice, id).json().getString("outcome")).isEqualTo("LIMIT_REACHED");
    for (int i = 0; i < 3; i++) {
      assertThat(tap(carol, id).json().getString("outcome")).isEqualTo("MISSED");
    }
    assertError(tap(carol, id), 429, "RATE_LIMITED");
    at(starts.plusSeconds(61));
    assertThat(tap(carol, id).json().getString("outcome")).isEqualTo("ENDED");

    String after = api().get("/metrics", null).raw();
    Map<String, Long> expected =
        Map.of(
            "hongbao_taps_total{outcome=\"NOT_STARTED\"}", 1L,
            "hongbao_taps_total{outcome=\"WON\"}", 2L,
            "hongbao_taps_total{outcome=\"LIMIT_REACHED\"}", 1L,
            "hongbao_taps_total{outcome=\"MISSED\"}", 3L,
            "hongbao_taps_total{outcome=\"RATE_LIMITED\"}", 1L,
            "hongbao_taps_total{outcome=\"ENDED\"}", 1L,
            "hongbao_tap_wins_total{type=\"CASH\"}", 1L,
            "hongbao_tap_wins_total{type=\"RAIN_GIFT\"}", 1L,
            "hongbao_tap_latency_seconds_count", 9L);
    expected.forEach(
        (series, delta) ->
            assertThat(sample(after, series) - sample(before, series)).as(series).isEqualTo(delta));
    assertThat(after.lines().filter(l -> l.startsWith("hongbao_tap_latency_seconds_bucket")))
        .as("0.5, 1, 2, 5, 10, 25, 50, 100, 250 ms, 1 s and +Inf, as the grab's")
        .hasSize(11);
    for (String family :
        List.of("hongbao_taps_total", "hongbao_tap_wins_total", "hongbao_tap_latency_seconds")) {
      assertThat(after).containsPattern("(?m)^# HELP " + family + " \\S");
    }

    at(starts.plusSeconds(60).plus(CampaignWiring.RETURN_GRACE).plusSeconds(1));
    assertThat(fixture.awaitReturned(id)).isEqualTo(1_000 - 7);
    fixture.books.awaitCredited(id, 2, Duration.ofSeconds(30));
  }

  /**
   * The contract's largest campaign, 24 rounds of 20 prize lines, is a body over the default 16
   * KiB: it is created; a campaign body past its own larger limit is still 413, before anything
   * moves.
   */
  @Test
  void theLargestCampaign_isCreated_thoughItsBodyIsOverTheDefaultLimit() {
    Instant starts = fixture.clock.instant().plusSeconds(3_600);
    var rounds = new JsonObject[CampaignRules.ROUNDS_MAX];
    long cash = 0;
    for (int r = 0; r < rounds.length; r++) {
      var prizes = new JsonObject[CampaignRules.PRIZE_LINES_MAX];
      for (int p = 0; p < prizes.length; p++) {
        prizes[p] = prize("CASH", 1_000 + p, 1);
        cash += 1_000 + p;
      }
      rounds[r] = round(starts.plusSeconds(120L * r), 60, prizes);
    }
    JsonObject body = campaign(cash, 1, 3, rounds);
    assertThat(body.encode().length()).isGreaterThan(HttpApi.MAX_BODY_BYTES);
    long system = fixture.systemBalance();

    // Blank space is still JSON: only the size refuses it.
    String padded = "{" + " ".repeat(HttpApi.CAMPAIGN_BODY_BYTES) + body.encode().substring(1);
    var oversized =
        api()
            .post(
                "/api/v1/admin/campaigns",
                fixture.admin,
                Map.of("Idempotency-Key", UUID.randomUUID().toString()),
                padded);
    assertThat(oversized.status()).as(oversized.raw()).isEqualTo(413);
    assertThat(oversized.errorCode()).isEqualTo("INVALID_REQUEST");
    assertThat(oversized.json().getJsonObject("error").getString("message")).contains("64 KiB");
    assertThat(fixture.systemBalance()).isEqualTo(system);

    var created = fixture.create(body, UUID.randomUUID().toString());
    assertThat(created.status()).as(created.raw()).isEqualTo(201);
    assertThat(created.json().getJsonArray("rounds")).hasSize(CampaignRules.ROUNDS_MAX);
    assertThat(fixture.systemBalance()).isEqualTo(system - cash);
  }

  /**
   * A rain's escrow is the rain's: opening it by hand as a reward campaign is a 409 CONFLICT. And a
   * reward campaign opened by hand under an id of the rain's form is never taken by a rain: storing
   * a rain under it writes nothing (the service then draws another id).
   */
  @Test
  void rewardCampaigns_refuseARainsId_andARainNeverTakesAnOpenedId() {
    Instant starts = fixture.clock.instant().plusSeconds(3_600);
    String id = fixture.created(campaign(1_000, 1, 3, round(starts, 60, prize("CASH", 10, 5))));
    long system = fixture.systemBalance();
    for (long budget : new long[] {1_000, 2_000}) {
      var open =
          api()
              .post(
                  "/api/v1/admin/reward-campaigns",
                  fixture.admin,
                  Map.of(),
                  JsonObject.of("campaignId", id, "budget", budget).encode());
      assertError(open, 409, "CONFLICT");
    }
    assertThat(fixture.systemBalance()).isEqualTo(system);

    String taken = "c_zz" + Long.toString(System.nanoTime() % 1_000_000, 36);
    var opened =
        api()
            .post(
                "/api/v1/admin/reward-campaigns",
                fixture.admin,
                Map.of(),
                JsonObject.of("campaignId", taken, "budget", 100).encode());
    assertThat(opened.status()).as(opened.raw()).isEqualTo(201);
    var key = new IdempotencyKey("admin", "campaign", "k-" + taken, "hash");
    var rain = fixture.rain().campaigns().get(id).withId(taken);
    assertThatThrownBy(
            () ->
                fixture.rain().store().create(rain, key, new StoredAnswer("hash", "CREATED", "{}")))
        .isInstanceOf(CampaignStore.IdTaken.class);
    assertThat(fixture.rain().store().answerFor(key)).isEmpty();
    assertThat(fixture.rain().store().find(taken)).isEmpty();
    assertThat(fixture.systemBalance()).isEqualTo(system - 100);

    at(starts.plusSeconds(60).plus(CampaignWiring.RETURN_GRACE).plusSeconds(1));
    assertThat(fixture.awaitReturned(id)).isEqualTo(1_000);
  }

  /**
   * Its answer purged, a creation key still names its campaign: the same key again is 409 with
   * nothing moved, not a second campaign and not the unique key's 500.
   */
  @Test
  void aCreationKeyWhoseAnswerWasPurged_isAConflict_andMovesNothing() {
    Instant starts = fixture.clock.instant().plusSeconds(3_600);
    var body = campaign(1_000, 1, 3, round(starts, 60, prize("CASH", 10, 5)));
    String key = "k-purged-" + System.nanoTime();
    var first = fixture.create(body, key);
    assertThat(first.status()).as(first.raw()).isEqualTo(201);
    fixture
        .service
        .hongbao()
        .parts()
        .database()
        .answers()
        .deleteStoredBefore(Instant.now().plusSeconds(60), 1_000);
    long system = fixture.systemBalance();
    long campaigns = fixture.books.value("SELECT count(*) FROM campaign");

    assertError(fixture.create(body, key), 409, "IDEMPOTENCY_CONFLICT");
    assertThat(fixture.systemBalance()).isEqualTo(system);
    assertThat(fixture.books.value("SELECT count(*) FROM campaign")).isEqualTo(campaigns);

    at(starts.plusSeconds(60).plus(CampaignWiring.RETURN_GRACE).plusSeconds(1));
    assertThat(fixture.awaitReturned(first.json().getString("id"))).isEqualTo(1_000);
  }

  /**
   * The same creation sent many times at once under one key (a client retrying before its first
   * answer came): every request answers the one campaign, byte for byte, and its budget moves once.
   * A request that read no answer and then found the key's campaign, committed meanwhile, was a 409
   * for an answer "no longer kept".
   */
  @Test
  void theSameCreationAtOnceUnderOneKey_answersOneCampaignToEvery() throws Exception {
    ExecutorService senders = Executors.newFixedThreadPool(16);
    try {
      for (int attempt = 0; attempt < 4; attempt++) {
        Instant starts = fixture.clock.instant().plusSeconds(3_600);
        var body = campaign(700, 1, 3, round(starts, 60, prize("CASH", 10, 5)));
        String key = "k-at-once-" + attempt + "-" + System.nanoTime();
        long system = fixture.systemBalance();
        var answers = new ArrayList<Future<Api.Response>>();
        for (int i = 0; i < 16; i++) {
          answers.add(senders.submit(() -> fixture.create(body, key)));
        }
        var raws = new ArrayList<String>();
        for (var answer : answers) {
          Api.Response response = answer.get(30, TimeUnit.SECONDS);
          assertThat(response.status()).as(response.raw()).isEqualTo(201);
          raws.add(response.raw());
        }
        assertThat(raws).as("one answer, replayed").containsOnly(raws.get(0));
        assertThat(fixture.systemBalance()).as("the budget moved once").isEqualTo(system - 700);
        String id = new JsonObject(raws.get(0)).getString("id");
        at(starts.plusSeconds(60).plus(CampaignWiring.RETURN_GRACE).plusSeconds(1));
        assertThat(fixture.awaitReturned(id)).isEqualTo(700);
      }
    } finally {
      senders.shutdownNow();
    }
  }

  /** A series' value in Prometheus text (0 when absent: a counter not yet incremented). */
  private static long sample(String text, String series) {
    return text.lines()
        .filter(line -> line.startsWith(series + " "))
        .map(line -> (long) Double.parseDouble(line.substring(series.length() + 1).trim()))
        .findFirst()
        .orElse(0L);
  }

  private static void assertError(Api.Response response, int status, String code) {
    assertThat(response.status()).as(response.raw()).isEqualTo(status);
    assertThat(response.errorCode()).isEqualTo(code);
  }

  /** The audit sees a pool that disagrees with its recorded wins (a prize made up in Redis). */
  @Test
  void audit_reportsAPoolThatDisagreesWithItsWins() {
    Instant starts = fixture.clock.instant().plusSeconds(3_600);
    String id = fixture.created(campaign(1_000, 1, 3, round(starts, 60, prize("CASH", 10, 5))));
    String pool = "hb:cp:{cp:" + id + ":0}:r1";
    try (var redis = hongbao.redis.RedisLink.open(fixture.service.hongbao().redisUrl())) {
      redis.sync().hincrby(pool, "0", 1);
      try {
        assertThat(fixture.service.hongbao().parts().reconciler().reconcile().discrepancies())
            .contains("campaign %s round 1 line 0: 6 left + 0 won != 5 held".formatted(id));
      } finally {
        redis.sync().hincrby(pool, "0", -1);
      }
    }
  }

  // -------------------------------------------------------------------------------- the tail

  /**
   * Users whose home sub-pool holds nothing win from the others: round 1 has one sub-pool, so every
   * user homed in slot 1 wins only through the tail; in round 2 slot 1's sub-pool runs dry and the
   * users homed there keep winning from slot 0 until the round is empty. A tail that found nothing
   * releases its reservation: the user who missed in round 1 wins in round 2.
   */
  @Test
  void tail_winsFromOtherSubPools_untilEveryOneIsDry() {
    Instant base = fixture.clock.instant();
    Instant first = base.plusSeconds(10);
    Instant second = base.plusSeconds(100);
    String id =
        fixture.created(
            campaign(
                100_000,
                1,
                10,
                round(first, 60, prize("CASH", 100, 10)),
                round(second, 60, prize("CASH", 1, 6_251))));
    var homedInOne = new ArrayList<String>();
    for (int u = 0; homedInOne.size() < 4_000; u++) {
      if (SubPools.home("tail-" + u, 2) == 1) {
        homedInOne.add("tail-" + u);
      }
    }
    var taps = fixture.rain().taps();

    at(first.plusMillis(59_500));
    for (String user : homedInOne.subList(0, 10)) {
      assertThat(taps.tap(id, user)).as(user).isInstanceOf(TapOutcome.Won.class);
    }
    String missed = homedInOne.get(10);
    assertThat(taps.tap(id, missed)).isEqualTo(TapOutcome.MISSED);

    at(second.plusMillis(59_500));
    var outcomes = tapAll(id, homedInOne.subList(10, homedInOne.size()), 1, 8);
    assertThat(outcomes.get("WON")).as("no MISSED while slot 0 holds prizes").hasValue(3_990);
    assertThat(outcomes).containsOnlyKeys("WON");
    assertThat(taps.tap(id, homedInOne.get(0))).isEqualTo(TapOutcome.LIMIT_REACHED);
    var view = fixture.rain().service().view(id);
    assertThat(view.rounds().get(1).prizesLeft()).isEqualTo(6_251 - 3_990);

    at(second.plusSeconds(60).plus(CampaignWiring.RETURN_GRACE).plusSeconds(1));
    long cash = 10 * 100 + 3_990;
    assertThat(fixture.awaitReturned(id)).isEqualTo(100_000 - cash);
    fixture.books.awaitCredited(id, 4_000, Duration.ofSeconds(60));
    assertThat(fixture.escrow(id)).isZero();
  }

  /** Taps {@code times} for every user from {@code threads} threads; counts the outcomes. */
  private Map<String, AtomicLong> tapAll(String id, List<String> users, int times, int threads) {
    var outcomes = new ConcurrentHashMap<String, AtomicLong>();
    try {
      fixture.tapEach(
          id,
          users,
          times,
          threads,
          (user, outcome) ->
              outcomes
                  .computeIfAbsent(outcomeName(outcome), k -> new AtomicLong())
                  .incrementAndGet());
    } catch (Exception e) {
      throw new AssertionError(e);
    }
    return outcomes;
  }

  private static String outcomeName(TapOutcome outcome) {
    return switch (outcome) {
      case TapOutcome.Won won -> "WON";
      case TapOutcome.Missed missed -> "MISSED";
      case TapOutcome.NotStarted notStarted -> "NOT_STARTED";
      case TapOutcome.Ended ended -> "ENDED";
      case TapOutcome.LimitReached limit -> "LIMIT_REACHED";
      case TapOutcome.RateLimited limited -> "RATE_LIMITED";
    };
  }

  // ---------------------------------------------------------------------------- a big round

  private static final int THREADS = 32;
  private static final int MAX_WINS = 6;

  /**
   * The big round's prizes (a multiple of 100): 100,000, over 16 sub-pools. One user in five of
   * that taps, so that demand (users × MAX_WINS) exceeds the prizes.
   */
  int bigRoundPrizes() {
    return 100_000;
  }

  /**
   * {@link #bigRoundPrizes} prizes over their sub-pools, users tapping from 32 threads in four
   * waves over the round (the clock moves between waves), the last wave in the round's final second
   * so the pool is spent. Every win is checked: at most the round's prizes, at most MAX_WINS per
   * user, each tradeNo once, each credited exactly once, the budget exact and its rest returned
   * once.
   */
  @Test
  void bigRound_neverOverIssues_andTheBooksAreExact() throws Exception {
    Instant starts = fixture.clock.instant().plusSeconds(30);
    long budget = 100_000_000;
    int prizes = bigRoundPrizes();
    int users = prizes / 5;
    String id =
        fixture.created(
            campaign(
                budget,
                MAX_WINS,
                10,
                round(
                    starts,
                    60,
                    prize("CASH", 888, prizes / 100 * 99),
                    prize("CASH", 8_800, prizes / 100))));
    assertThat(fixture.rain().campaigns().get(id).round(1).subPools())
        .isEqualTo(SubPools.forPrizes(prizes))
        .isGreaterThan(1);
    long system = fixture.systemBalance();
    var wins = new ConcurrentHashMap<String, TapOutcome.Won>();
    var perUser = new ConcurrentHashMap<String, AtomicInteger>();
    var outcomes = new ConcurrentHashMap<String, AtomicLong>();
    long started = System.nanoTime();
    ExecutorService pool = Executors.newFixedThreadPool(THREADS);
    try {
      for (int wave = 0; wave < 4; wave++) {
        at(wave < 3 ? starts.plusSeconds(15L * (wave + 1)) : starts.plusMillis(59_500));
        boolean last = wave == 3;
        var futures = new ArrayList<Future<?>>();
        for (int t = 0; t < THREADS; t++) {
          int thread = t;
          futures.add(
              pool.submit(
                  () -> {
                    for (int u = thread; u < users; u += THREADS) {
                      String user = "rain-" + u;
                      // Early waves: one tap each; the last: until the limit or an empty round.
                      for (int i = 0; i < (last ? MAX_WINS + 1 : 1); i++) {
                        var outcome = fixture.tap(id, user);
                        outcomes
                            .computeIfAbsent(outcomeName(outcome), k -> new AtomicLong())
                            .incrementAndGet();
                        if (outcome instanceof TapOutcome.Won won) {
                          assertThat(wins.putIfAbsent(won.tradeNo(), won)).isNull();
                          perUser.computeIfAbsent(user, k -> new AtomicInteger()).incrementAndGet();
                        } else if (last) {
                          break;
                        }
                      }
                    }
                  }));
        }
        for (Future<?> future : futures) {
          future.get(180, TimeUnit.SECONDS);
        }
      }
    } finally {
      pool.shutdownNow();
    }
    long tapMillis = (System.nanoTime() - started) / 1_000_000;
    long taps = outcomes.values().stream().mapToLong(AtomicLong::get).sum();
    System.out.printf(
        "rain: %d taps in %d ms (%d taps/s), outcomes %s%n",
        taps, tapMillis, taps * 1000 / Math.max(1, tapMillis), outcomes);

    assertThat(wins.size()).isLessThanOrEqualTo(prizes);
    assertThat(perUser.values()).allSatisfy(n -> assertThat(n.get()).isLessThanOrEqualTo(MAX_WINS));
    var view = fixture.rain().service().view(id);
    assertThat(view.rounds().getFirst().prizesLeft()).isEqualTo(prizes - wins.size());
    long cash = wins.values().stream().mapToLong(TapOutcome.Won::amount).sum();
    assertThat(view.spent().fen()).isEqualTo(cash);
    // Demand (users x 6) exceeds the prizes: the last second gives the rest away.
    assertThat(wins.size()).isEqualTo(prizes);

    long creditStarted = System.nanoTime();
    fixture.books.awaitCredited(id, wins.size(), Duration.ofSeconds(90));
    System.out.printf(
        "rain: every win credited %d ms after the last tap%n",
        (System.nanoTime() - creditStarted) / 1_000_000);
    assertThat(fixture.books.credited(id)).isEqualTo(wins.size());
    assertThat(
            fixture.books.value(
                "SELECT coalesce(sum(amount), 0) FROM transfer WHERE kind = 'REWARD'"
                    + " AND campaign_id = ?",
                id))
        .isEqualTo(cash);

    // Several closers at once (as several instances would): one return.
    at(starts.plusSeconds(60).plus(CampaignWiring.RETURN_GRACE).plusSeconds(1));
    long closeStarted = System.nanoTime();
    var closers = Executors.newFixedThreadPool(4);
    try {
      var returned = new ArrayList<Future<Integer>>();
      for (int i = 0; i < 4; i++) {
        returned.add(closers.submit(() -> fixture.rain().closer().closeOnce()));
      }
      for (Future<Integer> r : returned) {
        r.get(60, TimeUnit.SECONDS);
      }
    } finally {
      closers.shutdownNow();
    }
    assertThat(fixture.awaitReturned(id)).isEqualTo(budget - cash);
    System.out.printf(
        "rain: unspent budget returned in %d ms%n", (System.nanoTime() - closeStarted) / 1_000_000);
    assertThat(fixture.returnTransfers(id)).isEqualTo(1);
    assertThat(fixture.rain().closer().closeOnce()).isZero();
    assertThat(fixture.escrow(id)).isZero();
    assertThat(fixture.systemBalance()).isEqualTo(system + budget - cash);
  }
}
