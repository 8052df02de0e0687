package hongbao.app.reward;

import static org.awaitility.Awaitility.await;

import hongbao.app.embedded.EmbeddedRedis;
import hongbao.app.support.Api;
import hongbao.app.support.Backends;
import hongbao.app.support.Books;
import hongbao.app.support.TestService;
import hongbao.core.reward.RewardRecord;
import hongbao.kafka.embedded.EmbeddedKafka;
import hongbao.testkit.FreezableProxy;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The service with its reward pipeline on the given backends (the embedded Redis or the embedded
 * cluster, and PostgreSQL) and a Kafka broker in a child process of its own (the tests kill it),
 * and helpers to drive it.
 */
final class RewardFixture implements AutoCloseable {

  final EmbeddedKafka kafka;
  final TestService service;
  final Books books;
  final Api api;
  final String admin;

  /** A Redis of this fixture's own, closed with it; null on shared backends. */
  private EmbeddedRedis ownRedis;

  /** The proxy between the service and its own Redis, closed with it; null if none. */
  private FreezableProxy network;

  RewardFixture(Backends backends, Map<String, String> overrides) {
    kafka = EmbeddedKafka.start();
    var env = new HashMap<String, String>();
    env.put("HONGBAO_KAFKA_BOOTSTRAP", kafka.bootstrap());
    env.put("HONGBAO_KAFKA_SESSION_TIMEOUT_MILLIS", "3000");
    env.put("HONGBAO_REWARD_STUCK_AFTER_SECONDS", "600");
    env.putAll(overrides);
    try {
      service = TestService.start(backends, env, true);
    } catch (RuntimeException e) {
      kafka.close();
      throw e;
    }
    api = service.api();
    books = service.books();
    admin = api.adminToken();
  }

  /**
   * On a Redis and a schema of its own: for a test whose faults leave state behind (the failure
   * stream, reserved budget) that every later reconciliation on shared backends would report.
   */
  static RewardFixture onItsOwn(String name, Map<String, String> overrides) {
    return onItsOwn(name, overrides, false);
  }

  /**
   * As {@link #onItsOwn}, the service reaching its Redis through a proxy ({@link #network}) that
   * can lose a reply.
   */
  static RewardFixture onItsOwnBehindAProxy(String name, Map<String, String> overrides) {
    return onItsOwn(name, overrides, true);
  }

  private static RewardFixture onItsOwn(
      String name, Map<String, String> overrides, boolean proxied) {
    EmbeddedRedis redis = EmbeddedRedis.start();
    FreezableProxy proxy = null;
    try {
      String url = redis.url();
      if (proxied) {
        URI direct = URI.create(url);
        proxy = FreezableProxy.to(direct.getHost(), direct.getPort());
        url = "redis://127.0.0.1:" + proxy.port();
      }
      String schema = name.replace('-', '_') + "_" + Long.toString(System.nanoTime(), 36);
      var fixture =
          new RewardFixture(
              new Backends(name, url, Backends.embedded().jdbcUrl(), schema), overrides);
      fixture.ownRedis = redis;
      fixture.network = proxy;
      return fixture;
    } catch (RuntimeException | Error e) {
      if (proxy != null) {
        proxy.close();
      }
      redis.close();
      throw e;
    }
  }

  /** The proxy in front of this fixture's own Redis ({@link #onItsOwnBehindAProxy}). */
  FreezableProxy network() {
    return network;
  }

  /** The Redis the service runs on, when it is this fixture's own. */
  String redisUrl() {
    return ownRedis.url();
  }

  RewardWiring rewards() {
    return service.hongbao().rewards();
  }

  void putType(String type, JsonObject body) {
    var response = api.put("/api/v1/admin/reward-types/" + type, admin, body.encode());
    if (response.status() != 200) {
      throw new IllegalStateException("type " + type + ": " + response);
    }
  }

  void openCampaign(String campaignId, long budget) {
    var response =
        api.post(
            "/api/v1/admin/reward-campaigns",
            admin,
            Map.of(),
            JsonObject.of("campaignId", campaignId, "budget", budget).encode());
    if (response.status() != 201) {
      throw new IllegalStateException("campaign " + campaignId + ": " + response);
    }
  }

  /** Turns issuing off or on (the {@code rewards} switch), as an operator would. */
  void rewardsSwitch(boolean enabled) {
    var answer =
        api.put(
            "/api/v1/admin/switches/rewards", admin, JsonObject.of("enabled", enabled).encode());
    if (answer.status() != 200) {
      throw new IllegalStateException("rewards switch: " + answer);
    }
  }

  Api.Response sendOverHttp(JsonObject reward, String mode) {
    return api.post(
        "/api/v1/rewards" + (mode == null ? "" : "?mode=" + mode),
        admin,
        Map.of(),
        reward.encode());
  }

  /** A reward request of {@code fen} to user {@code u-<tradeNo>}, as the API takes it. */
  static JsonObject reward(String tradeNo, String campaign, String type, long fen) {
    return JsonObject.of(
        "tradeNo",
        tradeNo,
        "userId",
        "u-" + tradeNo,
        "campaignId",
        campaign,
        "type",
        type,
        "amount",
        fen);
  }

  /**
   * Sends {@code count} rewards of 100 fen of {@code type} to {@code campaign} over HTTP, tradeNos
   * {@code prefix} 0, 1, ..., each to a user of its own; each must be accepted (202).
   */
  List<String> sendEach(String campaign, String prefix, int count, String type) {
    var tradeNos = new ArrayList<String>();
    for (int i = 0; i < count; i++) {
      String tradeNo = prefix + i;
      var answer = sendOverHttp(reward(tradeNo, campaign, type, 100), null);
      if (answer.status() != 202) {
        throw new AssertionError("reward " + tradeNo + " not accepted: " + answer);
      }
      tradeNos.add(tradeNo);
    }
    return tradeNos;
  }

  /** What the reconciler reports now, over HTTP. */
  List<String> discrepancies() {
    var answer = api.get("/api/v1/admin/reconciliation", admin);
    if (answer.status() != 200) {
      throw new IllegalStateException("reconciliation: " + answer);
    }
    return answer.json().getJsonArray("discrepancies").stream().map(String.class::cast).toList();
  }

  /**
   * Waits until {@code patience} (and half a second) has passed on the wall clock: the reconciler's
   * stuck threshold is real time.
   */
  static void awaitPast(Duration patience) {
    long past = System.currentTimeMillis() + patience.toMillis() + 500;
    await()
        .atMost(patience.plusSeconds(5))
        .pollInterval(Duration.ofMillis(100))
        .until(() -> System.currentTimeMillis() > past);
  }

  /** An operator's retry of a reward in the failure stream, over HTTP. */
  Api.Response retryFailure(String tradeNo) {
    return api.post(
        "/api/v1/admin/reward-failures/retry",
        admin,
        Map.of(),
        JsonObject.of("tradeNo", tradeNo).encode());
  }

  boolean isCredited(String tradeNo) {
    return service
        .hongbao()
        .parts()
        .database()
        .rewards()
        .find(tradeNo)
        .map(r -> r.status() == RewardRecord.Status.CREDITED)
        .orElse(false);
  }

  void awaitAllCredited(Collection<String> tradeNos, Duration patience) {
    await()
        .atMost(patience)
        .pollInterval(Duration.ofMillis(250))
        .until(() -> tradeNos.stream().allMatch(this::isCredited));
  }

  @Override
  public void close() {
    try {
      service.close();
    } finally {
      try {
        kafka.close();
      } finally {
        if (network != null) {
          network.close();
        }
        if (ownRedis != null) {
          ownRedis.close();
        }
      }
    }
  }
}
