package hongbao.app.race;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import hongbao.app.support.Api;
import hongbao.app.support.Api.Response;
import hongbao.app.support.Backends;
import hongbao.app.support.TestService;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * One packet of 100 shares, 1,000 users each sending 3 grabs at once over HTTP: exactly 100 shares
 * go out, the sum is exact, nobody gets two, and a user's racing requests all name the same amount.
 * Then every share is paid and the reconciler finds nothing.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class GrabRaceTest {

  private static final int SHARES = 100;
  private static final long AMOUNT = 100_00;
  private static final int USERS = 1_000;
  private static final int REQUESTS_PER_USER = 3;

  private TestService service;

  /** The backends under test: one Redis here, a cluster in the Cluster subclass. */
  Backends backends() {
    return Backends.embedded();
  }

  @BeforeAll
  void start() {
    service = TestService.start(backends());
  }

  @AfterAll
  void stop() {
    service.close();
  }

  @Test
  void thousandUsersRacingThreeTimesEach_getExactlyTheShares_once() throws Exception {
    Api api = service.api();
    String sender = "race-sender-" + System.nanoTime();
    api.topUp(sender, AMOUNT);
    String packetId = api.sendLucky(api.token(sender), AMOUNT, SHARES, 600);
    Map<String, String> tokens = new HashMap<>();
    List<String> attempts = new ArrayList<>();
    for (int i = 0; i < USERS; i++) {
      String user = "racer-" + i + "-" + System.nanoTime();
      tokens.put(user, api.token(user));
      for (int r = 0; r < REQUESTS_PER_USER; r++) {
        attempts.add(user);
      }
    }
    Collections.shuffle(attempts, new Random(42));

    Map<String, List<JsonObject>> answers = new ConcurrentHashMap<>();
    var start = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(64);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (String user : attempts) {
        done.add(
            pool.submit(
                () -> {
                  start.await();
                  Response response = api.grab(tokens.get(user), packetId);
                  assertThat(response.status()).isEqualTo(200);
                  answers
                      .computeIfAbsent(user, u -> Collections.synchronizedList(new ArrayList<>()))
                      .add(response.json());
                  return null;
                }));
      }
      start.countDown();
      for (Future<?> future : done) {
        future.get();
      }
    } finally {
      pool.shutdown();
    }

    long grabbed = 0;
    long sum = 0;
    Map<String, Long> shareOf = new HashMap<>();
    for (var entry : answers.entrySet()) {
      List<JsonObject> mine = entry.getValue();
      assertThat(mine).hasSize(REQUESTS_PER_USER);
      long grabbedByUser =
          mine.stream().filter(a -> a.getString("outcome").equals("GRABBED")).count();
      assertThat(grabbedByUser).as("GRABBED answers of %s", entry.getKey()).isLessThanOrEqualTo(1);
      List<Long> amounts =
          mine.stream()
              .filter(a -> a.containsKey("amount"))
              .map(a -> a.getLong("amount"))
              .distinct()
              .toList();
      assertThat(amounts).as("amounts named to %s", entry.getKey()).hasSizeLessThanOrEqualTo(1);
      if (grabbedByUser == 1) {
        grabbed++;
        sum += amounts.getFirst();
        shareOf.put(entry.getKey(), amounts.getFirst());
      } else {
        assertThat(mine).allSatisfy(a -> assertThat(a.getString("outcome")).isEqualTo("SOLD_OUT"));
      }
    }
    assertThat(grabbed).isEqualTo(SHARES);
    assertThat(sum).isEqualTo(AMOUNT);

    String admin = api.adminToken();
    await()
        .atMost(Duration.ofSeconds(30))
        .untilAsserted(
            () -> {
              JsonObject details = api.get("/api/v1/packets/" + packetId, admin).json();
              assertThat(details.getInteger("grabbedCount")).isEqualTo(SHARES);
              assertThat(details.getJsonArray("grabs"))
                  .allSatisfy(g -> assertThat(((JsonObject) g).getBoolean("paid")).isTrue());
            });
    for (var share : shareOf.entrySet()) {
      JsonObject wallet = api.get("/api/v1/wallet", tokens.get(share.getKey())).json();
      assertThat(wallet.getLong("balance")).isEqualTo(share.getValue());
    }
    service.assertReconciled();
  }
}
