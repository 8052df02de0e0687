package hongbao.redis.cluster;

import hongbao.core.Unavailable;
import hongbao.redis.RedisFaults;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.SlotHash;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

/**
 * Forms a Redis Cluster of masters out of empty nodes started with {@code cluster-enabled yes}:
 * what {@code redis-cli --cluster create} does without replicas. Each node gets its own config
 * epoch (so no epoch collision has to be settled first), meets the first, and takes an equal run of
 * the 16,384 hash slots; the formation is done when every node sees every slot served and every
 * node known. The embedded cluster and the tests use it.
 */
public final class ClusterFormation {

  private static final long POLL_MILLIS = 20;

  private ClusterFormation() {}

  /**
   * Forms the cluster and waits until every node agrees it is whole.
   *
   * @throws Unavailable when a node does not answer or the cluster is not whole within {@code
   *     timeout}
   */
  public static void form(List<RedisURI> nodes, Duration timeout) {
    if (nodes.isEmpty() || nodes.size() > SlotHash.SLOT_COUNT) {
      throw new IllegalArgumentException("a cluster needs 1.." + SlotHash.SLOT_COUNT + " nodes");
    }
    RedisClient client = RedisClient.create();
    var connections = new ArrayList<StatefulRedisConnection<String, String>>();
    try {
      for (RedisURI node : nodes) {
        connections.add(client.connect(node));
      }
      for (int i = 0; i < connections.size(); i++) {
        connections.get(i).sync().clusterSetConfigEpoch(i + 1L);
      }
      for (int i = 1; i < nodes.size(); i++) {
        connections.getFirst().sync().clusterMeet(nodes.get(i).getHost(), nodes.get(i).getPort());
      }
      for (int i = 0; i < connections.size(); i++) {
        connections.get(i).sync().clusterAddSlots(slotsOf(i, nodes.size()));
      }
      awaitWhole(connections, timeout);
    } catch (RuntimeException e) {
      throw RedisFaults.translate(e);
    } finally {
      connections.forEach(StatefulRedisConnection::close);
      client.shutdown();
    }
  }

  /** The {@code index}-th of {@code nodes} equal runs of slots. */
  static int[] slotsOf(int index, int nodes) {
    int from = (int) ((long) SlotHash.SLOT_COUNT * index / nodes);
    int to = (int) ((long) SlotHash.SLOT_COUNT * (index + 1) / nodes);
    return IntStream.range(from, to).toArray();
  }

  private static void awaitWhole(
      List<StatefulRedisConnection<String, String>> connections, Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!whole(connections)) {
      if (System.nanoTime() >= deadline) {
        throw new Unavailable("redis", "the cluster was not whole within " + timeout, null);
      }
      try {
        Thread.sleep(POLL_MILLIS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new Unavailable("redis", "interrupted while forming the cluster", e);
      }
    }
  }

  private static boolean whole(List<StatefulRedisConnection<String, String>> connections) {
    for (StatefulRedisConnection<String, String> connection : connections) {
      List<String> info = List.of(connection.sync().clusterInfo().split("\r?\n"));
      if (!info.contains("cluster_state:ok")
          || !info.contains("cluster_slots_ok:" + SlotHash.SLOT_COUNT)
          || !info.contains("cluster_known_nodes:" + connections.size())) {
        return false;
      }
    }
    return true;
  }
}
