package hongbao.app.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import hongbao.app.support.Api;
import hongbao.app.support.Api.Response;
import hongbao.app.support.Backends;
import hongbao.app.support.TestService;
import hongbao.testkit.FreezableProxy;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Redis or PostgreSQL stops answering without closing anything (a dropped route, a paused VM):
 * {@code /ready} still answers within about a second, a grab fails with 503 at the Redis command
 * timeout instead of hanging, and everything heals once the dependency answers again, with the
 * books in order. (Payouts through a silent PostgreSQL: {@code PostgresOutageDrillTest}.)
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DependencyBlackHoleTest {

  private static final long READY_MILLIS = 1_000;
  private static final long REDIS_MILLIS = 1_500;

  private FreezableProxy redis;
  private FreezableProxy postgres;
  private TestService service;
  private Api api;

  @BeforeAll
  void start() {
    Backends embedded = Backends.embedded();
    URI redisUri = URI.create(embedded.redisUrl());
    redis = FreezableProxy.to(redisUri.getHost(), redisUri.getPort());
    URI jdbcUri = URI.create(embedded.jdbcUrl().substring("jdbc:".length()));
    postgres = FreezableProxy.to(jdbcUri.getHost(), jdbcUri.getPort());
    var proxied =
        new Backends(
            "proxied",
            "redis://127.0.0.1:" + redis.port(),
            embedded.jdbcUrl().replace(":" + jdbcUri.getPort() + "/", ":" + postgres.port() + "/"),
            embedded.schema(),
            // The schema's own gateway: its book holds the withdrawals other tests made there.
            embedded.gatewayUrl(),
            embedded.gatewaySecret());
    service =
        TestService.start(
            proxied,
            Map.of(
                "HONGBAO_READY_TIMEOUT_MILLIS", Long.toString(READY_MILLIS),
                "HONGBAO_REDIS_TIMEOUT_MILLIS", Long.toString(REDIS_MILLIS),
                "HONGBAO_JDBC_CONNECT_TIMEOUT_MILLIS", "2000",
                "HONGBAO_JDBC_SOCKET_TIMEOUT_MILLIS", "3000",
                "HONGBAO_JDBC_STATEMENT_TIMEOUT_MILLIS", "2000"),
            false);
    api = service.api();
  }

  @AfterEach
  void thaw() {
    redis.thaw();
    postgres.thaw();
    await().atMost(Duration.ofSeconds(30)).until(() -> api.get("/ready", null).status() == 200);
    // A request answered 503 may still have landed (a grab whose reply the silence held back):
    // whatever it did, the books must still add up.
    service.assertReconciledAfterSweeping();
  }

  @AfterAll
  void stop() {
    service.close();
    redis.close();
    postgres.close();
  }

  private Response timed(String path, String token, long maxMillis) {
    long started = System.nanoTime();
    Response response =
        path.endsWith("/grab") ? api.post(path, token, Map.of(), "{}") : api.get(path, token);
    assertThat((System.nanoTime() - started) / 1_000_000).as(path).isLessThan(maxMillis);
    return response;
  }

  @Test
  void ready_answersWithinASecond_whileRedisIsSilent() {
    assertThat(api.get("/ready", null).status()).isEqualTo(200);
    redis.freeze();
    for (int i = 0; i < 3; i++) {
      Response ready = timed("/ready", null, READY_MILLIS + 800);
      assertThat(ready.status()).isEqualTo(503);
      assertThat(ready.json().getString("status")).isEqualTo("UNAVAILABLE");
    }
    assertThat(timed("/health", null, 1_000).status()).isEqualTo(200);
  }

  @Test
  void ready_answersWithinASecond_whilePostgresIsSilent() {
    assertThat(api.get("/ready", null).status()).isEqualTo(200);
    postgres.freeze();
    for (int i = 0; i < 3; i++) {
      assertThat(timed("/ready", null, READY_MILLIS + 800).status()).isEqualTo(503);
    }
  }

  @Test
  void grab_failsAtTheRedisTimeout_whileRedisIsSilent() {
    String alice = "alice-" + UUID.randomUUID().toString().substring(0, 8);
    assertThat(api.topUp(alice, 1_000).status()).isEqualTo(200);
    String packetId = api.sendLucky(api.token(alice), 1_000, 2, 600);
    String bob = api.token("bob-" + UUID.randomUUID().toString().substring(0, 8));
    redis.freeze();
    Response grab = timed("/api/v1/packets/" + packetId + "/grab", bob, REDIS_MILLIS + 2_000);
    assertThat(grab.status()).isEqualTo(503);
    assertThat(grab.errorCode()).isEqualTo("UNAVAILABLE");
    redis.thaw();
    await()
        .atMost(Duration.ofSeconds(10))
        .untilAsserted(
            () ->
                assertThat(api.grab(bob, packetId).json().getString("outcome"))
                    .isIn("GRABBED", "ALREADY_GRABBED"));
  }
}
