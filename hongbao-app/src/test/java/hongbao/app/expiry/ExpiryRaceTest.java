package hongbao.app.expiry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import hongbao.app.Parts;
import hongbao.app.support.Api;
import hongbao.app.support.Backends;
import hongbao.app.support.TestService;
import hongbao.core.Unavailable;
import hongbao.core.expiry.ExpirySweeper;
import hongbao.core.grab.GrabStore;
import hongbao.core.ledger.EntryKind;
import hongbao.core.packet.Packet;
import hongbao.http.PacketIds;
import hongbao.testkit.SimClock;
import io.vertx.core.json.JsonObject;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Expiry under races: grabs racing the sweepers around the expiry instant, and several sweepers
 * closing the same packets at once. Each packet is refunded exactly once, and what was grabbed plus
 * what was refunded is exactly the packet's amount.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ExpiryRaceTest {

  private static final long AMOUNT = 10_000_000;
  private static final int SHARES = 10_000;

  private TestService service;
  private Api api;

  /** The backends under test: one Redis here, a cluster in the Cluster subclass. */
  Backends backends() {
    return Backends.embedded();
  }

  @BeforeAll
  void start() {
    service = TestService.start(backends(), Map.of(), false);
    api = service.api();
  }

  @AfterAll
  void stop() {
    service.close();
  }

  /**
   * Refunds the packets other test classes left open that have expired since (they share these
   * backends, and no sweeper of theirs may run now): counted sweeps must find only this test's.
   */
  private void sweepOthersExpired() {
    ExpirySweeper sweeper = sweepers(1, 1_000, service.hongbao().parts().store()).getFirst();
    for (int round = 0; round < 100; round++) {
      if (sweeper.sweepOnce() == 0) {
        return;
      }
    }
  }

  private List<ExpirySweeper> sweepers(int count) {
    return sweepers(count, 100, service.hongbao().parts().store());
  }

  private List<ExpirySweeper> sweepers(int count, int batch, GrabStore store) {
    Parts parts = service.hongbao().parts();
    var sweepers = new ArrayList<ExpirySweeper>();
    for (int i = 0; i < count; i++) {
      sweepers.add(
          new ExpirySweeper(
              parts.database().packets(),
              store,
              parts.database().ledger(),
              parts.repair(),
              Clock.systemUTC(),
              batch));
    }
    return sweepers;
  }

  /**
   * Sweepers of four instances, each taking three packets a round, at once: they refund twelve
   * different packets, where reading the oldest expired packets alone gave all four the same three,
   * and the refunds went at one sweeper's pace however many instances ran.
   */
  @Test
  void fourSweepersAtOnce_eachClaimItsOwnBatch() throws Exception {
    sweepOthersExpired();
    String sender = "claim-sender-" + System.nanoTime();
    api.topUp(sender, 10_000);
    String token = api.token(sender);
    for (int i = 0; i < 12; i++) {
      api.sendLucky(token, 100, 2, 1);
    }
    Thread.sleep(1100);
    List<Integer> refunded = sweepAtOnce(sweepers(4, 3, service.hongbao().parts().store()));
    assertThat(refunded).containsExactly(3, 3, 3, 3);
    assertThat(refundsOf(sender)).isEqualTo(12);
    service.assertReconciled();
  }

  /**
   * A round stopped by an outage gives back what it had not reached: a sweeper on another instance
   * refunds those packets at once, not once the stopped round's claim lapses.
   */
  @Test
  void aRoundStoppedByAnOutage_givesItsBatchBack_toTheNextSweeper() throws Exception {
    sweepOthersExpired();
    String sender = "outage-sender-" + System.nanoTime();
    api.topUp(sender, 10_000);
    String token = api.token(sender);
    for (int i = 0; i < 5; i++) {
      api.sendLucky(token, 100, 2, 1);
    }
    Thread.sleep(1100);
    GrabStore store = service.hongbao().parts().store();
    var closes = new AtomicInteger();
    GrabStore failingSecondClose =
        (GrabStore)
            Proxy.newProxyInstance(
                GrabStore.class.getClassLoader(),
                new Class<?>[] {GrabStore.class},
                (proxy, method, args) -> {
                  if (method.getName().equals("close") && closes.incrementAndGet() == 2) {
                    throw new Unavailable("redis", "connection reset", null);
                  }
                  try {
                    return method.invoke(store, args);
                  } catch (InvocationTargetException e) {
                    throw e.getCause();
                  }
                });
    ExpirySweeper stopped = sweepers(1, 100, failingSecondClose).getFirst();
    assertThatThrownBy(stopped::sweepOnce).isInstanceOf(Unavailable.class);
    assertThat(refundsOf(sender)).isEqualTo(1);

    assertThat(sweepers(1).getFirst().sweepOnce()).isEqualTo(4);
    assertThat(refundsOf(sender)).isEqualTo(5);
    service.assertReconciled();
  }

  @Test
  void grabsRacingTwoSweepers_neverLoseOrDoubleAFen() throws Exception {
    String sender = "expiry-sender-" + System.nanoTime();
    // Many more shares than the grabbers can take before the expiry, so the race is with expiry.
    api.topUp(sender, AMOUNT);
    String token = api.token(sender);
    String packetId = api.sendLucky(token, AMOUNT, SHARES, 1);
    List<ExpirySweeper> sweepers = sweepers(2);
    Map<String, Long> grabbed = new ConcurrentHashMap<>();
    AtomicInteger expiredAnswers = new AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(10);
    var go = new CountDownLatch(1);
    long deadline = System.nanoTime() + Duration.ofMillis(2500).toNanos();
    try {
      var futures = new ArrayList<Future<?>>();
      for (int g = 0; g < 8; g++) {
        int grabber = g;
        futures.add(
            pool.submit(
                () -> {
                  go.await();
                  for (int i = 0; System.nanoTime() < deadline; i++) {
                    String user = "eg-" + grabber + "-" + i;
                    JsonObject answer = api.grab(api.token(user), packetId).json();
                    switch (answer.getString("outcome")) {
                      case "GRABBED" -> grabbed.put(user, answer.getLong("amount"));
                      case "EXPIRED" -> expiredAnswers.incrementAndGet();
                      default -> throw new AssertionError("unexpected " + answer);
                    }
                    Thread.sleep(2);
                  }
                  return null;
                }));
      }
      for (ExpirySweeper sweeper : sweepers) {
        futures.add(
            pool.submit(
                () -> {
                  go.await();
                  while (System.nanoTime() < deadline) {
                    sweeper.sweepOnce();
                    Thread.sleep(5);
                  }
                  return null;
                }));
      }
      go.countDown();
      for (Future<?> future : futures) {
        future.get();
      }
    } finally {
      stop(pool);
    }
    sweepers.forEach(ExpirySweeper::sweepOnce);

    assertThat(expiredAnswers.get()).as("grabs answered EXPIRED").isPositive();
    long grabbedSum = grabbed.values().stream().mapToLong(Long::longValue).sum();
    JsonObject details = api.get("/api/v1/packets/" + packetId, token).json();
    assertThat(details.getString("status")).isEqualTo("EXPIRED");
    assertThat(details.getLong("grabbedAmount")).isEqualTo(grabbedSum);
    assertThat(details.getLong("refundedAmount") + grabbedSum).isEqualTo(AMOUNT);
    assertThat(refundsOf(sender)).isEqualTo(1);
    drainPayouts();
    service.assertReconciled();
  }

  @Test
  void fourSweepersAtOnce_refundEachPacketOnce() throws Exception {
    sweepOthersExpired();
    String sender = "sweep-sender-" + System.nanoTime();
    api.topUp(sender, 10_000);
    String token = api.token(sender);
    List<String> packets = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      packets.add(api.sendLucky(token, 1000, 5, 1));
    }
    api.grab(api.token("sweep-grabber-" + System.nanoTime()), packets.getFirst());
    Thread.sleep(1100);
    int refundedByAll = sweepAtOnce(sweepers(4)).stream().mapToInt(Integer::intValue).sum();
    assertThat(refundedByAll).isEqualTo(packets.size());
    assertThat(refundsOf(sender)).isEqualTo(packets.size());
    drainPayouts();
    long expectedBalance =
        api.get("/api/v1/packets/" + packets.getFirst(), token).json().getLong("grabbedAmount");
    assertThat(api.get("/api/v1/wallet", token).json().getLong("balance"))
        .isEqualTo(10_000 - expectedBalance);
    service.assertReconciled();
  }

  /**
   * Arming holds a packet whose id the store already uses for another packet's state: in the store
   * first, then in the ledger. An arming that stopped between the two left the packet held in the
   * store alone, and the sweeper put it off at every round for good (its escrow never refunded, the
   * reconciler naming it without a cause). It is now marked held at expiry and refunded whole from
   * the ledger, as a held packet is.
   */
  @Test
  void aPacketHeldInTheStoreOnly_isMarkedHeld_andRefundedWholeAtExpiry() {
    String sender = "held-sender-" + System.nanoTime();
    api.topUp(sender, 1_000);
    long id =
        new PacketIds(PacketIds.DEFAULT_ALPHABET)
            .decode(api.sendLucky(api.token(sender), 100, 2, 60));
    Parts parts = service.hongbao().parts();
    Packet packet = parts.database().packets().find(id).orElseThrow();
    assertThat(parts.store().hold(id, packet.createdAt())).isTrue();
    var sweeper =
        new ExpirySweeper(
            parts.database().packets(),
            parts.store(),
            parts.database().ledger(),
            parts.repair(),
            new SimClock(Instant.now().plusSeconds(120)),
            100);

    assertThat(sweeper.sweepOnce()).isEqualTo(1);

    assertThat(refundsOf(sender)).isEqualTo(1);
    assertThat(api.get("/api/v1/wallet", api.token(sender)).json().getLong("balance"))
        .isEqualTo(1_000);
    assertThat(parts.database().packets().heldAmong(List.of(id))).containsExactly(id);
    service.assertReconciled();
  }

  /** One round of each sweeper, all started at once; what each refunded, in their order. */
  private static List<Integer> sweepAtOnce(List<ExpirySweeper> sweepers) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(sweepers.size());
    var go = new CountDownLatch(1);
    try {
      var futures = new ArrayList<Future<Integer>>();
      for (ExpirySweeper sweeper : sweepers) {
        futures.add(
            pool.submit(
                () -> {
                  go.await();
                  return sweeper.sweepOnce();
                }));
      }
      go.countDown();
      var refunded = new ArrayList<Integer>();
      for (Future<Integer> future : futures) {
        refunded.add(future.get());
      }
      return refunded;
    } finally {
      stop(pool);
    }
  }

  /** No task of a test may outlive it: a stray sweeper would refund the next test's packets. */
  private static void stop(ExecutorService pool) throws InterruptedException {
    pool.shutdownNow();
    assertThat(pool.awaitTermination(30, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
  }

  private long refundsOf(String user) {
    return service.hongbao().parts().database().ledger().wallet(user, 500).entries().stream()
        .filter(e -> e.kind() == EntryKind.REFUND)
        .count();
  }

  private void drainPayouts() {
    Parts parts = service.hongbao().parts();
    var worker =
        hongbao.app.workers.Workers.payoutWorker(
            hongbao.app.Config.from(Map.of()), parts, "expiry-test-" + System.nanoTime());
    await()
        .atMost(Duration.ofSeconds(20))
        .until(
            () -> {
              worker.payOnce();
              return parts.queue().backlog() == 0;
            });
  }
}
