package hongbao.app.drill;

import static hongbao.app.drill.Drills.assertRebuiltFromTheLedger;
import static hongbao.app.drill.Drills.assertReceiptsHonoured;
import static hongbao.app.drill.Drills.decode;
import static hongbao.app.drill.Drills.drained;
import static hongbao.app.drill.Drills.grab;
import static hongbao.app.drill.Drills.paid;
import static hongbao.app.drill.Drills.payouts;
import static hongbao.app.drill.Drills.sendFixed;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import hongbao.app.Parts;
import hongbao.app.embedded.EmbeddedRedisCluster;
import hongbao.app.support.Api;
import hongbao.app.support.Backends;
import hongbao.app.support.TestService;
import hongbao.core.grab.StoreRepair;
import hongbao.core.money.Amount;
import hongbao.redis.RedisKeys;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.cluster.SlotHash;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.IntPredicate;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Drill "cluster-master-loss": on a Redis Cluster of three masters, one master comes back with an
 * older state (a failover to a replica that lagged, or a restart that lost its append-only file's
 * tail: the same node, owning the same slots, with a new run id) while the other two keep theirs,
 * and the service carries on without a restart of its own. The master forgot paid grabs of a packet
 * it still holds (the repair puts them back from the ledger, so no share is sold twice), two
 * packets it never saw (rebuilt from the ledger when next touched), and the payout tasks of unpaid
 * grabs (their receipts bring them back). The reconciler finds nothing.
 */
class ClusterMasterLossDrillTest {

  /** Packets sent until one lands on the master wanted (with three masters, a third do). */
  private static final int PLACEMENT_TRIES = 60;

  private final RedisKeys keys = RedisKeys.defaults();
  @TempDir Path directory;
  private EmbeddedRedisCluster cluster;
  private TestService service;

  @BeforeEach
  void start() {
    cluster = EmbeddedRedisCluster.start(Backends.CLUSTER_MASTERS);
    try {
      String drill = "cluster-master-loss";
      service =
          TestService.start(
              new Backends(
                  drill, cluster.url(), Backends.embedded().jdbcUrl(), Drills.schema(drill)),
              Map.of(),
              true);
    } catch (RuntimeException | Error e) {
      cluster.close();
      throw e;
    }
  }

  @AfterEach
  void stop() {
    try {
      service.close();
    } finally {
      cluster.close();
    }
  }

  @Test
  void masterLoss_itsPacketsAreRebuiltFromTheLedger_noShareIsResold_receiptsAreHonoured() {
    Api api = service.api();
    Parts parts = service.hongbao().parts();
    String run = Long.toString(System.nanoTime(), 36);
    String sender = "cm-sender-" + run;
    api.topUp(sender, 1_000_000);
    long spent = 0;

    // FIXED 1000 in 10 shares, 5 of them grabbed and paid after its master's state was copied:
    // that master will come back from the copy.
    String paidPacket = sendFixed(api, sender, 1000, 10, 600);
    spent += 1000;
    int victim = masterOf(paidPacket);
    Path lagging = cluster.snapshot(victim, directory.resolve("lagging.aof"));
    for (int u = 0; u < 5; u++) {
      grab(api, "cm-" + run + "-a" + u, paidPacket);
    }
    // 900 in 3 shares on the same master; 2 grabbed, paid; it expires in ten seconds, long enough
    // for the grabs however slow finding its master is, and before the drill looks for its refund.
    // Packets sent to land there that land elsewhere expire too, and go back whole.
    List<String> strays = new ArrayList<>();
    String expiring =
        landing(port -> port == victim, () -> sendFixed(api, sender, 900, 3, 10), strays);
    spent += 900L * (strays.size() + 1);
    for (String user : List.of("cm-" + run + "-e0", "cm-" + run + "-e1")) {
      assertThat(grab(api, user, expiring).getString("outcome")).isEqualTo("GRABBED");
    }
    drained(parts);
    // 600 in 6 shares on the same master; 3 grabbed while payouts are off: their payout tasks wait
    // in the master's streams, and only their receipts will remember them once it is lost.
    payouts(parts, false);
    List<String> openStrays = new ArrayList<>();
    String unpaidPacket =
        landing(port -> port == victim, () -> sendFixed(api, sender, 600, 6, 600), openStrays);
    spent += 600L * (openStrays.size() + 1);
    List<String> receipts = new ArrayList<>();
    for (int u = 0; u < 3; u++) {
      receipts.add(grab(api, "cm-" + run + "-b" + u, unpaidPacket).getString("receipt"));
    }
    // One unpaid grab on a packet of another master: that master keeps it.
    List<String> moreStrays = new ArrayList<>();
    String survivor =
        landing(port -> port != victim, () -> sendFixed(api, sender, 600, 6, 600), moreStrays);
    spent += 600L * (moreStrays.size() + 1);
    grab(api, "cm-" + run + "-s0", survivor);

    // A service that has run a while: the repair passes of its start are spent, so only the
    // master's new run id can call for the next.
    for (int pass = 0; pass <= StoreRepair.PASSES_AFTER_RESTART; pass++) {
      parts.repair().checkOnce();
    }
    cluster.restartFrom(victim, lagging);
    awaitClusterOk();
    // The fault itself: the master forgot the unpaid grabs (nothing can put them back but their
    // receipts: the ledger never saw them); the other master kept its own.
    for (int u = 0; u < 3; u++) {
      assertThat(holdsGrab(victim, unpaidPacket, "cm-" + run + "-b" + u)).isFalse();
    }
    assertThat(holdsGrab(masterOf(survivor), survivor, "cm-" + run + "-s0")).isTrue();
    // The repair runs once it sees the master's new run id (the workers check every second); until
    // then the forgotten paid shares could be sold again, see RepairWindowDrillTest.
    await()
        .atMost(Duration.ofSeconds(20))
        .pollInterval(Duration.ofMillis(100))
        .untilAsserted(() -> assertThat(parts.repair().checkOnce()).isZero());
    payouts(parts, true);

    // Ten new users on the half-paid packet find exactly its five unpaid shares; the paid grabbers
    // are remembered from the ledger; the lost, unpaid grabs come back with their receipts.
    assertRebuiltFromTheLedger(api, "cm-" + run, paidPacket);
    assertReceiptsHonoured(api, "cm-" + run, unpaidPacket, receipts);

    // Payouts carry on on every master; the expired packet gives back exactly what the ledger did
    // not pay, the strays all of theirs.
    drained(parts);
    await()
        .atMost(Duration.ofSeconds(20))
        .pollInterval(Duration.ofMillis(100))
        .until(
            () ->
                parts.database().packets().refunded(decode(expiring)).isPositive()
                    && strays.stream()
                        .allMatch(
                            id -> parts.database().packets().refunded(decode(id)).isPositive()));
    assertThat(parts.database().packets().refunded(decode(expiring))).isEqualTo(Amount.fen(300));
    for (String stray : strays) {
      assertThat(parts.database().packets().refunded(decode(stray))).isEqualTo(Amount.fen(900));
    }
    assertThat(paid(parts, paidPacket)).hasSize(10);
    assertThat(paid(parts, unpaidPacket)).hasSize(3);
    assertThat(paid(parts, survivor)).containsOnlyKeys("cm-" + run + "-s0");
    long senderBalance = api.get("/api/v1/wallet", api.token(sender)).json().getLong("balance");
    assertThat(senderBalance).isEqualTo(1_000_000 - spent + 300 + 900L * strays.size());
    service.assertReconciled();
  }

  /**
   * Sends packets until one's keys live on a master {@code wanted} accepts; the others go to {@code
   * strays}.
   */
  private String landing(IntPredicate wanted, Supplier<String> send, List<String> strays) {
    for (int i = 0; i < PLACEMENT_TRIES; i++) {
      String packet = send.get();
      if (wanted.test(masterOf(packet))) {
        return packet;
      }
      strays.add(packet);
    }
    throw new AssertionError("no packet of " + PLACEMENT_TRIES + " landed where wanted");
  }

  /** The port of the master owning the packet's slot (every key of a packet shares it). */
  private int masterOf(String packetId) {
    int slot = SlotHash.getSlot(keys.meta(decode(packetId)));
    for (int port : cluster.ports()) {
      RedisClient client = RedisClient.create(RedisURI.create("127.0.0.1", port));
      try (var connection = client.connect()) {
        String myself =
            connection
                .sync()
                .clusterNodes()
                .lines()
                .filter(line -> line.contains("myself"))
                .findFirst()
                .orElseThrow();
        if (ownsSlot(myself, slot)) {
          return port;
        }
      } finally {
        client.shutdown();
      }
    }
    throw new AssertionError("no master owns slot " + slot);
  }

  /** Whether the master on {@code port} holds the user's grab of the packet. */
  private boolean holdsGrab(int port, String packetId, String user) {
    RedisClient client = RedisClient.create(RedisURI.create("127.0.0.1", port));
    try (var connection = client.connect()) {
      return connection.sync().hexists(keys.grabs(decode(packetId)), user);
    } finally {
      client.shutdown();
    }
  }

  /** Whether a CLUSTER NODES line's slot ranges ("0-5460 10923") hold {@code slot}. */
  private static boolean ownsSlot(String line, int slot) {
    String[] fields = line.split(" ");
    for (int i = 8; i < fields.length; i++) {
      String[] range = fields[i].split("-");
      if (range[0].startsWith("[")) {
        continue; // a slot being migrated
      }
      int from = Integer.parseInt(range[0]);
      int to = range.length == 2 ? Integer.parseInt(range[1]) : from;
      if (slot >= from && slot <= to) {
        return true;
      }
    }
    return false;
  }

  /** Every master answers with the cluster whole again: the restarted one has rejoined. */
  private void awaitClusterOk() {
    await()
        .atMost(Duration.ofSeconds(30))
        .pollInterval(Duration.ofMillis(100))
        .ignoreExceptions()
        .until(
            () ->
                cluster.ports().stream()
                    .allMatch(
                        port -> {
                          RedisClient client =
                              RedisClient.create(RedisURI.create("127.0.0.1", port));
                          try (var connection = client.connect()) {
                            return connection.sync().clusterInfo().contains("cluster_state:ok");
                          } finally {
                            client.shutdown();
                          }
                        }));
  }
}
