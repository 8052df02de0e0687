package hongbao.redis.payout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import hongbao.core.grab.ArmedPacket;
import hongbao.core.grab.GrabAttempt;
import hongbao.core.grab.GrabOutcome;
import hongbao.core.money.Amount;
import hongbao.core.packet.Packet;
import hongbao.core.packet.PacketType;
import hongbao.core.payout.DeadLetter;
import hongbao.core.payout.PayoutTask;
import hongbao.redis.RedisKeys;
import hongbao.redis.RedisLink;
import hongbao.redis.TestRedis;
import hongbao.redis.grab.RedisGrabStore;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class RedisPayoutQueueTest {

  static final Instant T0 = Instant.now().truncatedTo(ChronoUnit.SECONDS);
  static final Duration NO_WAIT = Duration.ZERO;

  RedisLink connection;
  RedisKeys keys;
  RedisGrabStore store;
  RedisPayoutQueue queue;

  /** The Redis under test: one server here, a cluster in {@link ClusterRedisPayoutQueueTest}. */
  RedisLink redis() {
    return TestRedis.link();
  }

  @BeforeEach
  void setUp() {
    connection = redis();
    keys = TestRedis.freshKeys(8);
    store = new RedisGrabStore(connection, keys, Duration.ofDays(1));
    queue = new RedisPayoutQueue(connection, keys);
  }

  @AfterEach
  void cleanUp() {
    queue.close();
    TestRedis.deleteAll(connection, keys);
  }

  /** Arms a packet of equal shares and has each user grab one; returns the packet id. */
  long grabbed(long share, String... users) {
    long id = TestRedis.newPacketId();
    long[] shares = LongStream.generate(() -> share).limit(users.length).toArray();
    var packet =
        new Packet(
            id,
            "sender",
            PacketType.FIXED,
            Amount.fen(share * users.length),
            users.length,
            null,
            null,
            List.of(),
            T0,
            T0.plusSeconds(3_600));
    store.arm(new ArmedPacket(packet, LongStream.of(shares).mapToObj(Amount::fen).toList()), T0);
    for (String user : users) {
      GrabOutcome outcome =
          store
              .grab(new GrabAttempt(id, user, null, T0.plusSeconds(1)))
              .toCompletableFuture()
              .join();
      assertThat(outcome).isInstanceOf(GrabOutcome.Grabbed.class);
    }
    return id;
  }

  @Test
  void poll_returnsTheGrabsAsTasks_andAckRemovesThemAndClearsPending() {
    String alice = TestRedis.newUserId("alice");
    String bob = TestRedis.newUserId("bob");
    long id = grabbed(25, alice, bob);
    await()
        .until(
            () -> store.pendingOf(alice).containsKey(id) && store.pendingOf(bob).containsKey(id));
    assertThat(queue.backlog()).isEqualTo(2);

    List<PayoutTask> tasks = queue.poll("worker-1", 10, Duration.ofSeconds(1));

    assertThat(tasks).hasSize(2);
    assertThat(tasks)
        .extracting(PayoutTask::packetId, PayoutTask::userId, PayoutTask::amount)
        .containsExactlyInAnyOrder(
            org.assertj.core.groups.Tuple.tuple(id, alice, Amount.fen(25)),
            org.assertj.core.groups.Tuple.tuple(id, bob, Amount.fen(25)));
    assertThat(tasks).allMatch(t -> t.grabbedAt().equals(T0.plusSeconds(1)));
    assertThat(queue.backlog()).isEqualTo(2);

    queue.ack(tasks);

    assertThat(queue.backlog()).isZero();
    assertThat(connection.sync().xlen(keys.payoutsOf(id))).isZero();
    assertThat(store.pendingOf(alice)).isEmpty();
    assertThat(store.pendingOf(bob)).isEmpty();
    assertThat(queue.poll("worker-1", 10, Duration.ofMillis(20))).isEmpty();
    assertThat(queue.reclaim("worker-2", Duration.ZERO, 5, 10)).isEmpty();
  }

  @Test
  void ack_clearsEachPaidGrabsOwnPendingEntry_andAgainClearsNothingMore() {
    String carol = TestRedis.newUserId("carol");
    String dave = TestRedis.newUserId("dave");
    long first = grabbed(10, carol, dave);
    long second = grabbed(20, carol);
    await()
        .until(
            () ->
                store.pendingOf(carol).keySet().containsAll(List.of(first, second))
                    && store.pendingOf(dave).containsKey(first));
    var tasks = new ArrayList<PayoutTask>();
    for (int polls = 0; polls < 10 && tasks.size() < 3; polls++) {
      tasks.addAll(queue.poll("worker-1", 10, Duration.ofMillis(200)));
    }
    assertThat(tasks).hasSize(3);
    // One batch of two users and two packets: carol's grab of the second, dave's of the first.
    List<PayoutTask> paid =
        tasks.stream().filter(t -> t.userId().equals(carol) == (t.packetId() == second)).toList();
    assertThat(paid).hasSize(2);

    queue.ack(paid);

    assertThat(store.pendingOf(carol))
        .as("carol's grab of the first packet is not paid yet")
        .isEqualTo(Map.of(first, Amount.fen(10)));
    assertThat(store.pendingOf(dave)).isEmpty();

    queue.ack(paid); // a reclaimed batch acknowledged a second time
    assertThat(store.pendingOf(carol)).isEqualTo(Map.of(first, Amount.fen(10)));

    queue.ack(tasks.stream().filter(t -> !paid.contains(t)).toList());
    assertThat(store.pendingOf(carol)).isEmpty();
    assertThat(queue.backlog()).isZero();
  }

  @Test
  void poll_whenShardsHoldMoreThanMax_returnsAtMostMaxAndTheRestLater() {
    var expected = new ArrayList<String>();
    for (int p = 0; p < 5; p++) {
      String a = TestRedis.newUserId("a");
      String b = TestRedis.newUserId("b");
      long id = grabbed(3, a, b);
      expected.add(id + "/" + a);
      expected.add(id + "/" + b);
    }

    var seen = new ArrayList<String>();
    for (int round = 0; round < 10 && seen.size() < expected.size(); round++) {
      List<PayoutTask> batch = queue.poll("worker-1", 3, NO_WAIT);
      assertThat(batch).hasSizeLessThanOrEqualTo(3);
      batch.forEach(t -> seen.add(t.packetId() + "/" + t.userId()));
      queue.ack(batch);
    }

    assertThat(seen).containsExactlyInAnyOrderElementsOf(expected);
    assertThat(queue.backlog()).isZero();
  }

  @Test
  void poll_whenAGrabArrivesDuringTheWait_returnsIt() {
    var polling =
        CompletableFuture.supplyAsync(() -> queue.poll("worker-1", 10, Duration.ofSeconds(10)));
    String user = TestRedis.newUserId("late");
    long id = grabbed(9, user);

    List<PayoutTask> tasks = polling.orTimeout(15, java.util.concurrent.TimeUnit.SECONDS).join();
    assertThat(tasks)
        .extracting(PayoutTask::packetId, PayoutTask::userId)
        .containsExactly(org.assertj.core.groups.Tuple.tuple(id, user));
  }

  @Test
  void reclaim_whenAConsumerLeavesABatchUnacked_anotherTakesItOverAfterMinIdle() {
    grabbed(4, "u1", "u2", "u3");
    List<PayoutTask> lost = queue.poll("dead-worker", 10, NO_WAIT);
    assertThat(lost).hasSize(3);

    Duration minIdle = Duration.ofMillis(300);
    assertThat(queue.reclaim("rescuer", Duration.ofMinutes(5), 5, 10)).isEmpty();
    var rescued = new ArrayList<PayoutTask>();
    await()
        .atMost(Duration.ofSeconds(5))
        .until(
            () -> {
              rescued.addAll(queue.reclaim("rescuer", minIdle, 5, 10));
              return rescued.size() >= 3;
            });

    assertThat(rescued).extracting(PayoutTask::userId).containsExactlyInAnyOrder("u1", "u2", "u3");
    var pending = connection.sync().xpending(keys.payoutsOf(lost.get(0).packetId()), "payout");
    assertThat(pending.getConsumerMessageCount()).isEqualTo(Map.of("rescuer", 3L));

    queue.ack(rescued);
    assertThat(queue.backlog()).isZero();
    assertThat(queue.reclaim("rescuer", Duration.ZERO, 5, 10)).isEmpty();
  }

  @Test
  void reclaim_whenDeliveredMoreThanMaxDeliveries_movesTheTaskToDeadLetters() {
    long id = grabbed(11, "poison");
    int maxDeliveries = 2;
    assertThat(queue.poll("w1", 10, NO_WAIT)).hasSize(1); // delivery 1
    assertThat(queue.reclaim("w2", Duration.ZERO, maxDeliveries, 10)).hasSize(1); // delivery 2
    assertThat(queue.reclaim("w3", Duration.ZERO, maxDeliveries, 10)).hasSize(1); // delivery 3

    assertThat(queue.reclaim("w4", Duration.ZERO, maxDeliveries, 10)).isEmpty();

    List<PayoutTask> dead = queue.deadLetters(10).stream().map(DeadLetter::task).toList();
    assertThat(dead)
        .extracting(PayoutTask::packetId, PayoutTask::userId, PayoutTask::amount)
        .containsExactly(org.assertj.core.groups.Tuple.tuple(id, "poison", Amount.fen(11)));
    assertThat(queue.backlog()).isZero();
    assertThat(connection.sync().xpending(keys.payoutsOf(id), "payout").getCount()).isZero();
    assertThat(queue.reclaim("w5", Duration.ZERO, maxDeliveries, 10)).isEmpty();
    assertThat(queue.deadLetters(10)).hasSize(1);
  }

  @Test
  void backlog_countsUndeliveredAndUnackedTasks() {
    grabbed(2, "a", "b", "c", "d");
    assertThat(queue.backlog()).isEqualTo(4);
    List<PayoutTask> some = queue.poll("w1", 2, NO_WAIT);
    assertThat(queue.backlog()).isEqualTo(4);
    queue.ack(some);
    assertThat(queue.backlog()).isEqualTo(2);
  }

  @Test
  void ack_ofTheHead_leavesTheTasksNotYetDelivered() {
    long id = grabbed(2, "a", "b", "c", "d");
    List<PayoutTask> first = queue.poll("w1", 2, NO_WAIT);

    queue.ack(first);

    assertThat(connection.sync().xlen(keys.payoutsOf(id))).isEqualTo(2);
    List<PayoutTask> rest = queue.poll("w1", 10, NO_WAIT);
    assertThat(rest).extracting(PayoutTask::userId).containsExactly("c", "d");
    queue.ack(rest);
    assertThat(connection.sync().xlen(keys.payoutsOf(id))).isZero();
  }

  @Test
  void ack_ofANewerBatchWhileAnOlderIsPending_removesOnlyTheNewer() {
    long id = grabbed(2, "a", "b", "c", "d");
    List<PayoutTask> older = queue.poll("w1", 2, NO_WAIT);
    List<PayoutTask> newer = queue.poll("w2", 2, NO_WAIT);
    assertThat(newer).extracting(PayoutTask::userId).containsExactly("c", "d");

    queue.ack(newer);

    assertThat(queue.backlog()).isEqualTo(2);
    assertThat(connection.sync().xlen(keys.payoutsOf(id))).isEqualTo(2);
    List<PayoutTask> rescued = queue.reclaim("w3", Duration.ZERO, 5, 10);
    assertThat(rescued).extracting(PayoutTask::userId).containsExactly("a", "b");
    assertThat(rescued)
        .extracting(PayoutTask::deliveryTag)
        .containsExactlyElementsOf(older.stream().map(PayoutTask::deliveryTag).toList());
    queue.ack(rescued);
    assertThat(connection.sync().xlen(keys.payoutsOf(id))).isZero();
    assertThat(queue.poll("w1", 10, NO_WAIT)).isEmpty();
  }

  @Test
  void ack_ofAnOlderBatchAfterTheNewer_trimsBoth() {
    long id = grabbed(2, "a", "b", "c", "d", "e");
    List<PayoutTask> older = queue.poll("w1", 2, NO_WAIT);
    List<PayoutTask> newer = queue.poll("w2", 2, NO_WAIT);
    queue.ack(newer);

    queue.ack(older);

    assertThat(queue.backlog()).isEqualTo(1);
    assertThat(queue.poll("w1", 10, NO_WAIT)).extracting(PayoutTask::userId).containsExactly("e");
    assertThat(connection.sync().xlen(keys.payoutsOf(id))).isEqualTo(1);
  }

  @Test
  void constructor_whenGroupsExist_isFine() {
    grabbed(5, "x");
    try (var second = new RedisPayoutQueue(connection, keys)) {
      assertThat(second.poll("w", 10, NO_WAIT)).hasSize(1);
    }
  }

  @Test
  void poll_withTheDefaultThousandShards_findsATaskOnAnyShard() {
    RedisKeys wide = TestRedis.freshKeys(RedisKeys.DEFAULT_SHARDS);
    var wideStore = new RedisGrabStore(connection, wide, Duration.ofDays(1));
    try (var wideQueue = new RedisPayoutQueue(connection, wide)) {
      long id = TestRedis.newPacketId();
      var packet =
          new Packet(
              id,
              "s",
              PacketType.FIXED,
              Amount.fen(10),
              1,
              null,
              null,
              List.of(),
              T0,
              T0.plusSeconds(60));
      wideStore.arm(new ArmedPacket(packet, List.of(Amount.fen(10))), T0);
      wideStore.grab(new GrabAttempt(id, "w", null, T0)).toCompletableFuture().join();

      assertThat(wideQueue.backlog()).isEqualTo(1);
      List<PayoutTask> tasks = wideQueue.poll("w", 10, Duration.ofSeconds(1));
      assertThat(tasks).extracting(PayoutTask::packetId).containsExactly(id);
      wideQueue.ack(tasks);
      assertThat(wideQueue.backlog()).isZero();
    } finally {
      TestRedis.deleteAll(connection, wide);
    }
  }

  @Test
  void poll_afterTheStreamsAndGroupsWereLost_makesThemAgain() {
    grabbed(5, "before");
    TestRedis.deleteAll(connection, keys);
    long id = grabbed(7, "after");

    List<PayoutTask> tasks = queue.poll("w1", 10, NO_WAIT);

    assertThat(tasks).extracting(PayoutTask::userId).containsExactly("after");
    assertThat(tasks.get(0).packetId()).isEqualTo(id);
    queue.ack(tasks);
    assertThat(queue.backlog()).isZero();
  }

  @Test
  void deadLetter_ofOneTask_movesItAtOnceWithItsReason() {
    grabbed(5, "refused", "fine");
    List<PayoutTask> tasks = queue.poll("w1", 10, NO_WAIT);
    PayoutTask refused =
        tasks.stream().filter(t -> t.userId().equals("refused")).findFirst().orElseThrow();

    queue.deadLetter(refused, "the books refuse");

    assertThat(queue.deadLetters(10))
        .singleElement()
        .satisfies(
            d -> {
              assertThat(d.task().userId()).isEqualTo("refused");
              assertThat(d.reason()).isEqualTo("the books refuse");
            });
    assertThat(queue.backlog()).isEqualTo(1);
  }

  @Test
  void redrive_sendsADeadLetterBackAsItWas_once_andNothingElse() {
    grabbed(5, "refused", "fine");
    List<PayoutTask> tasks = queue.poll("w1", 10, NO_WAIT);
    PayoutTask refused =
        tasks.stream().filter(t -> t.userId().equals("refused")).findFirst().orElseThrow();
    queue.ack(tasks.stream().filter(t -> t != refused).toList());
    queue.deadLetter(refused, "the books refuse");
    String id = queue.deadLetters(10).getFirst().id();
    assertThat(queue.backlog()).isZero();

    assertThat(queue.redrive(id)).isTrue();
    assertThat(queue.redrive(id)).as("moved once").isFalse();
    assertThat(queue.deadLetters(10)).isEmpty();
    List<PayoutTask> again = queue.poll("w2", 10, NO_WAIT);
    assertThat(again)
        .singleElement()
        .satisfies(
            t -> {
              assertThat(t.packetId()).isEqualTo(refused.packetId());
              assertThat(t.userId()).isEqualTo("refused");
              assertThat(t.amount()).isEqualTo(refused.amount());
              assertThat(t.grabbedAt()).isEqualTo(refused.grabbedAt());
            });
    queue.ack(again);
    assertThat(queue.backlog()).isZero();

    // Only a dead letter of this install's streams is one.
    String stream = id.split(" ")[0];
    assertThat(queue.redrive(stream.replace(":dead", "") + " " + id.split(" ")[1])).isFalse();
    assertThat(queue.redrive("other:{s000}:payouts:dead 1-0")).isFalse();
    assertThat(queue.redrive(stream + " 1-0")).isFalse();
    assertThat(queue.redrive(stream + " not-an-id")).isFalse();
    assertThat(queue.redrive("")).isFalse();
  }

  @Test
  void removeIdleConsumers_forgetsConsumersHoldingNothing_keepsThoseHoldingTasks() {
    grabbed(5, "u1", "u2");
    List<PayoutTask> held = queue.poll("holder", 1, NO_WAIT);
    assertThat(held).hasSize(1);
    queue.ack(queue.poll("idle", 1, NO_WAIT));

    int removed = queue.removeIdleConsumers(Duration.ZERO);

    assertThat(removed).isEqualTo(1);
    var consumers =
        connection.sync().xinfoConsumers(keys.payoutsOf(held.get(0).packetId()), "payout");
    assertThat(consumers.toString()).contains("name, holder").doesNotContain("name, idle");
  }

  @Test
  void removeIdleConsumers_keepsTheRecentlyActive_andPassesOverALostStream() {
    long packet = grabbed(5, "u1");
    queue.ack(queue.poll("recent", 1, NO_WAIT));
    String lost =
        keys.allPayoutStreams().stream()
            .filter(stream -> !stream.equals(keys.payoutsOf(packet)))
            .findFirst()
            .orElseThrow();
    connection.sync().del(lost);

    assertThat(queue.removeIdleConsumers(Duration.ofHours(1))).as("idle for less").isZero();
    assertThat(queue.removeIdleConsumers(Duration.ZERO)).isEqualTo(1);
    assertThat(connection.sync().xinfoConsumers(keys.payoutsOf(packet), "payout")).isEmpty();
  }
}
