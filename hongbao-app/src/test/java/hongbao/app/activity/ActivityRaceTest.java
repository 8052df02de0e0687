package hongbao.app.activity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import hongbao.app.support.Api;
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
 * An activity allowing 3 grabs per user, 10 packets of 100 shares in it, and 500 users each firing
 * one grab at every packet, all at once over HTTP: nobody gets more than 3 (by the answers, by the
 * store's counts and by the ledger), a user told LIMIT_REACHED has exactly 3, every packet hands
 * out exactly its shares and its amount, everything is paid, and the reconciler finds nothing.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ActivityRaceTest {

  private static final int LIMIT = 3;
  private static final int PACKETS = 10;
  private static final int SHARES = 100;
  private static final long AMOUNT = 100_00;
  private static final int USERS = 500;

  private TestService service;

  @BeforeAll
  void start() {
    service = TestService.start(Backends.embedded());
  }

  @AfterAll
  void stop() {
    service.close();
  }

  record Answer(String user, String packet, JsonObject body) {}

  @Test
  void fiveHundredUsersRacingAtTenPackets_nobodyGrabsMoreThanTheLimit_andTheBooksAreExact()
      throws Exception {
    Api api = service.api();
    String run = Long.toString(System.nanoTime(), 36);
    String activity = Activities.create(api, "race-" + run, LIMIT);
    String sender = "act-sender-" + run;
    api.topUp(sender, AMOUNT * PACKETS);
    List<String> packets = new ArrayList<>();
    for (int p = 0; p < PACKETS; p++) {
      packets.add(Activities.send(api, sender, activity, AMOUNT, SHARES, 600));
    }
    Map<String, String> tokens = new HashMap<>();
    List<String[]> attempts = new ArrayList<>();
    for (int u = 0; u < USERS; u++) {
      String user = "act-" + run + "-" + u;
      tokens.put(user, api.token(user));
      for (String packet : packets) {
        attempts.add(new String[] {user, packet});
      }
    }
    Collections.shuffle(attempts, new Random(42));

    List<Answer> answers = Collections.synchronizedList(new ArrayList<>());
    var start = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(64);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (String[] attempt : attempts) {
        done.add(
            pool.submit(
                () -> {
                  start.await();
                  Api.Response response = api.grab(tokens.get(attempt[0]), attempt[1]);
                  assertThat(response.status()).as(response.raw()).isEqualTo(200);
                  answers.add(new Answer(attempt[0], attempt[1], response.json()));
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
    assertThat(answers).hasSize(USERS * PACKETS);

    Map<String, Integer> grabbedByUser = new ConcurrentHashMap<>();
    Map<String, Long> amountByPacket = new HashMap<>();
    Map<String, Integer> sharesByPacket = new HashMap<>();
    Map<String, Boolean> limitedUser = new HashMap<>();
    for (Answer answer : answers) {
      String outcome = answer.body().getString("outcome");
      switch (outcome) {
        case "GRABBED" -> {
          grabbedByUser.merge(answer.user(), 1, Integer::sum);
          sharesByPacket.merge(answer.packet(), 1, Integer::sum);
          amountByPacket.merge(answer.packet(), answer.body().getLong("amount"), Long::sum);
        }
        case "LIMIT_REACHED" -> limitedUser.put(answer.user(), true);
        default -> assertThat(outcome).as("outcome for %s", answer).isEqualTo("SOLD_OUT");
      }
    }
    assertThat(grabbedByUser.values()).allSatisfy(n -> assertThat(n).isLessThanOrEqualTo(LIMIT));
    assertThat(limitedUser.keySet())
        .allSatisfy(user -> assertThat(grabbedByUser.get(user)).isEqualTo(LIMIT));
    assertThat(limitedUser).isNotEmpty();
    // Demand (500 x 3) exceeds supply (10 x 100), so every packet sells out exactly.
    for (String packet : packets) {
      assertThat(sharesByPacket.get(packet)).as("shares of %s", packet).isEqualTo(SHARES);
      assertThat(amountByPacket.get(packet)).as("amount of %s", packet).isEqualTo(AMOUNT);
    }

    String admin = api.adminToken();
    await()
        .atMost(Duration.ofSeconds(60))
        .untilAsserted(
            () -> {
              for (String packet : packets) {
                JsonObject details = api.get("/api/v1/packets/" + packet, admin).json();
                assertThat(details.getString("status")).isEqualTo("EMPTY");
                assertThat(details.getJsonArray("grabs"))
                    .allSatisfy(g -> assertThat(((JsonObject) g).getBoolean("paid")).isTrue());
              }
            });
    assertThat(Activities.counts(api, activity, admin)).isEqualTo(grabbedByUser);
    Map<String, List<Long>> paid =
        service.hongbao().parts().database().activities().paidGrabs(Activities.number(activity));
    assertThat(paid.values()).allSatisfy(p -> assertThat(p).hasSizeLessThanOrEqualTo(LIMIT));
    assertThat(paid.values().stream().mapToInt(List::size).sum()).isEqualTo(PACKETS * SHARES);
    for (var user : grabbedByUser.entrySet()) {
      assertThat(paid.get(user.getKey())).hasSize(user.getValue());
    }
    service.assertReconciled();
  }
}
