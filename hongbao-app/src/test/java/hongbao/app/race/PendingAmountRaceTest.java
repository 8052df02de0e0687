package hongbao.app.race;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import hongbao.app.support.Api;
import hongbao.app.support.Api.Response;
import hongbao.app.support.Backends;
import hongbao.app.support.TestService;
import hongbao.http.PacketIds;
import hongbao.redis.RedisKeys;
import hongbao.redis.RedisLink;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The wallet's pendingAmount while grabs race the payout workers: users grab shares of many packets
 * at once while the workers pay in small batches and readers look at the wallets the whole time. No
 * reading is negative or counts a share both as paid and as pending (balance plus pending never
 * exceeds what the user grabbed in the end); once the workers are done every wallet shows pending 0
 * and a balance equal to the user's shares, and the reconciler finds nothing.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PendingAmountRaceTest {

  private static final int USERS = 24;
  private static final int PACKETS = 12;
  private static final long PACKET_AMOUNT = 24_00;
  private static final int GRAB_THREADS = 16;
  private static final int READER_THREADS = 4;

  /** Bounds the readers whatever the grabs' pace. */
  private static final int READS_MAX = 4_000;

  private static final Duration GRABS_MAX = Duration.ofSeconds(60);

  private TestService service;

  /** One wallet as a reader saw it. */
  private record Reading(String user, long balance, long pending) {}

  /** The backends under test: one Redis here, a cluster in the Cluster subclass. */
  Backends backends() {
    return Backends.embedded();
  }

  /**
   * On one server the grab script writes the pending entry with the payout task, so an ack always
   * finds it and the hash ends empty. On a cluster the entry follows the reply and can land after
   * its ack; the wallet's cross-check with the ledger keeps it out of pendingAmount until its TTL.
   */
  boolean pendingHashEndsEmpty() {
    return true;
  }

  @BeforeAll
  void start() {
    // Small payout batches: the workers pay while the grabs are still coming in.
    service = TestService.start(backends(), Map.of("HONGBAO_PAYOUT_BATCH", "5"), true);
  }

  @AfterAll
  void stop() {
    service.close();
  }

  @Test
  void pendingAmount_underRacingGrabsAndPayouts_neverNegativeNorCountedTwice_andEndsAtZero()
      throws Exception {
    Api api = service.api();
    String run = Long.toString(System.nanoTime(), 36);
    String sender = "pending-sender-" + run;
    api.topUp(sender, PACKET_AMOUNT * PACKETS);
    String senderToken = api.token(sender);
    var packets = new ArrayList<String>();
    for (int p = 0; p < PACKETS; p++) {
      packets.add(api.sendLucky(senderToken, PACKET_AMOUNT, USERS, 600));
    }
    var tokens = new ConcurrentHashMap<String, String>();
    var grabs = new ArrayList<String[]>();
    for (int u = 0; u < USERS; u++) {
      String user = "pending-" + run + "-" + u;
      tokens.put(user, api.token(user));
      for (String packet : packets) {
        grabs.add(new String[] {user, packet});
      }
    }
    Collections.shuffle(grabs, new Random(7));

    var grabbed = new ConcurrentHashMap<String, AtomicLong>();
    var readings = new ConcurrentLinkedQueue<Reading>();
    var stopReading = new AtomicBoolean();
    var start = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(GRAB_THREADS + READER_THREADS);
    try {
      var users = List.copyOf(tokens.keySet());
      var readers = new ArrayList<Future<?>>();
      for (int r = 0; r < READER_THREADS; r++) {
        var random = new Random(r);
        readers.add(
            pool.submit(
                () -> {
                  start.await();
                  for (int i = 0; i < READS_MAX / READER_THREADS && !stopReading.get(); i++) {
                    String user = users.get(random.nextInt(users.size()));
                    JsonObject wallet = api.get("/api/v1/wallet", tokens.get(user)).json();
                    readings.add(
                        new Reading(
                            user, wallet.getLong("balance"), wallet.getLong("pendingAmount")));
                  }
                  return null;
                }));
      }
      var grabbers = new ArrayList<Future<?>>();
      for (String[] grab : grabs) {
        grabbers.add(
            pool.submit(
                () -> {
                  start.await();
                  Response response = api.grab(tokens.get(grab[0]), grab[1]);
                  assertThat(response.status()).isEqualTo(200);
                  JsonObject answer = response.json();
                  assertThat(answer.getString("outcome")).isEqualTo("GRABBED");
                  grabbed
                      .computeIfAbsent(grab[0], u -> new AtomicLong())
                      .addAndGet(answer.getLong("amount"));
                  return null;
                }));
      }
      start.countDown();
      for (Future<?> grab : grabbers) {
        grab.get(GRABS_MAX.toSeconds(), TimeUnit.SECONDS);
      }
      // The readers go on while the workers drain the last tasks: every grab is known by then,
      // so a share counted both as paid and as pending would push a wallet past its total.
      await()
          .atMost(Duration.ofSeconds(30))
          .untilAsserted(
              () -> {
                for (var user : tokens.entrySet()) {
                  JsonObject wallet = api.get("/api/v1/wallet", user.getValue()).json();
                  assertThat(wallet.getLong("pendingAmount"))
                      .as("pending of " + user.getKey())
                      .isZero();
                  assertThat(wallet.getLong("balance"))
                      .as("balance of " + user.getKey())
                      .isEqualTo(grabbed.get(user.getKey()).get());
                }
              });
      stopReading.set(true);
      for (Future<?> reader : readers) {
        reader.get(GRABS_MAX.toSeconds(), TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }

    assertThat(grabbed.values().stream().mapToLong(AtomicLong::get).sum())
        .isEqualTo(PACKET_AMOUNT * PACKETS);
    assertThat(readings).as("wallets read while grabs and payouts raced").isNotEmpty();
    for (Reading reading : readings) {
      long total = grabbed.get(reading.user()).get();
      assertThat(reading.pending()).as("%s", reading).isNotNegative();
      assertThat(reading.balance() + reading.pending())
          .as("%s, who grabbed %s in all", reading, total)
          .isLessThanOrEqualTo(total);
    }

    // The race a cluster can lose: a pending entry written after its share was paid and acked.
    // The wallet must not count it, however long it lingers.
    String late = tokens.keySet().iterator().next();
    long packet = new PacketIds(PacketIds.DEFAULT_ALPHABET).decode(packets.getFirst());
    try (RedisLink redis = RedisLink.open(backends().redisUrl())) {
      redis.sync().hset(RedisKeys.defaults().pending(late), Long.toString(packet), "1");
      JsonObject wallet = api.get("/api/v1/wallet", tokens.get(late)).json();
      assertThat(wallet.getLong("pendingAmount")).as("a paid share's late entry").isZero();
      assertThat(wallet.getLong("balance")).isEqualTo(grabbed.get(late).get());
      redis.sync().hdel(RedisKeys.defaults().pending(late), Long.toString(packet));
    }
    if (pendingHashEndsEmpty()) {
      for (String user : tokens.keySet()) {
        assertThat(service.hongbao().parts().store().pendingOf(user))
            .as("pending hash of %s", user)
            .isEmpty();
      }
    }
    service.assertReconciled();
  }
}
