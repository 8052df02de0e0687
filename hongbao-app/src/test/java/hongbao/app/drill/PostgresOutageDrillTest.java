package hongbao.app.drill;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import hongbao.app.Parts;
import hongbao.app.embedded.EmbeddedRedis;
import hongbao.app.support.Api;
import hongbao.app.support.Backends;
import hongbao.app.support.LogCapture;
import hongbao.app.support.TestService;
import hongbao.core.money.Amount;
import hongbao.testkit.FreezableProxy;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Drill "postgres-outage": PostgreSQL stops answering (a paused VM, a dropped route: connections
 * stay open, nothing comes back) while a packet is raced for. Grabs need only Redis and go on; the
 * payout workers keep their batches through the outage, the reclaimer takes over the ones left
 * waiting and keeps them too, and once the database answers again every share is paid exactly once.
 * The outage outlasts the redelivery limit many times over (2 deliveries, reclaimed after 1 s
 * idle): a task held through an outage is not a poisoned one, and none is dead-lettered.
 */
class PostgresOutageDrillTest {

  private static final String DRILL = "postgres-outage";
  private static final int SHARES = 40;
  private static final long SHARE = 25;
  private static final int MAX_DELIVERIES = 2;
  private static final Duration RECLAIM_IDLE = Duration.ofSeconds(1);

  private EmbeddedRedis redis;
  private FreezableProxy postgres;
  private TestService service;

  @BeforeEach
  void start() {
    redis = EmbeddedRedis.start();
    String jdbcUrl = Backends.embedded().jdbcUrl();
    URI jdbc = URI.create(jdbcUrl.substring("jdbc:".length()));
    postgres = FreezableProxy.to(jdbc.getHost(), jdbc.getPort());
    String proxied = jdbcUrl.replace(":" + jdbc.getPort() + "/", ":" + postgres.port() + "/");
    service =
        TestService.start(
            new Backends(DRILL, redis.url(), proxied, Drills.schema(DRILL)),
            Map.of(
                "HONGBAO_MAX_DELIVERIES", Integer.toString(MAX_DELIVERIES),
                "HONGBAO_RECLAIM_IDLE_MILLIS", Long.toString(RECLAIM_IDLE.toMillis()),
                "HONGBAO_JDBC_CONNECT_TIMEOUT_MILLIS", "2000",
                "HONGBAO_JDBC_SOCKET_TIMEOUT_MILLIS", "3000",
                "HONGBAO_JDBC_STATEMENT_TIMEOUT_MILLIS", "2000"),
            true);
  }

  @AfterEach
  void stop() {
    postgres.thaw();
    try {
      service.close();
    } finally {
      postgres.close();
      redis.close();
    }
  }

  @Test
  void postgresSilent_grabsGoOn_payoutsWaitItOut_andEveryShareIsPaidOnce() throws Exception {
    Api api = service.api();
    Parts parts = service.hongbao().parts();
    String run = Long.toString(System.nanoTime(), 36);
    String sender = "po-sender-" + run;
    api.topUp(sender, SHARES * SHARE);
    String packetId = Drills.sendFixed(api, sender, SHARES * SHARE, SHARES, 600);

    try (var logs = new LogCapture()) {
      postgres.freeze();
      // Twice as many users as shares, each asking twice at once.
      List<String> users = new ArrayList<>();
      List<CompletableFuture<Api.Response>> answers = new ArrayList<>();
      for (int u = 0; u < 2 * SHARES; u++) {
        String user = "po-user-" + u + "-" + run;
        users.add(user);
        String token = api.token(user);
        answers.add(api.grabAsync(token, packetId));
        answers.add(api.grabAsync(token, packetId));
      }
      Map<String, Long> outcomes =
          answers.stream()
              .map(CompletableFuture::join)
              .peek(answer -> assertThat(answer.status()).as(answer.raw()).isEqualTo(200))
              .collect(
                  Collectors.groupingBy(
                      answer -> answer.json().getString("outcome"), Collectors.counting()));
      assertThat(outcomes.get("GRABBED")).isEqualTo(SHARES);

      // A worker met the outage with a batch in hand, and the reclaimer took over what it left
      // waiting and met the outage too. Then the outage lasts well past the redelivery limit: in
      // real time, as Redis counts a task's idle time by its own clock.
      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> failed(logs, "payout-[0-9]+") && failed(logs, "payout-reclaim"));
      Duration outage = RECLAIM_IDLE.multipliedBy(3L * MAX_DELIVERIES);
      await("every task kept waiting, none dead-lettered, through the outage")
          .during(outage)
          .atMost(outage.plusSeconds(2))
          .until(() -> parts.queue().backlog() == SHARES && parts.queue().deadLetters(1).isEmpty());
      postgres.thaw();
    }

    Drills.drained(parts);
    Map<String, Amount> paid = Drills.paid(parts, packetId);
    assertThat(paid)
        .hasSize(SHARES)
        .allSatisfy((user, amount) -> assertThat(amount.fen()).isEqualTo(SHARE));
    for (String user : paid.keySet()) {
      var wallet = api.get("/api/v1/wallet", api.token(user)).json();
      assertThat(wallet.getLong("balance")).as(user).isEqualTo(SHARE);
      assertThat(wallet.getLong("pendingAmount")).as(user).isZero();
    }
    assertThat(parts.queue().deadLetters(100)).isEmpty();
    service.assertReconciled();
  }

  /** A background loop whose name matches {@code loop} logged a failure it will retry. */
  private static boolean failed(LogCapture logs, String loop) {
    var failure = java.util.regex.Pattern.compile(loop + " failed, retrying .*");
    return logs.events().stream()
        .anyMatch(
            event ->
                event.getLevel() == Level.WARN
                    && failure.matcher(event.getFormattedMessage()).matches());
  }
}
