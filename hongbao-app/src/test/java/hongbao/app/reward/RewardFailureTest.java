package hongbao.app.reward;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import hongbao.core.money.Amount;
import hongbao.core.reward.RewardBook;
import hongbao.core.reward.RewardBudget;
import hongbao.core.reward.RewardHandler;
import io.lettuce.core.RedisClient;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanIterator;
import io.vertx.core.json.JsonObject;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * A downstream issuer that fails every call (503) while the other types keep working: each of its
 * rewards is tried {@link RewardHandler#MAX_ATTEMPTS} times and then written to the failure stream,
 * where it awaits an operator; the reconciler names exactly those rewards, and nothing else — the
 * working types are credited once each and the budget holds only their cash. Once the type is
 * issued by a working issuer, the operator retries each, and each is credited once.
 *
 * <p>The failure stream outlives the service and is reported by every reconciliation on its Redis,
 * so this class has a Redis and a schema of its own: the tests sharing the embedded backends must
 * still find nothing.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RewardFailureTest {

  private static final int EACH = 6;
  private static final long CASH_FEN = 100;
  private static final long BUDGET_FEN = 10_000;

  /** Calls to the issuer per attempt: rewards.md, "retried in place three times". */
  private static final int TRIES_PER_ATTEMPT = 3;

  /** Past it, an accepted reward that is neither credited nor failed is a discrepancy. */
  private static final Duration STUCK_AFTER = Duration.ofSeconds(1);

  private RewardFixture fixture;
  private IssuerSimulator failing;
  private IssuerSimulator working;

  @BeforeAll
  void start() {
    try {
      fixture =
          RewardFixture.onItsOwn(
              "reward-failure",
              Map.of("HONGBAO_REWARD_STUCK_AFTER_SECONDS", Long.toString(STUCK_AFTER.toSeconds())));
      failing =
          IssuerSimulator.start(
              new IssuerSimulator.Settings(0, 100_000, 1.0, Duration.ZERO), Clock.systemUTC(), 11);
      working =
          IssuerSimulator.start(
              new IssuerSimulator.Settings(0, 100_000, 0, Duration.ZERO), Clock.systemUTC(), 13);
    } catch (RuntimeException | Error e) {
      stop();
      throw e;
    }
  }

  @AfterAll
  void stop() {
    if (failing != null) {
      failing.close();
    }
    if (working != null) {
      working.close();
    }
    if (fixture != null) {
      fixture.close();
    }
  }

  private static JsonObject reward(String tradeNo, String user, String type, long amount) {
    return JsonObject.of(
        "tradeNo", tradeNo,
        "userId", user,
        "campaignId", "failing",
        "scene", "outage",
        "type", type,
        "amount", amount,
        "desc", "issuer down");
  }

  private void send(List<String> tradeNos, JsonObject reward) {
    var answer = fixture.sendOverHttp(reward, null);
    assertThat(answer.status()).as(answer.raw()).isEqualTo(202);
    tradeNos.add(reward.getString("tradeNo"));
  }

  @Test
  void issuerAlwaysFailing_itsRewardsEndInTheFailureStream_theReconcilerNamesThem_untilRetried() {
    // MASSIVE: Kafka is the master queue of 80% of users (by hash) and the Redis streams of the
    // others; of the failing rewards' users at least one is of each, so both kinds of consumer
    // re-queue and give up.
    fixture.putType(
        "CASH",
        JsonObject.of("kind", "CASH", "ratePerSecond", 1_000, "burst", 100, "queue", "MASSIVE"));
    putDownTea(failing);
    fixture.putType(
        "UP_SKIN",
        JsonObject.of(
            "kind",
            "ITEM",
            "ratePerSecond",
            1_000,
            "burst",
            100,
            "queue",
            "EXPRESS",
            "issuerUrl",
            working.url()));
    fixture.openCampaign("failing", BUDGET_FEN);

    assertThat(IntStream.range(0, EACH).map(i -> Math.floorMod(("tea-user-" + i).hashCode(), 100)))
        .anyMatch(percent -> percent < 80)
        .anyMatch(percent -> percent >= 80);
    var cash = new ArrayList<String>();
    var items = new ArrayList<String>();
    var down = new ArrayList<String>();
    for (int i = 0; i < EACH; i++) {
      send(cash, reward("cash_" + i, "cash-user-" + i, "CASH", CASH_FEN));
      send(items, reward("skin_" + i, "skin-user-" + i, "UP_SKIN", 1));
      send(down, reward("tea_" + i, "tea-user-" + i, "DOWN_TEA", 1));
    }

    var credited = new ArrayList<>(cash);
    credited.addAll(items);
    fixture.awaitAllCredited(credited, Duration.ofSeconds(30));
    var failures = fixture.rewards().failures();
    // Each attempt is three quick calls and two short backoffs, so twenty take a few seconds.
    await()
        .atMost(Duration.ofSeconds(45))
        .pollInterval(Duration.ofMillis(250))
        .until(() -> failures.tradeNos(100).containsAll(down));

    // Every attempt reached the issuer, and none after the last.
    long callsMade = (long) EACH * RewardHandler.MAX_ATTEMPTS * TRIES_PER_ATTEMPT;
    await()
        .atMost(Duration.ofSeconds(10))
        .pollInterval(Duration.ofMillis(100))
        .until(() -> failing.snapshot().calls() >= callsMade);
    assertThat(failures.tradeNos(100)).containsExactlyInAnyOrderElementsOf(down);
    assertThat(failures.entries(100))
        .allSatisfy(
            entry -> assertThat(entry).contains("gave up after " + RewardHandler.MAX_ATTEMPTS));
    var failed = failing.snapshot();
    assertThat(failed.calls()).isEqualTo(callsMade);
    assertThat(failed.errors()).isEqualTo(callsMade);
    assertThat(failed.issuedByType()).isEmpty();
    assertThat(down).noneMatch(fixture::isCredited);

    // The working types: each reward credited once.
    var issued = working.snapshot();
    assertThat(issued.issuedByType()).isEqualTo(Map.of("UP_SKIN", EACH));
    assertThat(issued.repeats()).isZero();
    assertThat(fixture.books.credited("failing")).isEqualTo(2L * EACH);
    for (String tradeNo : cash) {
      assertThat(
              fixture.books.value(
                  "SELECT count(*) FROM transfer WHERE campaign_id = ? AND kind = 'REWARD'"
                      + " AND key = ?",
                  "failing",
                  "reward:" + tradeNo))
          .as(tradeNo)
          .isEqualTo(1);
    }
    for (int i = 0; i < EACH; i++) {
      var wallet = fixture.api.get("/api/v1/wallet", fixture.api.token("cash-user-" + i));
      assertThat(wallet.json().getLong("balance")).as(wallet.raw()).isEqualTo(CASH_FEN);
    }

    // Only CASH costs budget: the failed coupons were accepted at no cost and hold none of it.
    RewardBudget budget = fixture.rewards().sdk().parts().budget();
    Map<String, RewardBudget.Trade> trades = budget.trades("failing");
    assertThat(trades).hasSize(3 * EACH).containsKeys(down.toArray(String[]::new));
    assertThat(down).allSatisfy(t -> assertThat(trades.get(t).cost()).isEqualTo(Amount.ZERO));
    RewardBudget.BudgetState state = budget.state("failing");
    assertThat(state.budget()).isEqualTo(Amount.fen(BUDGET_FEN));
    assertThat(state.reserved()).isEqualTo(Amount.fen(EACH * CASH_FEN));
    RewardBook.CampaignBooks books =
        fixture.service.hongbao().parts().database().rewards().campaigns().stream()
            .filter(c -> c.campaignId().equals("failing"))
            .findFirst()
            .orElseThrow();
    assertThat(books.credited()).isEqualTo(Amount.fen(EACH * CASH_FEN));
    assertThat(books.escrow()).isEqualTo(Amount.fen(BUDGET_FEN - EACH * CASH_FEN));
    assertThat(books.returned()).isEqualTo(Amount.ZERO);

    // Reconciled once every reward is past the stuck threshold: a failed reward is failed, not
    // stuck, and named once.
    long lastAccepted =
        trades.values().stream()
            .mapToLong(RewardBudget.Trade::acceptedAtMillis)
            .max()
            .orElseThrow();
    await()
        .atMost(STUCK_AFTER.plusSeconds(5))
        .pollInterval(Duration.ofMillis(100))
        .until(() -> System.currentTimeMillis() > lastAccepted + STUCK_AFTER.toMillis() + 500);
    var answer = fixture.api.get("/api/v1/admin/reconciliation", fixture.admin);
    assertThat(answer.status()).as(answer.raw()).isEqualTo(200);
    assertThat(answer.json().getBoolean("ok")).as(answer.raw()).isFalse();
    List<String> named =
        answer.json().getJsonArray("discrepancies").stream()
            .map(String.class::cast)
            .map(line -> namedIn(line, down))
            .toList();
    assertThat(named).as(answer.raw()).containsExactlyInAnyOrderElementsOf(down);

    // The operator's remedy once the cause is fixed: the type is issued by a working issuer, each
    // failed reward is retried once, credited once, and the books are clean.
    putDownTea(working);
    var types = fixture.rewards().sdk().parts().types();
    await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> working.url().equals(types.find("DOWN_TEA").orElseThrow().issuerUrl()));
    var listed = fixture.api.get("/api/v1/admin/reward-failures", fixture.admin);
    assertThat(listed.status()).as(listed.raw()).isEqualTo(200);
    assertThat(listed.json().getJsonArray("items").stream().map(JsonObject.class::cast))
        .extracting(item -> item.getString("tradeNo"))
        .containsExactlyInAnyOrderElementsOf(down);

    // While neither of MASSIVE's topics takes an event (the broker killed, the Redis streams
    // refusing writes) a retry is an outage: 503, and its entry stays in the failure stream, the
    // one durable copy of the reward.
    fixture.kafka.kill();
    var refusing = RefusingStreams.of(fixture.redisUrl(), "rewards-massive");
    try {
      var refused = fixture.retryFailure(down.getFirst());
      assertThat(refused.status()).as(refused.raw()).isEqualTo(503);
      assertThat(refused.json().getJsonObject("error").getString("code")).isEqualTo("UNAVAILABLE");
      assertThat(failures.tradeNos(100)).containsExactlyInAnyOrderElementsOf(down);
    } finally {
      refusing.close();
    }
    fixture.kafka.restart();

    for (String tradeNo : down) {
      // A topic that failed is skipped for a moment, so a retry right after the outage may still
      // be refused; it changes nothing, and the operator tries again.
      await()
          .atMost(Duration.ofSeconds(30))
          .pollInterval(Duration.ofMillis(250))
          .until(() -> fixture.retryFailure(tradeNo).status() == 200);
    }
    fixture.awaitAllCredited(down, Duration.ofSeconds(30));
    assertThat(failures.tradeNos(100)).isEmpty();
    assertThat(working.snapshot().issuedByType()).containsEntry("DOWN_TEA", EACH);
    assertThat(working.snapshot().repeats()).isZero();
    var again = fixture.retryFailure(down.getFirst());
    assertThat(again.status()).as(again.raw()).isEqualTo(404);
    var clean = fixture.api.get("/api/v1/admin/reconciliation", fixture.admin);
    assertThat(clean.json().getBoolean("ok")).as(clean.raw()).isTrue();
  }

  /** The COUPON type whose issuer the test fails, then mends, on the MASSIVE queue. */
  private void putDownTea(IssuerSimulator issuer) {
    fixture.putType(
        "DOWN_TEA",
        JsonObject.of(
            "kind",
            "COUPON",
            "ratePerSecond",
            1_000,
            "burst",
            100,
            "queue",
            "MASSIVE",
            "issuerUrl",
            issuer.url()));
  }

  /** The one tradeNo of {@code tradeNos} the line names (a line naming none or two fails). */
  private static String namedIn(String line, List<String> tradeNos) {
    List<String> found =
        tradeNos.stream().filter(t -> line.matches(".*\\b" + t + "\\b.*")).toList();
    assertThat(found).as(line).hasSize(1);
    return found.getFirst();
  }

  /**
   * A Redis topic's streams made to refuse every write: each is renamed aside (its consumer group
   * and entries with it) and a string takes its key, so XADD fails with WRONGTYPE while the rest of
   * Redis — budgets, the failure stream — works. Closing puts the streams back.
   */
  private static final class RefusingStreams implements AutoCloseable {
    private final RedisClient client;
    private final List<String> streams;

    private RefusingStreams(RedisClient client, List<String> streams) {
      this.client = client;
      this.streams = streams;
    }

    static RefusingStreams of(String redisUrl, String topic) {
      RedisClient client = RedisClient.create(redisUrl);
      try (var connection = client.connect()) {
        var redis = connection.sync();
        var streams = new ArrayList<String>();
        ScanIterator.scan(redis, ScanArgs.Builder.matches("*:rwq:{" + topic + "*"))
            .forEachRemaining(
                key -> {
                  if (redis.type(key).equals("stream")) {
                    streams.add(key);
                  }
                });
        assertThat(streams).as("the streams of " + topic).isNotEmpty();
        for (String stream : streams) {
          redis.rename(stream, stream + ":aside");
          redis.set(stream, "refusing writes");
        }
        return new RefusingStreams(client, streams);
      } catch (RuntimeException | Error e) {
        client.shutdown();
        throw e;
      }
    }

    @Override
    public void close() {
      try (var connection = client.connect()) {
        var redis = connection.sync();
        for (String stream : streams) {
          redis.del(stream);
          redis.rename(stream + ":aside", stream);
        }
      } finally {
        client.shutdown();
      }
    }
  }
}
