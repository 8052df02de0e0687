package hongbao.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import hongbao.core.grab.ArmResult;
import hongbao.core.grab.ArmedPacket;
import hongbao.core.grab.Closing;
import hongbao.core.grab.GrabAttempt;
import hongbao.core.grab.GrabOutcome;
import hongbao.core.grab.GrabRecord;
import hongbao.core.grab.PacketState;
import hongbao.core.grab.Recovered;
import hongbao.core.money.Amount;
import hongbao.core.ops.Switch;
import hongbao.core.packet.Packet;
import hongbao.core.packet.PacketType;
import hongbao.core.payout.PayoutTask;
import hongbao.redis.cluster.SlotMigration;
import hongbao.redis.grab.RedisGrabStore;
import hongbao.redis.ops.RedisSwitches;
import hongbao.redis.payout.RedisPayoutQueue;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.models.partitions.ClusterPartitionParser;
import io.lettuce.core.cluster.models.partitions.Partitions;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The adapters on a cluster of three masters: scripts reach every master, every packet operation
 * works whichever master holds the packet, the generation is the masters' run ids, and a grab on a
 * slot caught half-moved waits for the move instead of failing.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RedisClusterTest {

  static final Instant T0 = Instant.now().truncatedTo(ChronoUnit.SECONDS);

  RedisLink cluster;
  RedisClient nodeClient;
  RedisKeys keys;
  RedisGrabStore store;

  @BeforeAll
  void connect() {
    cluster = TestRedis.cluster();
    nodeClient = RedisClient.create();
  }

  @AfterAll
  void shutdown() {
    nodeClient.shutdown();
  }

  @BeforeEach
  void setUp() {
    keys = TestRedis.freshKeys(RedisKeys.DEFAULT_SHARDS);
    store = new RedisGrabStore(cluster, keys, Duration.ofDays(1));
  }

  @AfterEach
  void cleanUp() {
    TestRedis.deleteAll(cluster, keys);
  }

  private <T> List<T> onEveryMaster(Function<StatefulRedisConnection<String, String>, T> call) {
    var results = new ArrayList<T>();
    for (RedisURI node : TestRedis.clusterNodes()) {
      try (var connection = nodeClient.connect(node)) {
        results.add(call.apply(connection));
      }
    }
    return results;
  }

  private Partitions partitions() {
    return onEveryMaster(c -> ClusterPartitionParser.parse(c.sync().clusterNodes())).getFirst();
  }

  private long armed(PacketType type, long share, int count, Instant expiresAt) {
    long id = TestRedis.newPacketId();
    var packet =
        new Packet(
            id,
            "sender",
            type,
            Amount.fen(share * count),
            count,
            null,
            null,
            List.of(),
            T0,
            expiresAt);
    List<Amount> shares = LongStream.range(0, count).mapToObj(i -> Amount.fen(share)).toList();
    assertThat(store.arm(new ArmedPacket(packet, shares), T0)).isEqualTo(ArmResult.ARMED);
    return id;
  }

  private GrabOutcome grab(long id, String user, Instant at) {
    return store
        .grab(new GrabAttempt(id, user, null, at))
        .toCompletableFuture()
        .orTimeout(10, TimeUnit.SECONDS)
        .join();
  }

  @Test
  void scripts_areLoadedOnEveryMaster() {
    String sha = LuaScript.fromResource("grab.lua").sha();
    assertThat(onEveryMaster(c -> c.sync().scriptExists(sha).getFirst()))
        .hasSize(TestRedis.CLUSTER_MASTERS)
        .containsOnly(true);
  }

  @Test
  void everyPacketOperation_worksWhicheverMasterHoldsThePacket() {
    Partitions partitions = partitions();
    Set<String> owners = new HashSet<>();
    var packets = new ArrayList<Long>();
    for (int i = 0; i < 60 && owners.size() < TestRedis.CLUSTER_MASTERS; i++) {
      long id = armed(PacketType.FIXED, 5, 3, T0.plusSeconds(60));
      packets.add(id);
      owners.add(partitions.getPartitionBySlot(SlotHash.getSlot(keys.meta(id))).getNodeId());
    }
    assertThat(owners).hasSize(TestRedis.CLUSTER_MASTERS);

    for (long id : packets) {
      assertThat(grab(id, "alice", T0.plusSeconds(1))).isInstanceOf(GrabOutcome.Grabbed.class);
      assertThat(grab(id, "alice", T0.plusSeconds(1)))
          .isEqualTo(new GrabOutcome.AlreadyGrabbed(Amount.fen(5)));
      List<Recovered> claimed =
          store.recover(
              id, List.of(new GrabRecord("bob", Amount.fen(5), T0.plusSeconds(2), 1)), true);
      assertThat(claimed.getFirst()).isInstanceOf(Recovered.Done.class);
      PacketState state = store.state(id).orElseThrow();
      assertThat(state.grabs()).extracting(GrabRecord::userId).containsExactly("alice", "bob");
      assertThat(store.close(id, null, Amount.ZERO, T0.plusSeconds(61)))
          .isEqualTo(new Closing.Closed(Amount.fen(5)));
    }
    try (var queue = new RedisPayoutQueue(cluster, keys)) {
      var tasks = new ArrayList<PayoutTask>();
      for (int round = 0; round < 20 && tasks.size() < 2 * packets.size(); round++) {
        tasks.addAll(queue.poll("w", 1_000, Duration.ofMillis(100)));
      }
      assertThat(tasks).hasSize(2 * packets.size());
      queue.ack(tasks);
      assertThat(queue.backlog()).isZero();
    }
  }

  @Test
  void generation_isTheSortedRunIdsOfEveryMaster() {
    var runIds = new TreeSet<String>();
    onEveryMaster(c -> RedisLink.runId(c.sync().info("server"))).forEach(runIds::add);

    assertThat(runIds).hasSize(TestRedis.CLUSTER_MASTERS);
    assertThat(store.generation()).isEqualTo(String.join(",", runIds));
  }

  /**
   * A key's generation asks only the master serving its slot, and is that master's run id. The
   * link's view of the slots is the one it loaded when it connected, refreshed every few seconds:
   * right after the cluster formed it may lag the nodes' own, so the comparison may take a refresh.
   */
  @Test
  void generationOfAKey_isTheRunIdOfTheMasterServingItsSlot() {
    await()
        .atMost(Duration.ofSeconds(20))
        .pollInterval(Duration.ofMillis(500))
        .untilAsserted(
            () -> {
              Partitions partitions = partitions();
              var runIds = new TreeSet<String>();
              for (long activity = 1; activity <= 64; activity++) {
                String key = keys.activityGrabs(activity);
                var master = partitions.getMasterBySlot(SlotHash.getSlot(key));
                String servedBy;
                try (var connection = nodeClient.connect(master.getUri())) {
                  servedBy = RedisLink.runId(connection.sync().info("server"));
                }
                assertThat(cluster.generationOf(key)).as(key).isEqualTo(servedBy);
                runIds.add(servedBy);
              }
              assertThat(String.join(",", runIds))
                  .as("keys on every master")
                  .isEqualTo(store.generation());
            });
  }

  @Test
  void scriptsForgottenByEveryMaster_areLoadedAgainWhenNeeded() {
    onEveryMaster(c -> c.sync().scriptFlush());

    long id = armed(PacketType.FIXED, 7, 1, T0.plusSeconds(60));
    assertThat(grab(id, "carol", T0.plusSeconds(1))).isInstanceOf(GrabOutcome.Grabbed.class);
  }

  @Test
  void switches_setThroughOneInstance_reachAnother() {
    try (var elsewhere = cluster.another();
        var here = new RedisSwitches(cluster, keys, Duration.ofMillis(100));
        var there = new RedisSwitches(elsewhere, keys, Duration.ofMillis(100))) {
      here.set(Switch.GRABBING, false);
      org.awaitility.Awaitility.await()
          .atMost(Duration.ofSeconds(5))
          .until(() -> !there.enabled(Switch.GRABBING));
    }
  }

  @Test
  void grab_onASlotCaughtHalfMoved_waitsForTheMoveAndThenGrabs() throws Exception {
    long id = armed(PacketType.FIXED, 3, 2, T0.plusSeconds(60));
    int slot = SlotHash.getSlot(keys.meta(id));
    int owner = partitions().getPartitionBySlot(slot).getUri().getPort();
    RedisURI target =
        TestRedis.clusterNodes().stream()
            .filter(node -> node.getPort() != owner)
            .findFirst()
            .orElseThrow();

    CompletableFuture<GrabOutcome> waiting;
    try (var move = SlotMigration.begin(slot, TestRedis.clusterNodes(), target)) {
      assertThat(move.moveKeys(1)).isEqualTo(1); // meta and shares now on different masters
      waiting =
          store.grab(new GrabAttempt(id, "dave", null, T0.plusSeconds(1))).toCompletableFuture();
      Thread.sleep(300);
      assertThat(waiting).as("a grab on a half-moved slot waits").isNotDone();
      move.moveAllKeys(10, Duration.ZERO);
      move.finish();
    }

    GrabOutcome outcome = waiting.orTimeout(5, TimeUnit.SECONDS).join();
    assertThat(outcome).isEqualTo(new GrabOutcome.Grabbed(Amount.fen(3), 1, T0, ""));
    assertThat(grab(id, "erin", T0.plusSeconds(2))).isInstanceOf(GrabOutcome.Grabbed.class);
    assertThat(partitions().getPartitionBySlot(slot).getUri().getPort())
        .isEqualTo(target.getPort());
  }
}
