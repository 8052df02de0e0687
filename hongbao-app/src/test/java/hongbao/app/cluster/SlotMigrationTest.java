package hongbao.app.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import hongbao.app.Parts;
import hongbao.app.support.Api;
import hongbao.app.support.Api.Response;
import hongbao.app.support.Backends;
import hongbao.app.support.TestService;
import hongbao.core.money.Amount;
import hongbao.http.PacketIds;
import hongbao.http.auth.Tokens;
import hongbao.redis.RedisKeys;
import hongbao.redis.cluster.SlotMigration;
import io.lettuce.core.RedisURI;
import io.lettuce.core.cluster.SlotHash;
import io.vertx.core.json.JsonObject;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Resharding under load: while grabbers empty four packets over HTTP and the payout workers pay
 * them, each packet's slot is moved from its master to another and on to a third (IMPORTING and
 * MIGRATING, MIGRATE a key at a time, SETSLOT NODE), so grabs and payout reads meet ASK, TRYAGAIN
 * and MOVED. Every grab answered GRABBED is paid exactly once, with its amount, and the books
 * reconcile.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SlotMigrationTest {

  private static final int PACKETS = 4;
  private static final int SHARES = 250;
  private static final long AMOUNT = 25_000;
  private static final int GRABBERS = 8;
  private static final int ATTEMPTS_PER_GRABBER = 2 * PACKETS * SHARES;

  private final String secret = UUID.randomUUID() + "-" + UUID.randomUUID();
  private final Tokens tokens = new Tokens(secret, Clock.systemUTC());
  private TestService service;

  @BeforeAll
  void start() {
    service =
        TestService.start(Backends.embeddedCluster(), Map.of("HONGBAO_JWT_SECRET", secret), true);
  }

  @AfterAll
  void stop() {
    service.close();
  }

  private String token(String user) {
    return tokens.mint(user, false, Duration.ofHours(1));
  }

  @Test
  void slotsMovedUnderGrabsAndPayouts_everyGrabbedShareIsPaidOnce() throws Exception {
    Api api = service.api();
    String sender = "mover-" + UUID.randomUUID().toString().substring(0, 8);
    assertThat(api.topUp(sender, PACKETS * AMOUNT).status()).isEqualTo(200);
    var packets = new ArrayList<String>();
    var slots = new LinkedHashSet<Integer>();
    var keys = new RedisKeys(RedisKeys.DEFAULT_SHARDS);
    var ids = new PacketIds(PacketIds.DEFAULT_ALPHABET);
    for (int i = 0; i < PACKETS; i++) {
      String packet = api.sendLucky(token(sender), AMOUNT, SHARES, 600);
      packets.add(packet);
      slots.add(SlotHash.getSlot(keys.meta(ids.decode(packet))));
    }
    List<RedisURI> masters = Backends.embeddedCluster().clusterMasters();
    Map<Integer, RedisURI> firstOwners = new HashMap<>();
    slots.forEach(slot -> firstOwners.put(slot, SlotMigration.owner(slot, masters)));

    Map<String, Long> grabbed = new ConcurrentHashMap<>();
    List<Response> failures = new CopyOnWriteArrayList<>();
    AtomicBoolean moving = new AtomicBoolean();
    AtomicInteger grabbedWhileMoving = new AtomicInteger();
    AtomicInteger moves = new AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(GRABBERS + 1);
    try {
      var futures = new ArrayList<Future<?>>();
      for (int g = 0; g < GRABBERS; g++) {
        int grabber = g;
        futures.add(
            pool.submit(
                () -> grab(api, packets, grabber, grabbed, failures, moving, grabbedWhileMoving)));
      }
      futures.add(pool.submit(() -> moveEachSlotTwice(slots, masters, moving, moves)));
      for (Future<?> future : futures) {
        future.get(120, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
      assertThat(pool.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
    }

    assertThat(failures).as("answers other than GRABBED or SOLD_OUT").isEmpty();
    assertThat(grabbed).hasSize(PACKETS * SHARES);
    assertThat(moves.get()).isEqualTo(2 * slots.size());
    assertThat(grabbedWhileMoving.get()).as("grabs answered while a slot moved").isPositive();
    for (int slot : slots) {
      assertThat(SlotMigration.owner(slot, masters)).isNotEqualTo(firstOwners.get(slot));
    }

    Parts parts = service.hongbao().parts();
    await()
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(200))
        .until(() -> parts.queue().backlog() == 0);
    Map<String, Long> paid = new HashMap<>();
    for (String packet : packets) {
      for (Map.Entry<String, Amount> grab :
          parts.database().packets().paidGrabs(ids.decode(packet)).entrySet()) {
        paid.put(packet + "/" + grab.getKey(), grab.getValue().fen());
      }
    }
    assertThat(paid).isEqualTo(grabbed);
    service.assertReconciled();
  }

  /** Grabs as new users, round the packets, until this grabber has seen every packet sold out. */
  private Void grab(
      Api api,
      List<String> packets,
      int grabber,
      Map<String, Long> grabbed,
      List<Response> failures,
      AtomicBoolean moving,
      AtomicInteger grabbedWhileMoving) {
    Set<String> soldOut = new LinkedHashSet<>();
    for (int i = 0; i < ATTEMPTS_PER_GRABBER && soldOut.size() < packets.size(); i++) {
      String packet = packets.get(i % packets.size());
      if (soldOut.contains(packet)) {
        continue;
      }
      String user = "mv-" + grabber + "-" + i;
      boolean duringMove = moving.get();
      Response response = api.grab(token(user), packet);
      JsonObject answer = response.status() == 200 ? response.json() : null;
      String outcome = answer == null ? "" : answer.getString("outcome");
      switch (outcome) {
        case "GRABBED" -> {
          grabbed.put(packet + "/" + user, answer.getLong("amount"));
          if (duringMove && moving.get()) {
            grabbedWhileMoving.incrementAndGet();
          }
        }
        case "SOLD_OUT" -> soldOut.add(packet);
        default -> failures.add(response);
      }
      pause(Duration.ofMillis(2)); // spreads the grabs over the moves
    }
    return null;
  }

  private static void pause(Duration duration) {
    try {
      Thread.sleep(duration);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** Moves each slot to the next master and then to the one after, a key at a time. */
  private static Void moveEachSlotTwice(
      Set<Integer> slots, List<RedisURI> masters, AtomicBoolean moving, AtomicInteger moves) {
    for (int round = 0; round < 2; round++) {
      for (int slot : slots) {
        RedisURI owner = SlotMigration.owner(slot, masters);
        RedisURI next = masters.get((masters.indexOf(owner) + 1) % masters.size());
        try (var migration = SlotMigration.begin(slot, masters, next)) {
          moving.set(true);
          migration.moveAllKeys(1, Duration.ofMillis(20));
          migration.finish();
        } finally {
          moving.set(false);
        }
        moves.incrementAndGet();
      }
    }
    return null;
  }
}
